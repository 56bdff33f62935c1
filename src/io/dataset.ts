/**
 * Reader for the labeled sets (layout in data/README.md): index.jsonl, html/<id>.html.gz or
 * html/<id>.html (always UTF-8), gold/<id>.txt, optional gold-html/<id>.html(.gz), extra.jsonl and
 * snippets.jsonl. Shared by features/labels, training and evaluation.
 *
 * A set is named by a path (absolute, ./x, a/b: that folder) or by a bare name, looked up in
 * $PITH_DATA, then the repository's own data/ (the small `sample` set ships there), then
 * ../shared/data beside the checkout: the first folder holding <name>/index.jsonl wins.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { isAbsolute, join, resolve } from "node:path";
import type { PageInput } from "../types.ts";
import { PITH_ROOT } from "../paths.ts";

/** The larger shared sets, beside the checkout (used when PITH_DATA is unset). */
export const DEFAULT_DATA_DIR = resolve(PITH_ROOT, "../shared/data");

/** The repository's own data folder: the small labeled `sample` set ships there. */
export const REPO_DATA_DIR = resolve(PITH_ROOT, "data");

/** The folder of the external (shared) sets: $PITH_DATA, else ../shared/data beside the checkout. */
export function dataDir(): string {
  return process.env["PITH_DATA"] ? resolve(process.env["PITH_DATA"]) : DEFAULT_DATA_DIR;
}

/** Where a bare set name is looked up, in order: $PITH_DATA (when set), data/, ../shared/data. */
export function dataDirs(): string[] {
  const env = process.env["PITH_DATA"];
  return [...new Set([...(env ? [resolve(env)] : []), REPO_DATA_DIR, DEFAULT_DATA_DIR])];
}

export interface DatasetPage {
  dataset: string;
  id: string;
  url: string | null;
  domain: string | null;
  genre: string;
  /** wcxb-dev's page_type; otherwise the genre. */
  pageType: string;
  lang: string | null;
}

export interface Snippets {
  with: string[];
  without: string[];
}

export interface Dataset {
  name: string;
  dir: string;
  pages: DatasetPage[];
  license: string;
  hasGoldHtml: boolean;
  snippets: Map<string, Snippets>;
}

export class DatasetError extends Error {
  override name = "DatasetError";
}

/**
 * The rows of a JSON-lines file ([] when it is missing); a bad line is
 * a DatasetError naming the file and line.
 */
function readJsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const rows: T[] = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, k) => {
      if (!line.trim()) return;
      try {
        rows.push(JSON.parse(line) as T);
      } catch (e) {
        throw new DatasetError(`${path} line ${k + 1}: not JSON (${(e as Error).message})`);
      }
    });
  return rows;
}

/** License line from the set's README ("License: …"). */
function licenseOf(dir: string): string {
  const readme = join(dir, "README.md");
  if (!existsSync(readme)) return "unknown";
  const m = /licen[sc]e[^:]*:\s*\**\s*([^\n]+)/i.exec(readFileSync(readme, "utf8"));
  return m?.[1]?.replace(/\*\*/g, "").trim().slice(0, 120) ?? "unknown";
}

/** Whether `spec` names a folder by its path (absolute, ./x, a/b) rather than a set by its bare name. */
function isPath(spec: string): boolean {
  return isAbsolute(spec) || spec.includes("/") || spec.includes("\\") || spec === "." || spec === "..";
}

/**
 * Resolve a set name ("wcxb-dev", "sample") or a folder path to a dataset folder. A folder with an
 * index.jsonl at that path (relative to the working directory) wins; a bare name is then looked up
 * in dataDirs(). Not found: one DatasetError saying where it looked and how to point pith at data.
 */
export function resolveDatasetDir(nameOrDir: string): string {
  if (existsSync(join(nameOrDir, "index.jsonl"))) return resolve(nameOrDir);
  if (isPath(nameOrDir))
    throw new DatasetError(`no dataset at ${nameOrDir}: expected ${join(resolve(nameOrDir), "index.jsonl")}`);
  for (const root of dataDirs()) {
    const dir = join(root, nameOrDir);
    if (existsSync(join(dir, "index.jsonl"))) return dir;
  }
  const env = process.env["PITH_DATA"];
  const places = [
    env ? `$PITH_DATA (${resolve(env)})` : "$PITH_DATA (unset)",
    REPO_DATA_DIR,
    DEFAULT_DATA_DIR,
  ];
  throw new DatasetError(
    `no dataset "${nameOrDir}": looked for ${nameOrDir}/index.jsonl in ${places.join(", ")}; ` +
      `set PITH_DATA to the folder that holds the sets, or give the set's folder as a path`,
  );
}

interface IndexRow {
  id: string;
  url?: string | null;
  domain?: string | null;
  genre?: string | null;
  page_type?: string | null;
  lang?: string | null;
}

export function loadDataset(nameOrDir: string, options: { goldOptional?: boolean } = {}): Dataset {
  const dir = resolveDatasetDir(nameOrDir);
  const name = dir.split("/").pop() as string;
  if (!options.goldOptional && !existsSync(join(dir, "gold")))
    throw new DatasetError(
      `dataset "${name}" has no gold/ folder: it cannot be used for training or evaluation`,
    );
  const rows = readJsonl<IndexRow>(join(dir, "index.jsonl"));
  const noId = rows.findIndex((r) => typeof r?.id !== "string" || !r.id);
  if (noId >= 0) throw new DatasetError(`${join(dir, "index.jsonl")}: row ${noId + 1} has no "id"`);
  const pages = rows.map((r) => ({
    dataset: name,
    id: r.id,
    url: r.url ?? null,
    domain: r.domain ?? null,
    genre: r.genre ?? "other",
    pageType: r.page_type ?? r.genre ?? "other",
    lang: r.lang ?? null,
  }));
  const snippets = new Map<string, Snippets>();
  for (const s of readJsonl<{ id: string } & Snippets>(join(dir, "snippets.jsonl")))
    snippets.set(s.id, { with: s.with ?? [], without: s.without ?? [] });
  return {
    name,
    dir,
    pages,
    license: licenseOf(dir),
    hasGoldHtml: existsSync(join(dir, "gold-html")),
    snippets,
  };
}

/**
 * Several sets at once. Reports, caches and page records name a set by its folder's name, so two
 * folders of one name (`--data small,x/small`) are refused instead of mixed into one.
 */
export function loadDatasets(namesOrDirs: readonly string[]): Dataset[] {
  const sets = namesOrDirs.map((n) => loadDataset(n));
  const byName = new Map<string, Dataset>();
  for (const ds of sets) {
    const same = byName.get(ds.name);
    if (same && same.dir !== ds.dir)
      throw new DatasetError(
        `two sets are named "${ds.name}" (${same.dir} and ${ds.dir}): ` +
          `reports and models name a set by its folder, so rename one`,
      );
    byName.set(ds.name, ds);
  }
  return sets;
}

/** The file a dataset page's `<base>` names: `<base>.gz`, unless only the uncompressed `<base>` exists. */
function gzOrPlain(base: string): string {
  return existsSync(base) && !existsSync(`${base}.gz`) ? base : `${base}.gz`;
}

/** A dataset file as UTF-8 text, gunzipped when its name ends in .gz. */
async function readText(path: string): Promise<string> {
  return path.endsWith(".gz") ? gunzipSync(await readFile(path)).toString("utf8") : readFile(path, "utf8");
}

/**
 * The page's HTML (html/<id>.html.gz, else html/<id>.html) as a PageInput; dataset files are UTF-8
 * whatever their <meta> says. A page with neither file fails with the .gz file's ENOENT.
 */
export async function readDatasetPage(ds: Dataset, page: DatasetPage): Promise<PageInput> {
  const html = await readText(gzOrPlain(join(ds.dir, "html", `${page.id}.html`)));
  return {
    id: page.id,
    source: `${ds.name}/${page.id}`,
    url: page.url,
    html,
    encoding: "utf-8 (dataset)",
    remote: false,
  };
}

/**
 * The gold/ file names of each loaded set, listed once (evaluate and training ask per page, several times).
 */
const GOLD_FILES = new WeakMap<Dataset, ReadonlySet<string>>();

/** Whether the page has a gold text file (a page without one can be neither scored nor trained on). */
export function hasGold(ds: Dataset, page: DatasetPage): boolean {
  let files = GOLD_FILES.get(ds);
  if (!files) {
    const dir = join(ds.dir, "gold");
    files = new Set(existsSync(dir) ? readdirSync(dir) : []);
    GOLD_FILES.set(ds, files);
  }
  return files.has(`${page.id}.txt`);
}

/** Gold main text, or null when the page has no gold file. */
export async function readGold(ds: Dataset, page: DatasetPage): Promise<string | null> {
  const path = join(ds.dir, "gold", `${page.id}.txt`);
  return existsSync(path) ? readFile(path, "utf8") : null;
}

/** Gold HTML (node-level annotation: gold-html/<id>.html.gz or .html) where the set has it. */
export async function readGoldHtml(ds: Dataset, page: DatasetPage): Promise<string | null> {
  const path = gzOrPlain(join(ds.dir, "gold-html", `${page.id}.html`));
  return existsSync(path) ? readText(path) : null;
}

/**
 * Every set a bare name reaches: the folders with an index.jsonl under each of dataDirs(), a
 * name listed once (the first folder holding it shadows the later ones), sorted.
 */
export function listDatasets(): string[] {
  const names = new Set<string>();
  for (const root of dataDirs()) {
    if (!existsSync(root)) continue;
    for (const d of readdirSync(root)) if (existsSync(join(root, d, "index.jsonl"))) names.add(d);
  }
  return [...names].sort();
}
