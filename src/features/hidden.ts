/**
 * Which kind of markup hides a node, itself or through an ancestor: the `hidden` attribute,
 * aria-hidden="true", an inline display:none / visibility:hidden. In static mode the learned
 * pipeline reads such text as candidates (src/pipeline/hidden-text.ts) and these three columns
 * tell the classifiers where it came from; in a view without it (the other extractors, Chromium
 * mode) they are 0 on every visible node except aria-hidden ones that CSS shows (Chromium).
 * `hid_attr` counts every `hidden` attribute, also the streamed-SSR boundaries (`<div hidden
 * id="S:n">`) that the static renderer shows, as the bundled model was trained.
 */
import { HIDDEN_BY, markupHiding } from "../dom/hiding.ts";
import type { SnapshotNode } from "../types.ts";
import { def, inheritedAtRows, skipRow, type FeatureFamily } from "./registry.ts";

export const hiddenFamily: FeatureFamily = {
  family: "hidden",
  defs: [
    def("hid_attr", "the node or an ancestor has the `hidden` attribute", "pith"),
    def("hid_aria", 'the node or an ancestor has aria-hidden="true"', "pith"),
    def("hid_style", "the node or an ancestor has an inline display:none / visibility:hidden", "pith"),
  ],
  fill(f, out) {
    const bits = inheritedAtRows(f, (i) => {
      const n = f.page.nodes[i] as SnapshotNode;
      return n.type === 1 && n.attrs ? markupHiding(n.attrs) : 0;
    });
    const c = [out.col("hid_attr"), out.col("hid_aria"), out.col("hid_style")] as const;
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const b = bits[f.rows[row] as number] as number;
      out.set(row, c[0], b & HIDDEN_BY.attr ? 1 : 0);
      out.set(row, c[1], b & HIDDEN_BY.aria ? 1 : 0);
      out.set(row, c[2], b & HIDDEN_BY.style ? 1 : 0);
    }
  },
};
