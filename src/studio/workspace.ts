/**
 * The pages a studio shows and where their labels go. A labeled dataset folder (data/README.md:
 * index.jsonl, html/, gold/) is read and written in place; a plain folder of pages gets a dataset
 * folder of its own (`--out`, default DIR/labeled) that the studio fills as pages are labeled: a
 * saved page's HTML, gold text, node labels and index row. Dataset folders inside a plain folder
 * (its own labeled/ among them) are not pages. Pages are named by a key made of the
 * set's position and the page id; routes look keys up here and never join them into a path.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { hasGold, loadDataset, readDatasetPage, type Dataset, type DatasetPage } from "../io/dataset.ts";
import {
  inputList,
  listPageFiles,
  readInputs,
  readPageFile,
  WARC_FILE,
  type InputSpecs,
} from "../io/inputs.ts";
import type { PageInput, PageResult } from "../types.ts";

/** One page of the studio. */
export interface StudioPage {
  /** Unique in the studio, safe in a URL path segment: `<set number>.<page number>`. */
  key: string;
  /** The page's id in the dataset its labels are written to. */
  id: string;
  url: string | null;
  domain: string | null;
  /** The page type the dataset gives (page_type, else genre), null when it gives none. */
  goldType: string | null;
  /** Where the page's HTML is read from: a dataset, a page file, or held (a WARC's record, a fetched URL). */
  from: { dataset: Dataset; page: DatasetPage } | { file: string } | { held: PageResult<PageInput> };
  /** The dataset folder the labels are written to. */
  target: string;
}

export interface Workspace {
  pages: StudioPage[];
  byKey: Map<string, StudioPage>;
}

export class WorkspaceError extends Error {
  override name = "WorkspaceError";
}

/** The dataset folder a plain folder's labels go to when --out does not say. */
export const DEFAULT_OUT = "labeled";

/**
 * The pages of every input: a dataset folder, a plain folder of page files, a WARC (its HTML
 * records), or, with `urlList`, the URLs a file lists (fetched once, at start).
 */
export async function openWorkspace(
  dirs: readonly string[],
  out?: string,
  urlList?: string,
): Promise<Workspace> {
  const pages: StudioPage[] = [];
  for (const [k, dir] of dirs.entries()) {
    if (!existsSync(dir)) throw new WorkspaceError(`no such folder or WARC: ${dir}`);
    let found: StudioPage[];
    if (WARC_FILE.test(dir)) found = await heldPages([dir], k, outFor(out, "a WARC"));
    else if (existsSync(resolve(dir, "index.jsonl"))) found = datasetPages(dir, k);
    else found = await folderPages(dir, k, resolve(out ?? resolve(dir, DEFAULT_OUT)));
    pages.push(...found);
  }
  if (urlList) pages.push(...(await heldPages(inputList(urlList), dirs.length, outFor(out, "a URL list"))));
  checkUnique(pages);
  if (!pages.length)
    throw new WorkspaceError(
      `no pages in ${dirs.join(", ")}: expected a dataset folder (index.jsonl, html/) or page files (.html, .htm, .html.gz)`,
    );
  return { pages, byKey: new Map(pages.map((p) => [p.key, p])) };
}

/** Refuses two pages whose labels would be written to one file (two folders' index.html, one --out). */
function checkUnique(pages: readonly StudioPage[]): void {
  const seen = new Set<string>();
  for (const p of pages) {
    const at = join(p.target, "gold", `${p.id}.txt`);
    if (seen.has(at))
      throw new WorkspaceError(`two pages would be labeled as ${at}: give their folders apart`);
    seen.add(at);
  }
}

function outFor(out: string | undefined, what: string): string {
  if (out === undefined)
    throw new WorkspaceError(`--out DIR is needed with ${what}: the dataset folder its labeled pages go to`);
  return resolve(out);
}

/** A held page's dataset id: `<warc name>_<n>` for a WARC record, the URL without its scheme for a URL. */
function heldId(raw: string): string {
  const name = WARC_FILE.test(raw.replace(/#\d+$/, "")) ? basename(raw) : raw.replace(/^https?:\/\//, "");
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_");
}

/** Pages read whole at start (a WARC's HTML records, fetched URLs), each held with its read error if any. */
async function heldPages(specs: InputSpecs, set: number, target: string): Promise<StudioPage[]> {
  const pages: StudioPage[] = [];
  for await (const held of readInputs(specs)) {
    const url = held.ok ? held.value.url : null;
    const id = heldId(held.ok ? held.value.id : held.error.id);
    pages.push({
      key: `${set}.${pages.length}`,
      id,
      url,
      domain: null,
      goldType: null,
      from: { held },
      target,
    });
  }
  return pages;
}

function datasetPages(dir: string, set: number): StudioPage[] {
  const dataset = loadDataset(resolve(dir), { goldOptional: true });
  return dataset.pages.map((page, k) => ({
    key: `${set}.${k}`,
    id: page.id,
    url: page.url,
    domain: page.domain,
    goldType: page.pageType === "other" && !hasGold(dataset, page) ? null : page.pageType,
    from: { dataset, page },
    target: dataset.dir,
  }));
}

/** A page file's dataset id: its path below the folder, without the extension, "/" as "_". */
export function fileId(dir: string, file: string): string {
  return relative(dir, file)
    .replace(/\.(x?html?|xht)(\.gz)?$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^\.+/, "_");
}

async function folderPages(dir: string, set: number, target: string): Promise<StudioPage[]> {
  const labeled = existsSync(resolve(target, "index.jsonl"))
    ? new Map(loadDataset(target, { goldOptional: true }).pages.map((p) => [p.id, p]))
    : new Map<string, DatasetPage>();
  const files = (await listPageFiles(dir)).filter(
    (f) => !f.unreadable && !/\.warc(\.gz)?$/i.test(f.path) && !inDataset(dir, f.path),
  );
  return files.map((f, k) => {
    const id = fileId(dir, f.path);
    const known = labeled.get(id);
    return {
      key: `${set}.${k}`,
      id,
      url: known?.url ?? null,
      domain: known?.domain ?? null,
      goldType: known ? known.pageType : null,
      from: { file: f.path },
      target,
    };
  });
}

/** Whether a file lies in a dataset folder below `dir` (one with an index.jsonl: a labeled set, not pages). */
function inDataset(dir: string, file: string): boolean {
  for (let d = dirname(file); d.length > dir.length && d.startsWith(dir); d = dirname(d))
    if (existsSync(join(d, "index.jsonl"))) return true;
  return false;
}

/** The page's HTML as a PageInput, or why it cannot be read. */
export async function readStudioPage(page: StudioPage): Promise<PageResult<PageInput>> {
  if ("held" in page.from) return page.from.held;
  if ("file" in page.from) return readPageFile(page.from.file, page.id, page.url);
  const { dataset, page: row } = page.from;
  try {
    return { ok: true, value: await readDatasetPage(dataset, row) };
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no html file" : (e as Error).message;
    return { ok: false, error: { id: page.id, source: basename(dataset.dir), stage: "read", reason } };
  }
}
