/** The dashboard's comparison with the other methods: `pith evaluate`'s word F1 per set and page type, per method. */
import { useEffect, useState } from "preact/hooks";
import type { TopLevelSpec } from "vega-lite";
import { getCompare, startCompare, type CompareStatus } from "./api.ts";
import { Chart } from "./chart.tsx";

/** How often a running comparison is asked for its progress (ms). */
const POLL_MS = 1000;

const compareSpec = (s: CompareStatus): TopLevelSpec => ({
  title: "mean word F1 per set and page type, by method (pith evaluate)",
  data: { values: s.runs.map((r) => ({ ...r, row: `${r.dataset} · ${r.group} (${r.pages})` })) },
  mark: "bar",
  encoding: {
    y: { field: "row", type: "nominal", title: null },
    yOffset: { field: "method" },
    x: { field: "f1", type: "quantitative", scale: { domain: [0, 1] }, title: "word F1" },
    color: { field: "method", type: "nominal" },
    tooltip: [{ field: "method" }, { field: "row" }, { field: "f1", format: ".3f" }],
  },
  width: 360,
});

export function ComparePanel() {
  const [status, setStatus] = useState<CompareStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void getCompare().then(setStatus), []);
  useEffect(() => {
    if (status?.state !== "running") return;
    const timer = window.setTimeout(() => void getCompare().then(setStatus), POLL_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const start = (): void => {
    setError(null);
    startCompare()
      .then(setStatus)
      .catch((e: Error) => setError(e.message));
  };
  return (
    <div class="compare">
      <button id="compare" disabled={status?.state === "running"} onClick={start}>
        Compare with Readability and defuddle
      </button>
      {status?.state === "running" && (
        <span>
          {" "}
          evaluating <progress max={status.total || 1} value={status.done} /> {status.done}/{status.total}
        </span>
      )}
      {status?.state === "failed" && <div class="error">{status.error}</div>}
      {error && <div class="error">{error}</div>}
      {status?.state === "done" && <Chart id="chart-compare" spec={compareSpec(status)} />}
    </div>
  );
}
