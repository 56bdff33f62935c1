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

function App() {
  const hash = useHash();
  const page = /^#\/page\/([^/]+)$/.exec(hash)?.[1];
  const open = (key: string): void => void (location.hash = `#/page/${encodeURIComponent(key)}`);
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
          <InspectView pageKey={decodeURIComponent(page)} back={() => (location.hash = "#/")} />
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
