/** The studio's browser entry: the Pages table (#/) and one page (#/page/<key>), routed by the URL hash. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { EvaluateView } from "./evaluate.tsx";
import { InspectView } from "./inspect.tsx";
import { PagesView } from "./pages.tsx";
import "./app.css";

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = (): void => setHash(location.hash);
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return hash;
}

/** The Pages table's order when a page was last opened from it: what "Save & next" walks. */
let walk: string[] = [];

/** `#/page/<key>`, or `#/page/<key>/label` to open it in Label mode. */
const pageHash = (key: string, label: boolean): string =>
  `#/page/${encodeURIComponent(key)}${label ? "/label" : ""}`;

function App() {
  const hash = useHash();
  const [, page, label] = /^#\/page\/([^/]+)(\/label)?$/.exec(hash) ?? [];
  const open = (key: string, order?: string[]): void => {
    if (order) walk = order;
    location.hash = pageHash(key, false);
  };
  const key = page ? decodeURIComponent(page) : "";
  const at = walk.indexOf(key);
  const next = at >= 0 ? walk[at + 1] : undefined;
  return (
    <>
      <header>
        <a href="#/">pith studio</a>
        <a href="#/" class="nav">
          Pages
        </a>
        <a href="#/evaluate" class="nav" id="nav-evaluate">
          Evaluate
        </a>
      </header>
      <main>
        {page ? (
          <InspectView
            pageKey={key}
            label={label !== undefined}
            back={() => (location.hash = "#/")}
            next={next ? () => (location.hash = pageHash(next, true)) : null}
          />
        ) : hash === "#/evaluate" ? (
          <EvaluateView open={open} />
        ) : (
          <PagesView open={open} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app") as HTMLElement);
