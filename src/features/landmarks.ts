/**
 * Which sectioning element or landmark a node sits in, at any depth: `<footer>`, `<nav>`,
 * `<aside>`, `<main>`, `<article>`, an ARIA landmark role that marks page furniture
 * (contentinfo, navigation, complementary, banner), or a dialog (`<dialog>`,
 * role=dialog/alertdialog, aria-modal="true"). The DOM family sees a node's own tag and role,
 * the context family its four nearest ancestors' statistics and id/class keywords at any depth;
 * none of them says "inside a <footer> nine levels up", which is where Readability-style
 * extractors look first (HTML Living Standard §4.3 sectioning content; WAI-ARIA 1.2 landmarks).
 *
 * Measured on the labels first (static view, the first 500 pages of a set, words of leaf rows
 * and their aligned gold share): on wcxb-dev words inside a <footer> are 0.4 % gold (against
 * 33 % for an id/class "footer" keyword, which also names post footers), <nav> 0.1 %, dialogs
 * and furniture roles 0.0 %, <aside> 4.6 %, <main> 84 %, <article> 85 %; dragnet alike.
 * Left out after measuring (docs/features.md, "Landmark ancestry"): <header> (5 % gold
 * on wcxb-dev but 16 % on dragnet, whose gold keeps the headline and date an article's
 * <header> holds) and <form> (15 % on both: ASP.NET pages wrap the whole body in one); with
 * them wcxb-dev gained less.
 */
import type { SnapshotNode } from "../types.ts";
import { def, inheritedAtRows, skipRow, type FeatureFamily } from "./registry.ts";

/** Sectioning elements with a column each (own or ancestor). */
export const LANDMARK_TAGS = ["footer", "nav", "aside", "main", "article"] as const;
/** ARIA landmark roles of page furniture (one column for any of them). */
const FURNITURE_ROLES: ReadonlySet<string> = new Set([
  "contentinfo",
  "navigation",
  "complementary",
  "banner",
]);
const DIALOG_ROLES: ReadonlySet<string> = new Set(["dialog", "alertdialog"]);

const TAG_BIT = new Map<string, number>(LANDMARK_TAGS.map((t, k) => [t, 1 << k]));
const FURNITURE_BIT = 1 << LANDMARK_TAGS.length;
const DIALOG_BIT = 1 << (LANDMARK_TAGS.length + 1);

function ownBits(n: SnapshotNode): number {
  if (n.type !== 1) return 0;
  let b = TAG_BIT.get(n.tag) ?? 0;
  const a = n.attrs;
  if (n.tag === "dialog") b |= DIALOG_BIT;
  if (!a) return b;
  const role = a["role"];
  if (role !== undefined) {
    if (FURNITURE_ROLES.has(role)) b |= FURNITURE_BIT;
    if (DIALOG_ROLES.has(role)) b |= DIALOG_BIT;
  }
  if (a["aria-modal"] === "true") b |= DIALOG_BIT;
  return b;
}

export const landmarkFamily: FeatureFamily = {
  family: "landmarks",
  defs: [
    ...LANDMARK_TAGS.map((t) => def(`lm_in_${t}`, `the node is or is inside a <${t}>`, "pith")),
    def(
      "lm_in_furniture_role",
      "the node or an ancestor has role contentinfo, navigation, complementary or banner",
      "pith",
    ),
    def(
      "lm_in_dialog",
      'the node or an ancestor is a dialog (<dialog>, role=dialog/alertdialog, aria-modal="true")',
      "pith",
    ),
  ],
  fill(f, out) {
    const bits = inheritedAtRows(f, (i) => ownBits(f.page.nodes[i] as SnapshotNode));
    const base = out.col(`lm_in_${LANDMARK_TAGS[0]}`);
    const width = LANDMARK_TAGS.length + 2;
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const b = bits[f.rows[row] as number] as number;
      for (let k = 0; k < width; k++) out.set(row, base + k, (b >> k) & 1);
    }
  },
};
