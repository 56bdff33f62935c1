/**
 * Why the oracle falls short on some pages (issue 3): pages whose static snapshot text holds
 * less than REACHABLE_RECALL of the gold words can't be fixed by labels. Each is put in one bucket:
 * - "hidden": the words are in the snapshot but marked invisible (e.g. body content parsed into
 *   <head>, Next.js streaming `<div hidden>`);
 * - "dropped by the parser": the raw HTML's text (tags stripped by regex) holds them but the
 *   snapshot has no such text at all (e.g. an unclosed <title> swallowing the page, <noscript>);
 * - "not in the page": the raw HTML does not hold them either (gold from another capture).
 *
 *   node --import tsx notebooks/unreachable-gold.ts [set...]
 */
import { textOf } from "../src/dom/text.ts";
import { buildTree } from "../src/dom/tree.ts";
import { wcxbWords } from "../src/evaluate/metrics.ts";
import { listDatasets, loadDataset, readDatasetPage, readGold } from "../src/io/dataset.ts";
import { staticSnapshot } from "../src/render/static.ts";

export const REACHABLE_RECALL = 0.9;
const TAGS = /<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]*>/gi;

for (const name of process.argv.slice(2).length ? process.argv.slice(2) : listDatasets()) {
  const ds = loadDataset(name);
  const buckets = new Map<string, string[]>();
  let n = 0;
  for (const page of ds.pages) {
    const gold = await readGold(ds, page);
    if (gold === null || !gold.trim()) continue;
    n++;
    const input = await readDatasetPage(ds, page);
    const snap = staticSnapshot(input);
    const tree = buildTree(snap);
    const visible = wcxbWords(textOf(snap, tree, [0]), gold).r;
    if (visible >= REACHABLE_RECALL) continue;
    const all = wcxbWords(textOf(snap, tree, [0], { visibleOnly: false }), gold).r;
    const raw = wcxbWords(input.html.replace(TAGS, " ").replace(/&[a-z]+;|&#\d+;/g, " "), gold).r;
    const bucket =
      all >= REACHABLE_RECALL
        ? "hidden"
        : raw >= REACHABLE_RECALL
          ? "dropped by the parser"
          : "not in the page";
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), `${page.id}(${visible.toFixed(2)})`]);
  }
  const parts = [...buckets].map(
    ([b, ids]) => `${b}: ${ids.length} [${ids.slice(0, 6).join(" ")}${ids.length > 6 ? " …" : ""}]`,
  );
  console.log(`${name}\t${n} pages with gold\t${parts.join("\t") || "all reachable"}`);
}
