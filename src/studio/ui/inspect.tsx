/**
 * Inspect and Label one page: the page as pith saw it in a sandboxed frame (kept blocks outlined
 * green, dropped ones dashed red; hover shows P(main), the deciding step and the trace's reason),
 * beside it the extracted text or its word diff against the gold; in Label mode a click toggles a
 * block, shift-click labels the block's whole parent, with undo, redo and pith's choice to start from.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { frameUrl, getPage, saveLabels, type Block, type PageDetail } from "./api.ts";
import { attachFrame, paintLabels } from "./frame.ts";
import { initial, redo, replace, sameLabels, setLabel, undo, type LabelState } from "./labels.ts";
import { TextPanel } from "./text-panel.tsx";

interface Hover {
  block: Block;
  box: DOMRect;
}

type Save = { state: "idle" | "saving" | "saved" } | { state: "failed"; error: string };

function Tooltip(props: { hover: Hover; frame: HTMLIFrameElement | null }) {
  const { block, box } = props.hover;
  const at = props.frame?.getBoundingClientRect();
  const top = (at?.top ?? 0) + Math.max(0, box.top) + 4;
  const left = (at?.left ?? 0) + Math.max(0, box.left) + 4;
  return (
    <div class="tooltip" style={{ top: `${top}px`, left: `${left}px` }} id="tooltip">
      <b>{block.kept ? "kept" : "dropped"}</b> · P(main) {block.p === null ? "–" : block.p.toFixed(3)} ·{" "}
      {block.words} words · &lt;{block.tag}&gt;
      <div>
        <i>{block.step}</i>: {block.reason}
      </div>
      <div class="muted">{block.path}</div>
    </div>
  );
}

function usePage(key: string): { page: PageDetail | null; error: string | null } {
  const [page, setPage] = useState<PageDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setPage(null);
    setError(null);
    getPage(key)
      .then(setPage)
      .catch((e: Error) => setError(e.message));
  }, [key]);
  return { page, error };
}

/** The labeling's state, its saved copy and the save's outcome. */
function useLabels(page: PageDetail) {
  const start = page.goldMain ?? [];
  const [labels, setLabels] = useState<LabelState>(() => initial(start));
  const [saved, setSaved] = useState<ReadonlySet<number>>(() => new Set(start));
  const [pageType, setPageType] = useState<string | null>(page.goldType);
  const [save, setSave] = useState<Save>({ state: "idle" });
  const dirty = !sameLabels(labels.main, saved) || pageType !== page.goldType;
  /** Saves; `then` runs once the save succeeded. */
  const doSave = (then?: () => void): void => {
    setSave({ state: "saving" });
    const main = [...labels.main].sort((a, b) => a - b);
    saveLabels(page.key, main, pageType)
      .then(() => {
        setSaved(new Set(main));
        page.goldType = pageType;
        setSave({ state: "saved" });
        then?.();
      })
      .catch((e: Error) => setSave({ state: "failed", error: e.message }));
  };
  return { labels, setLabels, pageType, setPageType, save, doSave, dirty };
}

type Labeling = ReturnType<typeof useLabels>;

function useUndoKeys(l: Labeling): void {
  const ref = useRef(l);
  ref.current = l;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey)) return;
      const k = e.key.toLowerCase();
      if (k === "z") ref.current.setLabels(e.shiftKey ? redo : undo);
      else if (k === "y") ref.current.setLabels(redo);
      else if (k === "s") ref.current.doSave();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

function LabelBar(props: { page: PageDetail; l: Labeling; next: (() => void) | null }) {
  const { page, l } = props;
  const kept = page.blocks.filter((b) => b.kept).map((b) => b.node);
  const save = l.save;
  return (
    <div class="labelbar">
      <button id="accept" onClick={() => l.setLabels((s) => replace(s, kept))}>
        Accept pith's choice
      </button>
      <button id="clear" onClick={() => l.setLabels((s) => replace(s, []))}>
        All noise
      </button>
      <button id="undo" disabled={!l.labels.past.length} onClick={() => l.setLabels(undo)}>
        Undo
      </button>
      <button id="redo" disabled={!l.labels.future.length} onClick={() => l.setLabels(redo)}>
        Redo
      </button>
      <select
        id="page-type"
        value={l.pageType ?? ""}
        onChange={(e) => l.setPageType(e.currentTarget.value || null)}
      >
        <option value="">page type…</option>
        {page.pageTypes.map((t) => (
          <option value={t}>{t}</option>
        ))}
      </select>
      <button id="save" class="primary" disabled={save.state === "saving"} onClick={() => l.doSave()}>
        Save{l.dirty ? " *" : ""}
      </button>
      {props.next && (
        <button
          id="save-next"
          disabled={save.state === "saving"}
          onClick={() => props.next && l.doSave(props.next)}
        >
          Save &amp; next
        </button>
      )}
      <span class="muted">
        {l.labels.main.size} main blocks · click toggles, shift-click labels the parent
      </span>
      {save.state === "saved" && !l.dirty && (
        <span class="ok" id="save-ok">
          saved
        </span>
      )}
      {save.state === "failed" && (
        <span class="error" id="save-error">
          {save.error} (labels kept, not saved)
        </span>
      )}
    </div>
  );
}

function Summary(props: { page: PageDetail }) {
  const { page } = props;
  return (
    <div class="summary">
      <b>{page.id}</b> <span class="muted">{page.url ?? ""}</span> · routed <b>{page.pageType ?? "–"}</b>
      {page.threshold !== null && <> (threshold {page.threshold.toFixed(3)})</>} · {page.model}
      {page.prf && (
        <>
          {" "}
          · P {page.prf.p.toFixed(3)} R {page.prf.r.toFixed(3)} <b>F1 {page.prf.f1.toFixed(3)}</b>
        </>
      )}
      {page.emptyReason && <div class="error">{page.emptyReason}</div>}
      {page.warning && (
        <div class="error" id="page-warning">
          {page.warning}
        </div>
      )}
    </div>
  );
}

export function InspectView(props: ViewProps & { pageKey: string }) {
  const { page, error } = usePage(props.pageKey);
  if (error)
    return (
      <p class="error" id="page-error">
        {error}
      </p>
    );
  if (!page) return <p>analysing…</p>;
  return <PageView key={page.key} page={page} {...props} />;
}

interface ViewProps {
  back: () => void;
  /** Opens the next page of the Pages table in Label mode (null: none). */
  next: (() => void) | null;
  /** Open in Label mode. */
  label: boolean;
}

function PageView(props: ViewProps & { page: PageDetail }) {
  const { page } = props;
  const [labeling, setLabeling] = useState(props.label);
  const [hover, setHover] = useState<Hover | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const l = useLabels(page);
  useUndoKeys(l);
  const byNode = useMemo(() => new Map(page.blocks.map((b) => [b.node, b])), [page]);
  const [doc, setDoc] = useState<Document | null>(null);
  const labelingRef = useRef(labeling);
  labelingRef.current = labeling;
  useEffect(() => {
    if (!doc) return;
    return attachFrame(doc, {
      hover: (node, box) =>
        setHover(node === null || !box ? null : { block: byNode.get(node) as Block, box }),
      click: (node, region) => {
        if (!labelingRef.current) return;
        l.setLabels((s) => setLabel(s, region ?? [node], !s.main.has(node)));
      },
    });
  }, [doc]);
  useEffect(() => {
    if (doc) paintLabels(doc, labeling ? l.labels.main : null);
  }, [doc, labeling, l.labels]);
  return (
    <section class="inspect">
      <div class="toolbar">
        <button onClick={props.back}>← Pages</button>
        <button id="mode-inspect" class={labeling ? "" : "on"} onClick={() => setLabeling(false)}>
          Inspect
        </button>
        <button id="mode-label" class={labeling ? "on" : ""} onClick={() => setLabeling(true)}>
          Label
        </button>
        <Summary page={page} />
      </div>
      {labeling && <LabelBar page={page} l={l} next={props.next} />}
      <div class="split">
        <iframe
          ref={frame}
          id="page-frame"
          sandbox="allow-same-origin"
          src={frameUrl(page.key)}
          onLoad={() => setDoc(frame.current?.contentDocument ?? null)}
        />
        <TextPanel page={page} />
      </div>
      {hover && <Tooltip hover={hover} frame={frame.current} />}
    </section>
  );
}
