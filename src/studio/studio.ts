/**
 * The studio's state over a workspace: each page rendered and analysed on demand (a few kept in
 * memory), a summary row per page for the Pages table filled in the background, and saves.
 */
import { firstLine } from "../errors.ts";
import { renderPage } from "../render/index.ts";
import type { PageInput, Renderer } from "../types.ts";
import { analyzePage, modelOptions, type Analysis, type ModelFlags } from "./analyze.ts";
import { saveLabels, type LabelsRequest } from "./labels.ts";
import { readStudioPage, type StudioPage, type Workspace } from "./workspace.ts";
import { forgetModel } from "../pipeline/model/resolve.ts";
import { startTeach, type TeachStatus } from "./teach-job.ts";
import { startCompare, type CompareStatus } from "./compare.ts";

/** Analysed pages kept in memory (a page is re-analysed when it falls out). */
export const KEPT_ANALYSES = 24;

/** A row of the Pages table. */
export interface PageSummary {
  key: string;
  id: string;
  host: string | null;
  goldType: string | null;
  routedType: string | null;
  words: number | null;
  hasGold: boolean;
  p: number | null;
  r: number | null;
  f1: number | null;
  /** Why the page could not be analysed. */
  error: string | null;
}

interface Loaded {
  input: PageInput;
  analysis: Analysis;
}

export class PageError extends Error {
  override name = "PageError";
}

export class Studio {
  private readonly loaded = new Map<string, Promise<Loaded>>();
  readonly summaries = new Map<string, PageSummary>();
  /** Pages whose summary is of the model in use (a Teach run makes the others stale until re-analysed). */
  readonly fresh = new Set<string>();
  private surveying: Promise<void> | null = null;
  /** The last Teach run (running or finished). */
  teaching: TeachStatus | null = null;
  /** The last comparison with the other methods (running or finished). */
  comparing: CompareStatus | null = null;

  constructor(
    readonly workspace: Workspace,
    readonly flags: ModelFlags,
    private readonly renderer: Renderer,
  ) {}

  page(key: string): StudioPage | undefined {
    return this.workspace.byKey.get(key);
  }

  /** The page read, rendered and analysed (from memory when it was lately). */
  async load(page: StudioPage): Promise<Loaded> {
    let entry = this.loaded.get(page.key);
    if (entry) {
      this.loaded.delete(page.key); // most recent last
      this.loaded.set(page.key, entry);
      return entry;
    }
    entry = this.analyse(page);
    this.loaded.set(page.key, entry);
    entry.catch(() => this.loaded.delete(page.key));
    while (this.loaded.size > KEPT_ANALYSES) this.loaded.delete(this.loaded.keys().next().value as string);
    return entry;
  }

  private async analyse(page: StudioPage): Promise<Loaded> {
    const read = await readStudioPage(page);
    if (!read.ok) throw new PageError(`cannot read the page: ${read.error.reason}`);
    const rendered = await renderPage(this.renderer, read.value);
    if (!rendered.ok) throw new PageError(`the page failed to render: ${rendered.error.reason}`);
    const analysis = await analyzePage(rendered.value, this.flags, { dir: page.target, id: page.id });
    this.summaries.set(page.key, summaryOf(page, analysis));
    this.fresh.add(page.key);
    return { input: read.value, analysis };
  }

  /** Fills the Pages table's rows, one page after another, once. */
  survey(): Promise<void> {
    this.surveying ??= (async () => {
      for (const page of this.workspace.pages) {
        if (this.fresh.has(page.key)) continue;
        try {
          await this.load(page);
        } catch (e) {
          this.summaries.set(page.key, { ...emptySummary(page), error: firstLine(e) });
          this.fresh.add(page.key);
        }
        await new Promise((r) => setImmediate(r)); // let requests in between pages
      }
    })();
    return this.surveying;
  }

  /** Every page's row: its summary when analysed, else what the dataset says. */
  rows(): PageSummary[] {
    return this.workspace.pages.map((p) => this.summaries.get(p.key) ?? emptySummary(p));
  }

  /** Starts training `host`'s model from its labeled pages; null when a run is going on already. */
  teach(host: string): TeachStatus | null {
    if (this.teaching?.state === "running") return null;
    const pages = this.workspace.pages.filter((p) => this.summaries.get(p.key)?.host === host);
    const dir = pages.find((p) => this.summaries.get(p.key)?.hasGold)?.target ?? pages[0]?.target;
    if (!dir) return (this.teaching = failedTeach(host, `no page of ${host} is in the studio`));
    const request = { dir, host, mode: this.flags.mode, ...modelOptions(this.flags) };
    this.teaching = startTeach(request, (status) => {
      if (status.result) forgetModel(status.result.file, this.flags.mode);
      this.loaded.clear(); // the host's pages now run its model
      this.fresh.clear(); // the table keeps the old rows until each page is analysed again
      this.surveying = null;
      void this.survey();
    });
    return this.teaching;
  }

  /** Starts `pith evaluate`'s comparison on the labeled sets; null when one is running already. */
  compare(): CompareStatus | null {
    if (this.comparing?.state === "running") return null;
    const labeled = this.workspace.pages.filter((p) => this.summaries.get(p.key)?.hasGold);
    this.comparing = startCompare([...new Set(labeled.map((p) => p.target))], this.flags);
    return this.comparing;
  }

  /** Saves the labels, then forgets the page's analysis (its gold changed). */
  async save(page: StudioPage, request: LabelsRequest): Promise<string> {
    const { input, analysis } = await this.load(page);
    const gold = await saveLabels(page, analysis, request, input.html);
    if (request.pageType) page.goldType = request.pageType;
    this.loaded.delete(page.key);
    this.fresh.delete(page.key);
    await this.load(page).catch(() => undefined);
    return gold;
  }
}

function failedTeach(host: string, error: string): TeachStatus {
  return { host, state: "failed", progress: null, result: null, error };
}

function hostOf(page: StudioPage, url: string | null): string | null {
  if (page.domain) return page.domain;
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
}

function emptySummary(page: StudioPage): PageSummary {
  return {
    key: page.key,
    id: page.id,
    host: hostOf(page, page.url),
    goldType: page.goldType,
    routedType: null,
    words: null,
    hasGold: false,
    p: null,
    r: null,
    f1: null,
    error: null,
  };
}

function summaryOf(page: StudioPage, a: Analysis): PageSummary {
  return {
    ...emptySummary(page),
    host: hostOf(page, page.url ?? a.snapshot.url ?? a.snapshot.meta?.canonicalUrl ?? null),
    routedType: a.pageType,
    words: a.own.totalWords,
    hasGold: a.gold !== null,
    p: a.prf?.p ?? null,
    r: a.prf?.r ?? null,
    f1: a.prf?.f1 ?? null,
  };
}
