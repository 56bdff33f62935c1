/** Visual features (Louvan) on a hand-built Chromium-mode snapshot: no browser needed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures, featureValue } from "../src/features/index.ts";
import type { NodeStyle, PageSnapshot, SnapshotNode } from "../src/types.ts";
import { SNAPSHOT_VERSION } from "../src/types.ts";

const style = (fontSize: number, display = "block"): NodeStyle => ({
  display,
  visibility: "visible",
  position: "static",
  fontSize,
  fontWeight: 400,
});

test("visual: boxes relative to the document, font size relative to body text, above the fold", () => {
  const nodes: SnapshotNode[] = [
    {
      parent: -1,
      type: 1,
      tag: "html",
      visible: true,
      box: { x: 0, y: 0, w: 1000, h: 2000 },
      style: style(16),
    },
    {
      parent: 0,
      type: 1,
      tag: "body",
      visible: true,
      box: { x: 0, y: 0, w: 1000, h: 2000 },
      style: style(16),
    },
    { parent: 1, type: 1, tag: "h1", visible: true, box: { x: 100, y: 50, w: 500, h: 40 }, style: style(32) },
    { parent: 2, type: 3, tag: "#text", text: "Title", visible: true },
    {
      parent: 1,
      type: 1,
      tag: "p",
      visible: true,
      box: { x: 100, y: 1500, w: 800, h: 200 },
      style: style(16),
    },
    {
      parent: 4,
      type: 3,
      tag: "#text",
      text: "A much longer paragraph of body text sets the body font size.",
      visible: true,
    },
  ];
  const page: PageSnapshot = {
    version: SNAPSHOT_VERSION,
    mode: "chromium",
    id: "v",
    source: "v",
    url: null,
    title: "",
    lang: "en",
    document: { width: 1000, height: 2000 },
    viewport: { width: 1000, height: 800 },
    nodes,
    ms: 0,
  };
  const t = computeFeatures(page, buildTree(page));
  assert.deepEqual([...t.nodes], [1, 2, 4]);
  const [h1, p] = [1, 2];
  assert.equal(featureValue(t, h1, "vis_font_rel"), 2);
  assert.equal(featureValue(t, p, "vis_font_rel"), 1);
  assert.equal(featureValue(t, h1, "vis_above_fold"), 1);
  assert.equal(featureValue(t, p, "vis_above_fold"), 0);
  assert.equal(featureValue(t, p, "vis_w_rel"), Math.fround(0.8));
  assert.equal(featureValue(t, p, "vis_y_rel"), 0.75);
  assert.equal(featureValue(t, p, "vis_area_share"), Math.fround((800 * 200) / (1000 * 2000)));
  assert.equal(featureValue(t, h1, "vis_center_offset"), Math.fround(150 / 1000));
  assert.equal(featureValue(t, h1, "vis_visible"), 1);
});
