/**
 * The import rules of pith's layout (`npm run check:deps`, part of `npm test`): pure stages never
 * reach the renderer, the papers' methods stand on their own, lower layers never import commands,
 * and no import cycle exists anywhere (type-only imports count).
 */
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    {
      name: "pure-stages-not-renderer",
      comment: "features, dom, pipeline and refiners read snapshots; they never import the renderer",
      severity: "error",
      from: { path: "^src/(features|dom|pipeline|refine)/" },
      to: { path: "^src/render/" },
    },
    { name: "render-not-output", severity: "error", from: { path: "^src/render/" }, to: { path: "^src/output/" } },
    {
      name: "algorithms-standalone",
      comment: "each paper's method runs on its own, without the learned pipeline or the trainer",
      severity: "error",
      from: { path: "^src/algorithms/" },
      to: { path: "^src/(ml|pipeline|train)/" },
    },
    {
      name: "no-commands-below",
      comment: "only cli/ parses flags and prints; everything else is a library",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cli/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "ml-is-generic",
      comment: "classifiers know nothing of pages, pipelines or training runs",
      severity: "error",
      from: { path: "^src/ml/" },
      to: { path: "^src/(pipeline|train|render|features|evaluate)/" },
    },
    {
      name: "pipeline-not-trainer",
      comment: "extraction never loads training code",
      severity: "error",
      from: { path: "^src/(pipeline|refine|features|dom|render|output)/" },
      to: { path: "^src/train/" },
    },
    {
      name: "queue-on-top",
      comment: "the distributed queue runs extract batches; the batch and the stages below never know of it",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(cli|queue)/" },
      to: { path: "^src/queue/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
