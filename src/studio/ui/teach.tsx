/**
 * Teach: for each host with labeled pages, "Train site model" runs per-domain training in the
 * background (src/studio/teach.ts) with a progress bar, then shows the held-out word F1 before
 * and after and where the model was installed.
 */
import { useEffect, useState } from "preact/hooks";
import { getTeach, startTeach, type PageSummary, type TeachStatus } from "./api.ts";

/** How often a running job is asked for its progress (ms). */
const POLL_MS = 700;
/** Labeled pages a host needs (src/studio/teach.ts MIN_TEACH_PAGES). */
const MIN_PAGES = 2;

function labeledByHost(rows: PageSummary[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.host && r.hasGold) counts.set(r.host, (counts.get(r.host) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

function useTeach(onDone: () => void): [TeachStatus | null, (host: string) => void, string | null] {
  const [status, setStatus] = useState<TeachStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (status?.state !== "running") return;
    const timer = window.setTimeout(() => {
      getTeach()
        .then((s) => {
          setStatus(s);
          if (s && s.state !== "running") onDone();
        })
        .catch((e: Error) => setError(e.message));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [status]);
  useEffect(() => void getTeach().then(setStatus), []);
  const start = (host: string): void => {
    setError(null);
    startTeach(host)
      .then(setStatus)
      .catch((e: Error) => setError(e.message));
  };
  return [status, start, error];
}

function Outcome(props: { status: TeachStatus }) {
  const { status } = props;
  if (status.state === "running") {
    const p = status.progress;
    return (
      <div id="teach-progress">
        training {status.host}: {p?.phase ?? "starting"} <progress max={p?.total || 1} value={p?.done ?? 0} />{" "}
        {p ? `${p.done}/${p.total}` : ""}
      </div>
    );
  }
  if (status.state === "failed")
    return (
      <div class="error" id="teach-error">
        {status.error}
      </div>
    );
  const r = status.result!;
  const lift = r.after - r.before;
  return (
    <div id="teach-result">
      {r.host}: held-out word F1 over {r.pages} labeled pages ({r.folds} folds, leave-pages-out, {r.mode}{" "}
      renders) before <b id="teach-before">{r.before.toFixed(3)}</b> → after{" "}
      <b id="teach-after">{r.after.toFixed(3)}</b> ({lift >= 0 ? "+" : ""}
      {lift.toFixed(3)}); installed at <code>{r.file}</code> in {r.seconds.toFixed(1)} s
    </div>
  );
}

export function TeachPanel(props: { rows: PageSummary[]; refresh: () => void }) {
  const [status, start, error] = useTeach(props.refresh);
  const hosts = labeledByHost(props.rows);
  if (!hosts.length && !status) return null;
  const running = status?.state === "running";
  return (
    <section class="teach" id="teach">
      <b>Teach a site</b> <span class="muted">a per-domain model from a host's labeled pages</span>
      <div class="hosts">
        {hosts.map(([host, n]) => (
          <button
            class="teach-host"
            data-host={host}
            disabled={running || n < MIN_PAGES}
            title={n < MIN_PAGES ? `label at least ${MIN_PAGES} pages of ${host}` : ""}
            onClick={() => start(host)}
          >
            Train site model: {host} ({n} labeled)
          </button>
        ))}
      </div>
      {status && <Outcome status={status} />}
      {error && <div class="error">{error}</div>}
    </section>
  );
}
