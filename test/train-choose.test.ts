/** Which setting ships per routed page type (src/train/cv.ts chooseShipped). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseShipped, DEFAULT_VARIANTS, MIN_MEAN_GAIN, nestedShipped } from "../src/train/cv.ts";

function page(routed: string, f1: Record<string, number>) {
  const scores = Object.fromEntries(
    Object.entries(f1).map(([v, x]) => [v, { precision: x, recall: x, f1: x }]),
  );
  return { e: { id: `${routed}-${Math.random()}`, routed, scores } };
}

test("the largest held-out gain over plain ships per routed type: a refiner or the general model, else nothing", () => {
  const all = (plain: number, records: number, region: number, general: number) => ({
    plain,
    records,
    region,
    louvan: 0,
    "general-only": general,
  });
  const done = [
    page("listing", all(0.5, 0.52, 0.4, 0.7)), // the general model gains most
    page("listing", all(0.6, 0.61, 0.5, 0.7)),
    page("article", all(0.9, 0.91, 0.95, 0.8)), // the region refiner gains most
    page("collection", all(0.5, 0.6, 0.4, 0.55)), // the records refiner gains most
    page("service", all(0.8, 0.79, 0.7, 0.75)), // nothing gains
  ];
  const shipped = chooseShipped(done, DEFAULT_VARIANTS);
  assert.equal(shipped["listing"], "general-only");
  assert.equal(shipped["article"], "region");
  assert.equal(shipped["collection"], "records");
  assert.equal(shipped["service"], undefined);
});

test("the report's shipped column is nested: each fold's pages get the choice made on the other folds' pages", () => {
  const all = (plain: number, records: number, region: number) => ({
    plain,
    records,
    region,
    louvan: 0,
    "general-only": 0,
  });
  const done = [
    { ...page("article", all(0.5, 0.9, 0.6)), fold: 0 }, // fold 0's own pages favour records
    { ...page("article", all(0.5, 0.6, 0.7)), fold: 1 }, // fold 1's favour region
    { ...page("article", all(0.5, 0.6, 0.7)), fold: 2 }, // and so do fold 2's
  ];
  assert.equal(
    chooseShipped(done, DEFAULT_VARIANTS)["article"],
    "records",
    "pooled, fold 0's large gain decides",
  );
  const nested = nestedShipped(done, 3, DEFAULT_VARIANTS);
  assert.equal(nested[0]?.["article"], "region", "fold 0 is scored with what folds 1 and 2 chose");
  assert.equal(
    nested[1]?.["article"],
    "records",
    "fold 1 with what folds 0 and 2 chose (0.4 + 0.1 against 0.1 + 0.2)",
  );
  assert.equal(nested[2]?.["article"], "records");
});

test("a candidate ships only when it gains more than MIN_MEAN_GAIN per routed page", () => {
  const all = (plain: number, records: number) => ({
    plain,
    records,
    region: 0,
    louvan: 0,
    "general-only": 0,
  });
  const small = MIN_MEAN_GAIN / 2;
  const done = [
    page("forum", all(0.8, 0.8 + small)), // gains, but less than the bar on each page
    page("forum", all(0.8, 0.8 + small)),
    page("general", all(0.5, 0.5 + 3 * MIN_MEAN_GAIN)), // clears it
  ];
  const shipped = chooseShipped(done, DEFAULT_VARIANTS);
  assert.equal(shipped["forum"], undefined);
  assert.equal(shipped["general"], "records");
});
