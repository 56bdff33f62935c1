/**
 * The Evaluate dashboard (Vega-Lite, bundled): mean word F1 per page type, precision against
 * recall per page (click a point to inspect the page), the feature importances of the model in
 * use, and on demand `pith evaluate`'s comparison with the other methods (compare.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import type { TopLevelSpec } from "vega-lite";
import { getDashboard, type DashboardResponse } from "./api.ts";
import { Chart } from "./chart.tsx";
import { ComparePanel } from "./compare.tsx";

/** How often the dashboard asks again while the server is still analysing pages (ms). */
const POLL_MS = 1000;

const byTypeSpec = (d: DashboardResponse): TopLevelSpec => ({
  title: "mean word F1 per page type",
  data: { values: d.byType },
  mark: "bar",
  encoding: {
    y: { field: "type", type: "nominal", sort: "-x", title: null },
    x: { field: "f1", type: "quantitative", scale: { domain: [0, 1] }, title: "word F1" },
    tooltip: [{ field: "type" }, { field: "pages" }, { field: "f1", format: ".3f" }],
  },
  width: 300,
});

const scatterSpec = (d: DashboardResponse): TopLevelSpec => ({
  title: "word precision and recall per page (click to inspect)",
  data: { values: d.pages },
  mark: { type: "point", filled: true, size: 70, cursor: "pointer" },
  encoding: {
    x: { field: "r", type: "quantitative", scale: { domain: [0, 1] }, title: "recall" },
    y: { field: "p", type: "quantitative", scale: { domain: [0, 1] }, title: "precision" },
    color: { field: "goldType", type: "nominal", title: "page type" },
    tooltip: [{ field: "id" }, { field: "host" }, { field: "f1", format: ".3f" }],
  },
  width: 360,
  height: 300,
});

const importanceSpec = (d: DashboardResponse): TopLevelSpec => ({
  title: `feature importance (share of gain), ${d.model}, general content model`,
  data: { values: d.importance },
  mark: "bar",
  encoding: {
    y: { field: "name", type: "nominal", sort: "-x", title: null },
    x: { field: "share", type: "quantitative", title: "share of total gain", axis: { format: "%" } },
  },
  width: 300,
});

function useDashboard(): DashboardResponse | string | null {
  const [data, setData] = useState<DashboardResponse | string | null>(null);
  useEffect(() => {
    let timer = 0;
    const load = (): void => {
      getDashboard()
        .then((d) => {
          setData(d);
          if (d.analysed < d.total) timer = window.setTimeout(load, POLL_MS);
        })
        .catch((e: Error) => setData(e.message));
    };
    load();
    return () => clearTimeout(timer);
  }, []);
  return data;
}

export function EvaluateView(props: { open: (key: string) => void }) {
  const data = useDashboard();
  if (data === null) return <p>loading…</p>;
  if (typeof data === "string") return <p class="error">{data}</p>;
  return (
    <section class="evaluate">
      <p class="muted">
        {data.pages.length} labeled pages scored by {data.model}
        {data.analysed < data.total ? ` (analysing ${data.analysed}/${data.total})` : ""}
      </p>
      <div class="charts">
        <Chart id="chart-types" spec={byTypeSpec(data)} />
        <Chart id="chart-scatter" spec={scatterSpec(data)} onClick={(d) => props.open(String(d["key"]))} />
        <Chart id="chart-importance" spec={importanceSpec(data)} />
      </div>
      <ComparePanel />
    </section>
  );
}
