/** The router learns page types from sets that label them, not from genre-only sets. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { routerRecords } from "../src/train/fit.ts";
import type { PageRecord } from "../src/train/page-record.ts";

const rec = (id: string, pageType: string, genre: string) => ({ id, pageType, genre }) as unknown as PageRecord;

test("routerRecords: typed pages only when a set labels page types; genres otherwise", () => {
  // dataset.ts falls back to the genre when a set has no page_type: dragnet pages are "news"/"blog"
  const mixed = [rec("w1", "product", "other"), rec("w2", "article", "blog"), rec("h1", "forum", "forum"), rec("d1", "news", "news"), rec("d2", "blog", "blog"), rec("c1", "other", "other")];
  assert.deepEqual(routerRecords(mixed).map((r) => r.id), ["w1", "w2", "h1"]);
  const genresOnly = [rec("d1", "news", "news"), rec("h1", "forum", "forum"), rec("c1", "other", "other")];
  assert.deepEqual(routerRecords(genresOnly).map((r) => r.id), ["d1", "h1"]);
});
