/**
 * Issue 3: where a set has gold-html (node-level annotation: l3s-gn1, readability), derive node
 * labels from it too (labelNodesFromGoldHtml) and report how often they agree with the labels
 * aligned from gold text (labelNodes). Per dataset: share of leaf segments (with words) whose
 * main label agrees, the same weighted by words, Cohen's kappa (word-weighted), and the WCXB word
 * F1 against the gold text of an oracle built from each label set.
 *
 *   node --import tsx notebooks/label-agreement.ts [--limit N] [set...]
 */
import { parseArgs } from "node:util";
import { textOf } from "../src/dom/text.ts";
import { buildTree, outermost } from "../src/dom/tree.ts";
import { analyzeStructure } from "../src/features/structural.ts";
import { loadDataset, readDatasetPage, readGold, readGoldHtml } from "../src/io/dataset.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { labelNodes, labelNodesFromGoldHtml, type NodeLabels } from "../src/train/labels.ts";
import { wcxbWords } from "../src/evaluate/metrics.ts";

const { values, positionals } = parseArgs({ options: { limit: { type: "string" } }, allowPositionals: true });
const sets = positionals.length ? positionals : ["l3s-gn1", "readability"];

function oracleText(
  page: ReturnType<typeof staticSnapshot>,
  tree: ReturnType<typeof buildTree>,
  l: NodeLabels,
): string {
  return textOf(
    page,
    tree,
    outermost(
      tree,
      [...l.nodes].filter((_, r) => l.main[r] === 1),
    ),
  );
}

for (const name of sets) {
  const ds = loadDataset(name);
  let leaves = 0,
    agree = 0,
    words = 0,
    agreeWords = 0;
  const cell = [0, 0, 0, 0]; // word-weighted [text=0/html=0, 0/1, 1/0, 1/1]
  let fText = 0,
    fHtml = 0,
    pages = 0;
  for (const page of ds.pages.slice(0, Number(values.limit ?? Infinity))) {
    const gold = await readGold(ds, page);
    const goldHtml = await readGoldHtml(ds, page);
    if (gold === null || goldHtml === null) continue;
    const snap = staticSnapshot(await readDatasetPage(ds, page));
    const tree = buildTree(snap);
    const structure = analyzeStructure(snap, tree);
    const a = labelNodes(snap, tree, gold, { structure });
    const b = labelNodesFromGoldHtml(snap, tree, goldHtml, { structure });
    for (let r = 0; r < a.nodes.length; r++) {
      const w = a.words[r] as number;
      if (!structure.leaf[a.nodes[r] as number] || w === 0) continue;
      const x = a.main[r] as number,
        y = b.main[r] as number;
      leaves++;
      words += w;
      if (x === y) (agree++, (agreeWords += w));
      cell[2 * x + y] = (cell[2 * x + y] as number) + w;
    }
    fText += wcxbWords(oracleText(snap, tree, a), gold).f1;
    fHtml += wcxbWords(oracleText(snap, tree, b), gold).f1;
    pages++;
  }
  const [c00, c01, c10, c11] = cell as [number, number, number, number];
  const po = (c00 + c11) / words;
  const pe = ((c00 + c01) * (c00 + c10) + (c10 + c11) * (c01 + c11)) / (words * words);
  console.log(
    `${name}\t${pages} pages\tleaf segments agreeing ${(agree / leaves).toFixed(4)} (${leaves})\tword-weighted ${(agreeWords / words).toFixed(4)}\tkappa ${((po - pe) / (1 - pe)).toFixed(4)}\ttext-only main ${(c10 / words).toFixed(4)} / html-only main ${(c01 / words).toFixed(4)} of words\toracle F1 vs gold text: text labels ${(fText / pages).toFixed(4)}, gold-html labels ${(fHtml / pages).toFixed(4)}`,
  );
}
