/**
 * Visual features (Louvan et al., §3.1 "features from visual properties": position and size of
 * the rendered block, relative to the page; font size). Chromium mode only: the static renderer
 * has no layout, so every column here is NaN (missing, never 0) for static snapshots. Text nodes
 * use their parent element's box and style.
 */
import type { Box, NodeStyle, PageSnapshot, SnapshotNode } from "../types.ts";
import { def, skipRow, ratio, type FeatureFamily, type PageFacts } from "./registry.ts";

const V = "louvan";
export const VISUAL_NAMES = [
  ["vis_x", "left edge of the border box (CSS px)"],
  ["vis_y", "top edge of the border box (CSS px)"],
  ["vis_w", "box width (CSS px)"],
  ["vis_h", "box height (CSS px)"],
  ["vis_x_rel", "left edge / document width"],
  ["vis_y_rel", "top edge / document height"],
  ["vis_w_rel", "width / document width"],
  ["vis_h_rel", "height / document height"],
  ["vis_area_share", "box area / document area"],
  ["vis_visible", "rendered and visible with a non-empty box"],
  ["vis_font_rel", "computed font size / the page's body-text font size (character-weighted median)"],
  ["vis_font_weight", "computed font weight (100-900)"],
  ["vis_above_fold", "top edge within the first viewport height"],
  ["vis_center_offset", "|box centre x - document centre| / document width"],
] as const;

function boxOf(page: PageSnapshot, i: number): { box: Box | undefined; style: NodeStyle | undefined } {
  const node = page.nodes[i] as SnapshotNode;
  if (node.type === 1) return { box: node.box, style: node.style };
  const p = page.nodes[node.parent];
  return { box: node.box ?? p?.box, style: p?.style };
}

/** Character-weighted median font size of the page's text (the "body text" size). */
function bodyFontSize(f: PageFacts): number {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < f.tree.n; i++) {
    const node = f.page.nodes[i] as SnapshotNode;
    if (node.type !== 3 || f.stats.structure.content[i] !== 1) continue;
    const size = boxOf(f.page, i).style?.fontSize;
    const chars = f.stats.structure.chars[i] as number;
    if (size !== undefined && chars > 0) pairs.push([size, chars]);
  }
  if (!pairs.length) return NaN;
  pairs.sort((a, b) => a[0] - b[0]);
  const total = pairs.reduce((s, p) => s + p[1], 0);
  let acc = 0;
  for (const [size, c] of pairs) if ((acc += c) * 2 >= total) return size;
  return NaN;
}

export const visualFamily: FeatureFamily = {
  family: "visual",
  defs: VISUAL_NAMES.map(([n, d]) => def(n, d, V)),
  fill(f, out) {
    const base = out.col("vis_x");
    const cols = VISUAL_NAMES.length;
    if (f.page.mode !== "chromium" || !f.page.document) {
      for (let row = 0; row < f.rows.length; row++)
        if (!skipRow(f, row)) for (let k = 0; k < cols; k++) out.set(row, base + k, NaN);
      return;
    }
    const doc = f.page.document;
    const fold = f.page.viewport?.height ?? NaN;
    const body = bodyFontSize(f);
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      const { box, style } = boxOf(f.page, i);
      const v = box
        ? [
            box.x,
            box.y,
            box.w,
            box.h,
            ratio(box.x, doc.width),
            ratio(box.y, doc.height),
            ratio(box.w, doc.width),
            ratio(box.h, doc.height),
            ratio(box.w * box.h, doc.width * doc.height),
            (f.page.nodes[i] as SnapshotNode).visible && box.w > 0 && box.h > 0 ? 1 : 0,
            ratio(style?.fontSize ?? NaN, body),
            style?.fontWeight ?? NaN,
            Number.isNaN(fold) ? NaN : box.y < fold ? 1 : 0,
            ratio(Math.abs(box.x + box.w / 2 - doc.width / 2), doc.width),
          ]
        : [NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, 0, NaN, NaN, NaN, NaN];
      for (let k = 0; k < cols; k++) out.set(row, base + k, v[k] as number);
    }
  },
};
