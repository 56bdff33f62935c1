/**
 * Oracle check (issue 3): per dataset, the WCXB word F1 of the "oracle" extractor (labels from
 * src/train/labels.ts, text through textOf(outermost(main))). Metric as ../shared/data/README.md:
 * lower-cased Unicode \w+ tokens, multiset overlap, per-page P/R/F1 averaged over pages; empty
 * gold scores 1 iff the prediction is empty. A stand-in until `pith evaluate --method oracle`.
 *
 *   node --import tsx notebooks/oracle-f1.ts [--container 0.9] [--limit N] [--worst K] set...
 */
import { parseArgs } from "node:util";
import { oracle } from "../src/evaluate/oracle.ts";
import { wcxbWords } from "../src/evaluate/metrics.ts";
import { listDatasets, loadDataset, readDatasetPage, readGold } from "../src/io/dataset.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";

/** A page is "reachable" when the static snapshot's whole text holds this share of the gold words. */
export const REACHABLE_RECALL = 0.9;

const { values, positionals } = parseArgs({
  options: { container: { type: "string" }, limit: { type: "string" }, worst: { type: "string" } },
  allowPositionals: true,
});
const sets = positionals.length ? positionals : listDatasets();
for (const name of sets) {
  const ds = loadDataset(name);
  const pages = values.limit ? ds.pages.slice(0, Number(values.limit)) : ds.pages;
  const scores: Array<{ id: string; type: string; p: number; r: number; f: number; reach: number }> = [];
  const t0 = performance.now();
  for (const page of pages) {
    const gold = await readGold(ds, page);
    if (gold === null) continue;
    const snap = staticSnapshot(await readDatasetPage(ds, page));
    const params: Record<string, string | number> = {};
    if (values.container) params["container"] = Number(values.container);
    const ex = await oracle.extract(snap, { gold, params });
    const reach = wcxbWords(textOf(snap, buildTree(snap), [0]), gold).r; // gold words the page text holds at all
    const { p, r, f1: f } = wcxbWords(ex.text, gold);
    scores.push({ id: page.id, type: page.pageType, p, r, f, reach });
  }
  const mean = (k: "p" | "r" | "f" | "reach", list = scores): number =>
    list.reduce((s, x) => s + x[k], 0) / Math.max(1, list.length);
  const byType = new Map<string, typeof scores>();
  for (const s of scores) byType.set(s.type, [...(byType.get(s.type) ?? []), s]);
  const types = [...byType].map(([t, l]) => `${t} ${mean("f", l).toFixed(3)} (${l.length})`).join(", ");
  const reachable = scores.filter((x) => x.reach >= REACHABLE_RECALL);
  console.log(
    `${name}\tF1 on pages whose static text holds ≥ ${REACHABLE_RECALL} of the gold words: ${mean("f", reachable).toFixed(4)} (${reachable.length} of ${scores.length} pages)`,
  );
  console.log(
    `${name}\tpages ${scores.length}\tP ${mean("p").toFixed(4)}\tR ${mean("r").toFixed(4)}\tF1 ${mean("f").toFixed(4)}\treachable R ${mean("reach").toFixed(4)}\t${((performance.now() - t0) / 1000).toFixed(1)} s\t${types}`,
  );
  const worst = Number(values.worst ?? 0);
  if (worst)
    for (const s of [...scores].sort((a, b) => a.f - b.f).slice(0, worst))
      console.log(
        `  ${s.id}\t${s.type}\tP ${s.p.toFixed(3)} R ${s.r.toFixed(3)} F1 ${s.f.toFixed(3)} reachable R ${s.reach.toFixed(3)}`,
      );
}
