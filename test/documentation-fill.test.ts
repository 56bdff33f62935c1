/**
 * Documentation pages keep their main region whole (src/pipeline/documentation.ts): a page the
 * router finds documentation-like gets the fill refiner when neither the run nor the model names
 * one; `docFill=false`, a forced refiner or a forced other page type leave it as the classifier
 * and the rules decided. Run on a Python reference page of the regression corpus with the
 * bundled model.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { loadPipelineModel } from "../src/pipeline/model/model.ts";
import { defaultModelPath } from "../src/pipeline/model/resolve.ts";
import { runOptionsFrom } from "../src/pipeline/extractor.ts";
import {
  defaultRefiner,
  DOC_FILL_PROBABILITY,
  documentationProbability,
} from "../src/pipeline/documentation.ts";
import { runPipeline } from "../src/pipeline/run.ts";
import { staticSnapshot } from "../src/render/static.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PAGE = join(ROOT, "test/pages/documentation-python-functools/source.html");
/**
 * A paragraph the reference gives under two functions: the duplicate rule drops the second copy,
 * and the fill refiner (its records vote included) never brings back a leaf a rule dropped.
 */
const REPEATED = "The cache is threadsafe so that the wrapped function can be used in multiple threads.";
const count = (text: string): number => text.split(REPEATED).length - 1;

const page = staticSnapshot({
  id: "functools",
  source: PAGE,
  url: "https://docs.python.org/3/library/functools.html",
  html: readFileSync(PAGE, "utf8"),
  encoding: "utf-8",
  remote: false,
});

test("the gate: the router's P(documentation) from DOC_FILL_PROBABILITY up, unless switched off", () => {
  assert.equal(defaultRefiner(DOC_FILL_PROBABILITY, {}), "fill");
  assert.equal(defaultRefiner(DOC_FILL_PROBABILITY - 0.01, {}), "none");
  assert.equal(defaultRefiner(Number.NaN, {}), "none");
  assert.equal(defaultRefiner(1, { docFill: false }), "none");
  assert.equal(defaultRefiner(0.3, { docFillAt: 0.2 }), "fill");
  const router = new Map([
    ["article", 0.7],
    ["documentation", 0.6],
  ]);
  assert.equal(documentationProbability(undefined, router), 0.6);
  assert.equal(documentationProbability("documentation", router), 1);
  assert.equal(documentationProbability("article", router), 0);
  assert.ok(Number.isNaN(documentationProbability(undefined, null)));
  assert.ok(Number.isNaN(documentationProbability(undefined, new Map([["article", 0.9]]))));
});

test("a documentation page's fill never brings back what a rule dropped; docFill=false, a forced refiner or type leave the classifier's choice", async () => {
  const model = await loadPipelineModel(defaultModelPath("static"), "static");
  const filled = runPipeline(model, page).extraction;
  assert.equal(
    count(filled.text),
    1,
    "the duplicate rule's drop stands: fill's records vote does not undo it",
  );
  assert.ok(
    (filled.trace ?? []).some(
      (t) => t.step === "duplicate-rule" && REPEATED.toLowerCase().startsWith((t.text ?? "-").trim()),
    ),
  );
  const forced = runPipeline(model, page, { refiner: "fill" }).extraction;
  assert.equal(count(forced.text), 1, "nor when fill is forced");

  const off = runPipeline(model, page, runOptionsFrom({ mode: "static", params: { docFill: false } }));
  assert.equal(count(off.extraction.text), 1);
  const refinerSteps = (e: typeof filled): boolean =>
    (e.trace ?? []).some((t) => t.step === "fill" || t.step === "records-refiner");
  assert.ok(!refinerSteps(off.extraction));
  // the refiner only adds: every line the classifier and rules kept stays
  for (const line of off.extraction.text.split("\n")) assert.ok(filled.text.includes(line), line);

  assert.equal(runPipeline(model, page, { refiner: "none" }).extraction.text, off.extraction.text);
  assert.ok(!refinerSteps(runPipeline(model, page, { pageType: "article" }).extraction));
});

test("docFill is an on/off parameter: another value is a clear error", () => {
  assert.throws(
    () => runOptionsFrom({ mode: "static", params: { docFill: "yes" } }),
    /--param docFill must be true or false/,
  );
});
