/**
 * `--mode auto`'s second pass, in the main thread: a page whose static pass asked for Chromium
 * (PageOutput.rerender, auto-mode.ts) is rendered and extracted again there. The browser starts
 * with the first such page, so a batch whose pages all stay static never starts one. Chromium
 * never costs a page: when the browser cannot start, or the render or its extraction fails or
 * passes `--timeout` (a limit of its own, after the static pass's), the page's static result is
 * written, with a warning saying why.
 */
import { firstLine } from "../errors.ts";
import { createRenderer, pageLimit, renderPage } from "../render/index.ts";
import { StaticRenderer } from "../render/static.ts";
import type { Extractor, PageInput, PageResult, Renderer } from "../types.ts";
import { autoDecision, autoSignals, type AutoDecision } from "./auto-mode.ts";
import type { ExtractSetup } from "./extract-pool.ts";
import { outputOf, type OutputPlan, type PageOutput } from "./page-output.ts";

/** The static pass's OutputPlan of `--mode auto` (`js`: the user allowed JavaScript). */
export function autoPlan(setup: ExtractSetup, limit: OutputPlan["limit"]): OutputPlan {
  const js = setup.render.javascript === true;
  return {
    format: setup.format,
    output: setup.output,
    limit,
    auto: (page, extraction) => autoDecision(autoSignals(page, extraction), js),
  };
}

/** Renders in Chromium the pages the static pass sent back; one per batch. */
export class AutoRerender {
  private chromium: Promise<Renderer> | null = null;

  constructor(
    private readonly extractor: Extractor,
    private readonly setup: ExtractSetup,
    /** Pages Chromium renders at once (--concurrency). */
    private readonly concurrency: number,
  ) {}

  /**
   * The page's output: the static pass's when it stays static, else Chromium's; `input` decodes
   * the page again (a worker decoded it for the static pass).
   */
  async finish(
    first: PageResult<PageOutput>,
    input: () => PageResult<PageInput>,
  ): Promise<PageResult<PageOutput>> {
    if (!first.ok || !first.value.rerender) return first;
    const decision = first.value.rerender;
    const page = input();
    if (!page.ok) return page;
    const out = await this.rendered(page.value, decision).catch((e: unknown): PageResult<PageOutput> => ({
      ok: false,
      error: { id: page.value.id, source: page.value.source, stage: "render", reason: firstLine(e) },
    }));
    return out.ok ? out : this.fallback(page.value, decision, `${out.error.stage}: ${out.error.reason}`);
  }

  /** The page rendered and extracted in Chromium, with the chromium model (the snapshot's mode). */
  private async rendered(input: PageInput, decision: AutoDecision): Promise<PageResult<PageOutput>> {
    const renderer = await this.browser();
    const { context, render, format, output } = this.setup;
    const snapshot = await renderPage(renderer, input, render);
    return outputOf(snapshot, this.extractor, context, {
      format,
      output,
      limit: pageLimit(render),
      auto: () => decision,
    });
  }

  /** The static result, with a warning naming Chromium's failure. */
  private async fallback(
    input: PageInput,
    decision: AutoDecision,
    failure: string,
  ): Promise<PageResult<PageOutput>> {
    const warning = `Chromium failed (${failure}); the static result is written`;
    const page = { ...input, warnings: [...(input.warnings ?? []), warning] };
    const { context, render, format, output } = this.setup;
    const snapshot = await renderPage(new StaticRenderer(), page, render, pageLimit(render, "rendering"));
    const kept: AutoDecision = { render: false, reason: `${decision.reason}; ${warning}` };
    return outputOf(snapshot, this.extractor, context, {
      format,
      output,
      limit: pageLimit(render),
      auto: () => kept,
    });
  }

  /** The browser, launched once (a launch that failed fails every page that asks, each falling back). */
  private browser(): Promise<Renderer> {
    this.chromium ??= (async () => {
      await this.extractor.prepare?.({ ...this.setup.context, mode: "chromium" });
      return createRenderer("chromium", { concurrency: this.concurrency });
    })();
    return this.chromium;
  }

  async close(): Promise<void> {
    const chromium = this.chromium;
    this.chromium = null;
    if (chromium) await chromium.then((r) => r.close()).catch(() => {});
  }
}
