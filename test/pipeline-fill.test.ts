/** The fill refiner (src/refine/fill.ts): the region holding the kept words is kept whole but for sure noise. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf } from "../src/dom/text.ts";
import { FILL_FLOOR, FILL_SHARE, fillMainRegion, keptRegion } from "../src/refine/fill.ts";
import { staticRows } from "./helpers.ts";

const PAGE = `<html><body>
<div id="menu"><p>Home News Sport Weather</p></div>
<div id="main">
  <h1>Courses in the spring term</h1>
  <p>Every course below is open to first-year students without a prerequisite.</p>
  <ul><li><a href="/c/1">Introduction to rivers</a></li><li><a href="/c/2">Sediment and floods</a></li></ul>
  <p>Share this page</p>
  <p>Registration opens on the first Monday of March for all listed courses.</p>
</div>
<div id="foot"><p>About us contact privacy terms careers</p></div></body></html>`;

function setup() {
  const { page, tree, nodes, own } = staticRows(PAGE);
  const rowOf = (s: string) => {
    const r = [...nodes].findIndex(
      (i, k) => (own.ownWords[k] as number) > 0 && textOf(page, tree, [i]).startsWith(s),
    );
    assert.ok(r >= 0, s);
    return r;
  };
  const scores = new Float32Array(nodes.length);
  const keep = new Uint8Array(nodes.length);
  const threshold = 0.4;
  const set = (text: string, s: number) => {
    const r = rowOf(text);
    scores[r] = s;
    keep[r] = s >= threshold ? 1 : 0;
    return r;
  };
  const describe = (r: number) => ({ node: nodes[r] as number, path: String(r), text: "" });
  const pathOf = (r: number) => (page.nodes[nodes[r] as number]!.attrs?.["id"] as string) ?? String(r);
  return { page, nodes, own, scores, keep, threshold, set, describe, pathOf };
}

test("fill: leaves inside the region of the kept words come back unless the classifier is sure they are noise", () => {
  const { own, scores, keep, threshold, set, describe, pathOf } = setup();
  const menu = set("Home News", 0.3); // outside the region, above the floor: stays out
  set("Courses in", 0.9);
  set("Every course", 0.9);
  const link1 = set("Introduction to rivers", 0.2); // link list the classifier doubts: inside, above the floor
  const link2 = set("Sediment", 0.15);
  const share = set("Share this", 0.02); // inside but sure noise
  set("Registration", 0.8);
  set("About us", 0.05);
  const out = fillMainRegion(own, scores, threshold, keep, describe, pathOf);
  assert.equal(out.keep[link1], 1);
  assert.equal(out.keep[link2], 1);
  assert.equal(out.keep[share], 0, `P < ${FILL_FLOOR} stays out`);
  assert.equal(out.keep[menu], 0, "outside the region nothing is added");
  assert.equal(out.trace.length, 2);
  assert.ok(out.trace.every((t) => t.step === "fill" && t.action === "keep"));
  assert.match(
    out.trace[0]!.reason,
    new RegExp(
      `inside the main region main \\(≥ ${FILL_SHARE * 100}% of the kept words\\) and P\\(main\\)=0\\.200`,
    ),
  );
  assert.equal(keep[link1], 0, "the input decisions are not changed in place");
});

test("fill: a leaf a rule dropped above the threshold stays dropped; nothing kept, nothing added", () => {
  const { own, scores, keep, threshold, set, describe, pathOf } = setup();
  set("Courses in", 0.9);
  set("Every course", 0.9);
  const dup = set("Registration", 0.8);
  keep[dup] = 0; // as the duplicate rule would
  const link = set("Introduction to rivers", 0.2);
  const out = fillMainRegion(own, scores, threshold, keep, describe, pathOf);
  assert.equal(out.keep[dup], 0);
  assert.equal(out.keep[link], 1);

  const none = new Uint8Array(keep.length);
  assert.equal(keptRegion(own, none), -1);
  assert.equal(fillMainRegion(own, scores, threshold, none, describe, pathOf).keep, none);
});

test("fill: kept words spread over the page make the region a high ancestor, never a subtree without them", () => {
  const { page, nodes, own, scores, keep, threshold, set, describe, pathOf } = setup();
  set("Home News", 0.9);
  set("Every course", 0.9);
  set("About us", 0.9);
  const region = keptRegion(own, keep);
  assert.ok(region >= 0);
  const tag = page.nodes[nodes[region] as number]!.tag;
  assert.ok(tag === "body" || tag === "html", `region is ${tag}`);
  const out = fillMainRegion(own, scores, threshold, keep, describe, pathOf);
  assert.ok(
    out.keep.every((k, r) => k === 1 || scores[r]! < FILL_FLOOR || (own.ownWords[r] as number) === 0),
  );
});
