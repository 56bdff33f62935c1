// Loads an ES module or a TypeScript file for a notebook cell: `await require("./load.cjs").load("./kit.ts")`.
// tslab compiles each cell with its own TypeScript to CommonJS and runs it in a vm script that has
// no dynamic-import hook, and its compiler reads neither pith's tsconfig nor `.ts` import
// specifiers; so pith's sources (ESM, `.ts` imports) are loaded here, by tsx's tsImport, from a
// real CommonJS module, where `import()` works. Paths are relative to this folder.
const { pathToFileURL } = require("node:url");

exports.load = async (path) => {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(path, pathToFileURL(__filename).href);
};
