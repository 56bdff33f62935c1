/** Beside the page: the extracted text (or Markdown), the gold, or the word diff of the one against the other. */
import { useMemo, useState } from "preact/hooks";
import type { PageDetail } from "./api.ts";
import { wordDiff } from "./diff.ts";

type Tab = "text" | "markdown" | "diff" | "gold";

const TAB_NAMES: Record<Tab, string> = {
  text: "extracted text",
  markdown: "Markdown",
  diff: "diff vs gold",
  gold: "gold",
};

function Diff(props: { text: string; gold: string }) {
  const parts = useMemo(() => wordDiff(props.text, props.gold), [props.text, props.gold]);
  return (
    <div class="diff" id="diff">
      {parts.map((d) => (
        <span class={d.kind}>{d.words.join(" ")} </span>
      ))}
    </div>
  );
}

export function TextPanel(props: { page: PageDetail }) {
  const { page } = props;
  const [tab, setTab] = useState<Tab>(page.gold !== null ? "diff" : "text");
  const tabs: Tab[] = page.gold !== null ? ["text", "markdown", "diff", "gold"] : ["text", "markdown"];
  return (
    <aside class="text-panel">
      <div class="tabs">
        {tabs.map((t) => (
          <button id={`tab-${t}`} class={t === tab ? "on" : ""} onClick={() => setTab(t)}>
            {TAB_NAMES[t]}
          </button>
        ))}
        {tab === "diff" && (
          <span class="muted">
            <span class="extra">extra</span> <span class="missing">missing</span>
          </span>
        )}
      </div>
      {tab === "text" && <pre id="extracted">{page.text || page.emptyReason}</pre>}
      {tab === "markdown" && <pre id="markdown">{page.markdown || page.emptyReason}</pre>}
      {tab === "gold" && <pre>{page.gold}</pre>}
      {tab === "diff" && page.gold !== null && <Diff text={page.text} gold={page.gold} />}
    </aside>
  );
}
