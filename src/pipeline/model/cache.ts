/**
 * A binary copy of each bundled model (dist/models/<name>.bin), written by the build
 * (scripts/build.mjs) so that a fresh process does not parse 3.4 MB of JSON for one page: the
 * artifact without its trees as JSON, and every tree classifier's node arrays as the typed arrays
 * decodeTrees (src/ml/tree.ts) makes of them, read back as views of the file. A cache is used only
 * while the model file it was made from has the same size, modification and change times and
 * inode (any write, copy or rename over it changes one), and only at this CACHE_VERSION; else the
 * JSON is read as before. Only the bundle reads the caches (model.ts), so they are always read
 * by the code of the build that wrote them. The models stay the JSON files in models/: the cache
 * is derived from them and loads the same classifiers (test/model-cache.test.ts).
 *
 * Trees were checked (node ids, features) when the cache was written: decodeTrees does not check
 * them again (tree.ts CHECKED_TREES).
 *
 * Layout: u32 length + JSON header {version, source, blobs: [{path, type, offset, length}], checked},
 * u32 length + the artifact's JSON (trees emptied), then the blobs, each at an 8-byte boundary.
 */
import { readFileSync, readdirSync, statSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { writeAtomic } from "../../io/write-atomic.ts";
import { CHECKED_TREES, decodeTrees, type FlatTrees } from "../../ml/tree.ts";
import { PITH_ROOT } from "../../paths.ts";

/** Bump when the layout or the conversion of the arrays changes: older caches are then ignored. */
export const CACHE_VERSION = 1;
/** The repository's models/ folder (bundled artifacts). */
export const BUNDLED_MODEL_DIR = resolve(PITH_ROOT, "models");
/** Where the build writes the caches of models/*.json. */
export const MODEL_CACHE_DIR = join(PITH_ROOT, "dist", "models");
const ALIGN = 8;

type Path = (string | number | symbol)[];
const TYPES = { i32: Int32Array, f32: Float32Array, u8: Uint8Array } as const;
type TypeName = keyof typeof TYPES;

interface Blob {
  path: Path;
  type: TypeName;
  offset: number;
  length: number;
}

interface SourceKey {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

function sourceKey(st: Stats): SourceKey {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}

/** The cache of a model file in models/ (null for any other file: per-domain or given models). */
export function modelCachePath(file: string): string | null {
  const abs = resolve(file);
  if (dirname(abs) !== BUNDLED_MODEL_DIR || !abs.endsWith(".json")) return null;
  return join(MODEL_CACHE_DIR, `${basename(abs, ".json")}.bin`);
}

/**
 * Every tree classifier ({kind: "gbdt" | "rf", nCols, trees}) under `node`, with its path; trees
 * that do not decode are left to the JSON (loading reports them as before).
 */
function treeClassifiers(
  node: unknown,
  path: Path,
  out: { path: Path; flat: FlatTrees; nCols: number }[],
): void {
  if (typeof node !== "object" || node === null) return;
  const c = node as { kind?: unknown; nCols?: unknown; trees?: unknown };
  if ((c.kind === "gbdt" || c.kind === "rf") && typeof c.nCols === "number") {
    try {
      out.push({ path, flat: decodeTrees(c.trees, c.nCols), nCols: c.nCols });
      c.trees = {};
    } catch {
      /* stays JSON */
    }
    return;
  }
  for (const [k, v] of Object.entries(node))
    treeClassifiers(v, [...path, Array.isArray(node) ? Number(k) : k], out);
}

const FIELDS = [
  ["feature", "i32"],
  ["threshold", "f32"],
  ["missingLeft", "u8"],
  ["left", "i32"],
  ["right", "i32"],
  ["value", "f32"],
  ["roots", "i32"],
] as const;

function aligned(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

/** Writes the cache of model `file` to `cacheFile` (atomically). */
export async function writeModelCache(file: string, cacheFile: string): Promise<void> {
  const source = sourceKey(statSync(file)); // before reading: a write during it makes the cache stale, not wrong
  const artifact = JSON.parse(readFileSync(file, "utf8")) as unknown;
  const found: { path: Path; flat: FlatTrees; nCols: number }[] = [];
  treeClassifiers(artifact, [], found);
  const checked = found.map(({ path, nCols }) => ({ path: [...path, "trees"], nCols }));
  const arrays = found.flatMap(({ path, flat }) =>
    FIELDS.map(([name, type]) => ({ path: [...path, "trees", name], type, data: flat[name] })),
  );
  const artifactJson = Buffer.from(JSON.stringify(artifact));
  const blobs: Blob[] = [];
  const headerOf = () =>
    Buffer.from(JSON.stringify({ version: CACHE_VERSION, source, blobs, checked } satisfies CacheHeader));
  // offsets depend on the header's length, which depends on the offsets: lay out until stable
  let start = 0;
  for (let settled = false; !settled;) {
    blobs.length = 0;
    let at = start;
    for (const a of arrays) {
      blobs.push({ path: a.path, type: a.type, offset: at, length: a.data.length });
      at = aligned(at + a.data.byteLength);
    }
    const next = aligned(8 + headerOf().length + artifactJson.length);
    settled = next === start;
    start = next;
  }
  const header = headerOf();
  const last = blobs.at(-1);
  const out = Buffer.alloc(last ? last.offset + (arrays.at(-1)?.data.byteLength ?? 0) : start);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  out.writeUInt32LE(artifactJson.length, 4 + header.length);
  artifactJson.copy(out, 8 + header.length);
  arrays.forEach((a, i) =>
    out.set(new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength), (blobs[i] as Blob).offset),
  );
  await writeAtomic(cacheFile, out);
}

interface CacheHeader {
  version: number;
  source: SourceKey;
  blobs: Blob[];
  /** The trees objects decodeTrees checked when the cache was written, and for how many columns. */
  checked: { path: Path; nCols: number }[];
}

function sameSource(a: SourceKey, b: SourceKey): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

function setAt(root: unknown, path: Path, value: unknown): void {
  let node = root as Record<string | number | symbol, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number | symbol, unknown>;
  node[path.at(-1) as string | number | symbol] = value;
}

/**
 * The parsed artifact of model `file` from its cache, tree arrays as typed arrays; null when the
 * file has no cache, or the cache is of another version or of another state of the file.
 */
export function readModelCache(file: string, cacheFile = modelCachePath(file)): unknown {
  if (!cacheFile) return null;
  try {
    const buf = readFileSync(cacheFile);
    const headerLength = buf.readUInt32LE(0);
    const header = JSON.parse(buf.toString("utf8", 4, 4 + headerLength)) as CacheHeader;
    if (header.version !== CACHE_VERSION || !sameSource(header.source, sourceKey(statSync(file))))
      return null;
    const at = 4 + headerLength;
    const artifact = JSON.parse(buf.toString("utf8", at + 4, at + 4 + buf.readUInt32LE(at))) as unknown;
    // views need the bytes at an aligned address (a large read has a buffer of its own)
    const bytes = buf.byteOffset % ALIGN === 0 ? buf : new Uint8Array(buf);
    for (const b of header.blobs)
      setAt(artifact, b.path, new TYPES[b.type](bytes.buffer, bytes.byteOffset + b.offset, b.length));
    for (const { path, nCols } of header.checked) setAt(artifact, [...path, CHECKED_TREES], nCols);
    return artifact;
  } catch {
    return null; // no cache, or a damaged one: the JSON is read
  }
}

/** Writes the cache of every model in `modelsDir` (the build's step); returns the files written. */
export async function writeModelCaches(
  modelsDir = BUNDLED_MODEL_DIR,
  cacheDir = MODEL_CACHE_DIR,
): Promise<string[]> {
  const written: string[] = [];
  for (const name of readdirSync(modelsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const cacheFile = join(cacheDir, `${basename(name, ".json")}.bin`);
    await writeModelCache(join(modelsDir, name), cacheFile);
    written.push(cacheFile);
  }
  return written;
}
