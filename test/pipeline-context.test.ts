/**
 * The context stage (src/pipeline/context/context.ts, src/train/context.ts): its features read the
 * stage-1 scores around a leaf as documented, training with cross-validation ships it in the
 * artifact (and --no-context does not), extraction cuts at its thresholds, a model trained
 * before some context features were added still scores as it did, and a model with a context
 * feature this pith does not compute refuses to load.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { ModelLoadError, type ModelArtifact } from "../src/ml/artifact.ts";
import {
  CONTEXT_FEATURES,
  CONTEXT_TYPES,
  contextMatrix,
  type StageOne,
  samePathLeaves,
} from "../src/pipeline/context/context.ts";
import { MIN_HEADING_SITES } from "../src/pipeline/context/heading-lexicon.ts";
import { loadPipelineModel, pipelineFromArtifact, type PipelineExtra } from "../src/pipeline/model/model.ts";
import { GENERAL, runPipeline } from "../src/pipeline/run.ts";
import { PAGE_TYPES } from "../src/train/page-types.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { train, type TrainOptions } from "../src/train/train.ts";
import { syntheticPage, syntheticSetFixture } from "./helpers.ts";

/** root(0) → div(1) → p(2), p(3); root → nav li(4). Stage-1 scores .9 .1 .2, threshold .5. */
function smallPage(): StageOne {
  return {
    scores: Float32Array.from([NaN, NaN, 0.9, 0.1, 0.2]),
    threshold: 0.5,
    pageType: "forum",
    own: { ownWords: Int32Array.from([0, 0, 10, 10, 2]), parentRow: Int32Array.from([-1, 0, 1, 1, 0]) },
    values: Float32Array.from([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]),
    nCols: 2,
    // lex_cls_mean, _min, _max, _known per row: row 2 has two known tokens, row 4 none
    lexicon: Float32Array.from([
      ...Array(8).fill(NaN),
      1.5,
      1,
      2,
      2,
      ...Array(4).fill(NaN),
      NaN,
      NaN,
      NaN,
      0,
    ]),
    // the two paragraphs share a path signature, the nav item has its own
    paths: Uint32Array.from([1, 2, 7, 7, 9]),
    headings: null,
  };
}

function column(name: string): number {
  const c = CONTEXT_FEATURES.indexOf(name);
  assert.ok(c >= 0, `context feature ${name} exists`);
  return c;
}

test("context features: the leaf's score, its neighbours, its ancestors, the page, the routed type, then its own features", () => {
  const X = contextMatrix(smallPage(), [2, 3, 4]);
  const width = CONTEXT_FEATURES.length + 2;
  assert.equal(X.nCols, width);
  const at = (row: number, name: string): number => X.data[row * width + column(name)] as number;
  assert.ok(Math.abs(at(0, "ctx_s") - 0.9) < 1e-6);
  assert.ok(Math.abs(at(0, "ctx_s_minus_thr") - 0.4) < 1e-6);
  assert.ok(Math.abs(at(0, "ctx_a1_mean") - 0.5) < 1e-6, "the div's word-weighted mean of .9 and .1");
  assert.ok(Math.abs(at(0, "ctx_a1_word_share") - 20 / 22) < 1e-6);
  assert.ok(Math.abs(at(0, "ctx_a1_kept_share") - 1) < 1e-6, "all kept words of the page are under the div");
  assert.ok(Math.abs(at(1, "ctx_prev1") - 0.9) < 1e-6);
  assert.ok(Number.isNaN(at(2, "ctx_next1")), "the last leaf has no next neighbour");
  assert.ok(Math.abs(at(2, "ctx_a1_word_share") - 1) < 1e-6, "the nav item's parent is the root");
  assert.ok(Number.isNaN(at(2, "ctx_a2_mean")), "the root has no ancestor");
  assert.ok(Math.abs(at(1, "ctx_page_kept_share") - 10 / 22) < 1e-6);
  assert.ok(Math.abs(at(1, "ctx_page_words_above") - 12 / 22) < 1e-6, "words of leaves scored above .1");
  for (const t of CONTEXT_TYPES) assert.equal(at(0, `ctx_is_${t}`), t === "forum" ? 1 : 0);
  assert.deepEqual(
    [at(0, "lex_cls_mean"), at(0, "lex_cls_min"), at(0, "lex_cls_max"), at(0, "lex_cls_known")],
    [1.5, 1, 2, 2],
    "the leaf's class-token lexicon features",
  );
  assert.ok(
    Number.isNaN(at(2, "lex_cls_mean")) && at(2, "lex_cls_known") === 0,
    "a leaf without known tokens",
  );
  const none = contextMatrix({ ...smallPage(), lexicon: null }, [2]);
  assert.ok(Number.isNaN(none.data[column("lex_cls_known")] as number), "no lexicon: missing, not zero");
  assert.ok(Math.abs(at(0, "ctx_path_mean") - 0.1) < 1e-6, "the other paragraph's score, not the leaf's own");
  assert.ok(
    Math.abs(at(1, "ctx_path_mean") - 0.9) < 1e-6 && at(1, "ctx_path_kept") === 1,
    "the first paragraph is kept",
  );
  assert.ok(
    Math.abs(at(0, "ctx_path_log_n") - Math.log(2)) < 1e-6 &&
      Math.abs(at(0, "ctx_path_word_share") - 10 / 22) < 1e-6,
  );
  assert.ok(
    Number.isNaN(at(2, "ctx_path_mean")) &&
      at(2, "ctx_path_log_n") === 0 &&
      at(2, "ctx_path_word_share") === 0,
    "a leaf whose path no other leaf has",
  );
  const same = samePathLeaves(smallPage(), smallPage().paths as Uint32Array);
  const other = same(3);
  assert.ok(
    other && other.n === 1 && Math.abs(other.mean - 0.9) < 1e-6,
    "for the trace: one other leaf on the path, scored .9",
  );
  assert.equal(same(4), null, "no other leaf on the nav item's path");
  const noPaths = contextMatrix({ ...smallPage(), paths: null }, [2]);
  assert.ok(
    Number.isNaN(noPaths.data[column("ctx_path_log_n")] as number),
    "no path signatures: missing, not zero",
  );
  assert.deepEqual(
    [...CONTEXT_TYPES],
    [GENERAL, ...PAGE_TYPES],
    "the context stage knows every router label",
  );
  assert.deepEqual([...X.data.subarray(width - 2, width)], [2, 2], "the leaf's own features follow");
});

const SITES = ["a.example", "b.example", "c.example", "d.example", "e.example", "f.example"];
const set = syntheticSetFixture("context", SITES, 2);

function options(extra: Partial<TrainOptions> = {}): TrainOptions {
  return {
    datasets: [set.dir],
    mode: "static",
    kind: "gbdt",
    params: { nEstimators: 20, minSamplesLeaf: 2 },
    seed: 3,
    folds: 3,
    perType: false,
    segment: false,
    genres: [],
    domain: null,
    name: "ctx",
    workers: 1,
    ...extra,
  };
}

test("training with cross-validation measures the context stage and ships it when it wins; extraction cuts at its thresholds", async () => {
  const auto = await train(options());
  const report = auto.report;
  assert.ok(report?.context, "the report describes the context stage");
  // the columns are of the model written; the other side of the context comparison is a column of its own
  const other = report.context.shipped ? "no-context" : "with-context";
  assert.ok(
    other in report.endToEnd,
    `the report measures the pipeline ${report.context.shipped ? "without" : "with"} it`,
  );
  const plain = report.endToEnd["plain"]?.["all"]?.f1 ?? 0;
  const alternative = report.endToEnd[other]?.["all"]?.f1 ?? 0;
  assert.ok(
    report.context.shipped ? plain >= alternative : plain > alternative,
    `plain ${plain}, ${other} ${alternative}`,
  );
  assert.equal("context" in auto.artifact.classifiers, report.context.shipped);
  const withContext = await train(options({ context: "always" }));
  assert.equal(withContext.report?.context?.shipped, true, '"always" ships it, and the report says so');
  const extra = withContext.artifact.extra as PipelineExtra;
  assert.deepEqual(extra.context?.features, [...CONTEXT_FEATURES]);
  const lexicon = extra.context?.lexicon;
  assert.ok(
    lexicon && lexicon.pages === SITES.length * 2,
    "the shipped stage carries the lexicon of every training page",
  );
  assert.ok(
    Object.keys(lexicon.weights).length > 0 && Object.keys(lexicon.weights).every((t) => /^\d+t?:/.test(t)),
    "level-prefixed tokens",
  );
  const headingLexicon = extra.context?.headingLexicon;
  assert.ok(
    headingLexicon && headingLexicon.pages === SITES.length * 2,
    "the shipped stage carries the heading lexicon of every training page",
  );
  assert.deepEqual(
    headingLexicon.weights,
    {},
    `no heading token is on ${MIN_HEADING_SITES} sites of ${SITES.length}`,
  );
  const model = await pipelineFromArtifact(withContext.artifact, "ctx");
  assert.ok(model.context);
  assert.deepEqual(model.context.lexicon, lexicon, "the lexicon survives the model file");
  const { html } = syntheticPage(4242, "z.example");
  const snap = staticSnapshot({ id: "x", source: "x", url: null, html, encoding: "utf-8", remote: false });
  const threshold = (model.context.thresholds["general"] as number).toFixed(3);
  const run = runPipeline(model, snap);
  const stageOne = runPipeline(model, snap, { context: false });
  assert.notDeepEqual([...run.scores], [...stageOne.scores], "the context stage rescored the leaves");
  const reasons = run.extraction.trace.filter((t) => t.step === "content-classifier").map((t) => t.reason);
  assert.ok(
    reasons.some((r) => r.includes(`≥ ${threshold} (`) || r.includes(`< ${threshold} (`)),
    `the context threshold ${threshold} decides: ${reasons.join("; ")}`,
  );
  assert.ok(
    reasons.every((r) =>
      /\(content classifier \d\.\d{3}, context stage \d\.\d{3}(, class token \d+t?:\S+ [+−]\d\.\d{2})?(, heading token h:\S+ [+−]\d\.\d{2})?(, \d+ same-path (?:leaf|leaves) at \d\.\d{3})?\)$/.test(
        r,
      ),
    ),
    `each reason shows both scores: ${reasons[0]}`,
  );
  assert.ok(
    reasons.some((r) => /class token \d+t?:\S+ [+−]\d\.\d{2}[,)]/.test(r)),
    `a reason names the lexicon's strongest class token: ${reasons[0]}`,
  );
  assert.ok(
    reasons.some((r) => /, [1-9]\d* same-path (?:leaf|leaves) at \d\.\d{3}\)$/.test(r)),
    `a reason says how many leaves share the leaf's path and how stage 1 scored them: ${reasons[0]}`,
  );
  const plainReasons = stageOne.extraction.trace
    .filter((t) => t.step === "content-classifier")
    .map((t) => t.reason);
  assert.ok(
    plainReasons.every((r) => !r.includes("context stage")),
    "without the stage the reason names one score",
  );
  const named = await pipelineFromArtifact(withContext.artifact, "ctx");
  (named.context as NonNullable<typeof named.context>).headingLexicon = {
    pages: 12,
    weights: { "h:related": -2.5 },
  };
  const relatedReasons = runPipeline(named, snap)
    .extraction.trace.filter((t) => t.step === "content-classifier" && /Related stories/.test(t.text ?? ""))
    .map((t) => t.reason);
  assert.ok(
    relatedReasons.length && relatedReasons.every((r) => r.includes(", heading token h:related −2.50")),
    `the trace names the section heading's token: ${relatedReasons[0]}`,
  );
  const broken = structuredClone(withContext.artifact);
  (broken.extra as PipelineExtra).context = { features: ["ctx_s", "ctx_not_computed"], thresholds: {} };
  await assert.rejects(
    pipelineFromArtifact(broken, "broken.json"),
    (e: Error) => e instanceof ModelLoadError && /context features/.test(e.message),
  );
  const badLexicon = structuredClone(withContext.artifact);
  (badLexicon.extra as PipelineExtra).context = {
    features: [...CONTEXT_FEATURES],
    thresholds: {},
    lexicon: { pages: 1, weights: { "0:x": "heavy" as unknown as number } },
  };
  await assert.rejects(
    pipelineFromArtifact(badLexicon, "bad-lexicon.json"),
    (e: Error) => e instanceof ModelLoadError && /lexicon/.test(e.message),
  );
});

test("a context stage that lost is not shipped, and the report's columns and choices are of the model written, without it", async () => {
  const lost = await train(options());
  const kept = await train(options({ context: "always" })); // the same fold models, with the stage shipped
  assert.equal(
    lost.report?.context?.shipped,
    false,
    "on this set the stage loses (else this test proves nothing)",
  );
  assert.ok(!("context" in lost.artifact.classifiers));
  const all = (r: typeof lost, column: string): number | undefined => r.report?.endToEnd[column]?.["all"]?.f1;
  assert.ok((all(kept, "plain") as number) < (all(kept, "no-context") as number));
  assert.equal(all(lost, "plain"), all(kept, "no-context"), "plain is the pipeline without the stage");
  assert.equal(all(lost, "with-context"), all(kept, "plain"), "with-context keeps the stage's figure");
  assert.ok(!("no-context" in (lost.report?.endToEnd ?? {})));
  // nothing is chosen on this set, so what ships is plain: the no-context figure, in the report and in the model's metrics
  assert.deepEqual(lost.report?.refiners, {});
  const metrics = lost.artifact.metrics["crossValidation"] as {
    endToEnd: Record<string, Record<string, { f1: number }>>;
  };
  assert.equal(metrics.endToEnd["shipped"]?.["all"]?.f1, all(kept, "no-context"));
  assert.equal(all(lost, "shipped"), all(kept, "no-context"));
});

test("--no-context and --domain models have no context stage", async () => {
  const without = await train(options({ context: false }));
  assert.equal(without.report?.context, null);
  assert.ok(!("context" in without.artifact.classifiers));
  const domain = await train(options({ domain: "b.example", folds: 0 }));
  assert.ok(!("context" in domain.artifact.classifiers));
});

test("a model trained before the heading features still loads and scores every leaf as it did", async () => {
  // trained by pith before lex_head_* joined CONTEXT_FEATURES (da49461, this file's options() with context "always"),
  // then two of its context trees pointed at the leaf's own features (dom_text_chars, txt_words: columns 44 and 142
  // in that layout, which now sit 4 further) so that their place is tested too; the expected scores and text are
  // what da49461's code computed with that file
  const dir = new URL("./fixtures/models/", import.meta.url);
  const artifact = JSON.parse(
    readFileSync(new URL("context-before-headings.json", dir), "utf8"),
  ) as ModelArtifact;
  const expected = JSON.parse(
    readFileSync(new URL("context-before-headings.expected.json", dir), "utf8"),
  ) as Record<string, { text: string; scores: (number | null)[] }>;
  const features = (artifact.extra as PipelineExtra).context?.features ?? [];
  assert.ok(
    features.length < CONTEXT_FEATURES.length && !features.some((f) => f.startsWith("lex_head_")),
    "the fixture predates the heading features",
  );
  // loaded as `pith extract` loads a file: stage-1 columns picked by name too (features added since: hid_*)
  const model = await loadPipelineModel(
    fileURLToPath(new URL("context-before-headings.json", dir)),
    "static",
  );
  assert.ok(model.context?.columns, "its context columns are picked by name");
  assert.ok(model.columns, "its stage-1 columns are picked by name");
  assert.equal(model.hiddenText, false, "a model without extra.hiddenText reads the snapshot as rendered");
  assert.equal(Object.keys(expected).length, 3);
  for (const [seed, want] of Object.entries(expected)) {
    const snap = staticSnapshot({
      id: "x",
      source: "x",
      url: null,
      html: syntheticPage(Number(seed), "z.example").html,
      encoding: "utf-8",
      remote: false,
    });
    const run = runPipeline(model, snap);
    assert.equal(run.extraction.text, want.text);
    assert.deepEqual(
      Array.from(run.scores, (s) => (Number.isNaN(s) ? null : Math.round(s * 1e6) / 1e6)),
      want.scores,
    );
  }
});
