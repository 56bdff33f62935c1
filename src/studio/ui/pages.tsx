/** The Pages table: every page with host, page types, words and P/R/F1; sortable, filterable, worst first. */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { getPages, type PageSummary, type PagesResponse } from "./api.ts";
import { TeachPanel } from "./teach.tsx";

type Column = "id" | "host" | "goldType" | "routedType" | "words" | "p" | "r" | "f1";

const COLUMNS: { key: Column; label: string; numeric?: boolean }[] = [
  { key: "id", label: "page" },
  { key: "host", label: "host" },
  { key: "goldType", label: "type (gold)" },
  { key: "routedType", label: "type (routed)" },
  { key: "words", label: "words", numeric: true },
  { key: "p", label: "P", numeric: true },
  { key: "r", label: "R", numeric: true },
  { key: "f1", label: "F1", numeric: true },
];

/** How often the table asks for rows while the server is still analysing pages (ms). */
const POLL_MS = 800;

const fmt = (v: number | null): string => (v === null ? "" : v.toFixed(3));

/** Rows sorted by a column, missing values last; F1 ascending (worst first) by default. */
export function sortRows(rows: PageSummary[], by: Column, ascending: boolean): PageSummary[] {
  return [...rows].sort((a, b) => {
    const x = a[by];
    const y = b[by];
    if (x === y) return a.key < b.key ? -1 : 1;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (ascending ? 1 : -1);
  });
}

function matches(row: PageSummary, filter: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return [row.id, row.host, row.goldType, row.routedType].some((v) => v?.toLowerCase().includes(f));
}

function usePages(): { data: PagesResponse | null; error: string | null; refresh: () => void } {
  const [data, setData] = useState<PagesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let timer = 0;
    const load = (): void => {
      getPages()
        .then((d) => {
          setData(d);
          if (d.analysed < d.pages.length) timer = window.setTimeout(load, POLL_MS);
        })
        .catch((e: Error) => setError(e.message));
    };
    load();
    return () => clearTimeout(timer);
  }, [round]);
  return { data, error, refresh: () => setRound((r) => r + 1) };
}

function Row(props: { row: PageSummary; selected: boolean; open: () => void }) {
  const { row } = props;
  return (
    <tr class={props.selected ? "selected" : ""} onClick={props.open} data-key={row.key}>
      <td>{row.id}</td>
      <td>{row.host ?? ""}</td>
      <td>{row.goldType ?? ""}</td>
      <td>{row.error ? <span class="error">{row.error}</span> : (row.routedType ?? "…")}</td>
      <td class="num">{row.words ?? ""}</td>
      <td class="num">{fmt(row.p)}</td>
      <td class="num">{fmt(row.r)}</td>
      <td class="num">{fmt(row.f1)}</td>
    </tr>
  );
}

function useKeys(count: number, open: (index: number) => void): number {
  const [at, setAt] = useState(0);
  const ref = useRef({ at, count, open });
  ref.current = { at, count, open };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.target instanceof HTMLInputElement) return;
      const { at: now, count: n } = ref.current;
      if (e.key === "ArrowDown" || e.key === "j") setAt(Math.min(n - 1, now + 1));
      else if (e.key === "ArrowUp" || e.key === "k") setAt(Math.max(0, now - 1));
      else if (e.key === "Enter") ref.current.open(now);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => document.querySelector("tr.selected")?.scrollIntoView({ block: "nearest" }), [at]);
  return Math.min(at, Math.max(0, count - 1));
}

type Sort = { by: Column; ascending: boolean };

/** A column's header: a click sorts by it, a second click reverses. */
function Header(props: { column: (typeof COLUMNS)[number]; sort: Sort; setSort: (s: Sort) => void }) {
  const { column: c, sort } = props;
  return (
    <th
      class={c.numeric ? "num" : ""}
      onClick={() => props.setSort({ by: c.key, ascending: sort.by === c.key ? !sort.ascending : true })}
    >
      {c.label} {sort.by === c.key ? (sort.ascending ? "▲" : "▼") : ""}
    </th>
  );
}

/** `open` is given the table's order too ("Save & next" walks it). */
export function PagesView(props: { open: (key: string, order: string[]) => void }) {
  const { data, error, refresh } = usePages();
  const [sort, setSort] = useState<Sort>({ by: "f1", ascending: true });
  const [filter, setFilter] = useState("");
  const rows = useMemo(
    () =>
      sortRows(
        (data?.pages ?? []).filter((r) => matches(r, filter)),
        sort.by,
        sort.ascending,
      ),
    [data, filter, sort],
  );
  const order = (): string[] => rows.map((r) => r.key);
  const open = (key: string): void => props.open(key, order());
  const at = useKeys(rows.length, (i) => rows[i] && open(rows[i].key));
  if (error) return <p class="error">{error}</p>;
  if (!data) return <p>loading…</p>;
  return (
    <section class="pages">
      <div class="toolbar">
        <input
          placeholder="filter: id, host, type"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
        <span class="muted">
          {rows.length} pages ·{" "}
          {data.analysed < data.pages.length
            ? `analysing ${data.analysed}/${data.pages.length}`
            : "all analysed"}{" "}
          · mode {data.mode} · ↑↓ to move, Enter to open
        </span>
      </div>
      <TeachPanel rows={data.pages} refresh={refresh} />
      <table id="pages-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <Header key={c.key} column={c} sort={sort} setSort={setSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <Row key={r.key} row={r} selected={i === at} open={() => open(r.key)} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
