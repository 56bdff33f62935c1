/**
 * `npm run bench:pathological`: time and peak memory of `extract` (static, learned pipeline) on
 * generated worst-case pages, one fresh process each, and the time to write its extraction as
 * Markdown, so that a page shape that makes some stage superlinear shows up as a number, not as
 * a hung batch. Each case is sized to take about a second when every stage is linear; a case
 * over --limit seconds is reported as such.
 *
 * The shapes it holds are the ones that once made a stage superlinear, each now about a second:
 * one 15 MB text node (the language sample, src/features/stats.ts), 40,000 inline links in one
 * block (src/dom/text.ts), 100,000 unclosed <b><i> pairs (an open-element stack that does not move
 * at every tag, src/render/tree-builder.ts), a word of 100,000 digits (the price pattern,
 * src/features/region.ts), 200,000 unclosed <div> then 200,000 end tags of elements not open (open
 * elements counted per name on deep stacks, tree-builder.ts DEEP_STACK), and for the Markdown
 * writer (src/output/markdown.ts, markdown-line.ts) 40,000 <b> in one paragraph, a code block of
 * 80,000 line <div>s and 200,000 spaces inside one <b> (the "markdown s" column).
 *
 * Usage: npm run bench:pathological -- [--limit SECONDS] [--only NAME]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { intOption, scriptArgs } from "./args.ts";

/** Case name → page generator. */
const CASES: Record<string, () => string> = {
  "10,000 nested divs": () =>
    `<html><body>${"<div>".repeat(10_000)}<p>deep text</p>${"</div>".repeat(10_000)}</body></html>`,
  "200,000 unclosed <div> then 200,000 stray </span>": () =>
    `<html><body>${"<div>".repeat(200_000)}<p>deep text</p>${"</span>".repeat(200_000)}</body></html>`,
  "100,000 unclosed <b><i> pairs": () => `<html><body>${"<p><b><i>x ".repeat(100_000)}</body></html>`,
  "one text node of 1,000,000 words": () => `<html><body><p>${"word ".repeat(1_000_000)}</p></body></html>`,
  "40,000 inline links in one block": () =>
    `<html><body><div>${Array.from({ length: 40_000 }, (_, i) => `<a href="/x${i}">link ${i}</a> `).join("")}</div></body></html>`,
  "table of 100,000 rows": () =>
    `<html><body><table>${"<tr><td>c</td><td>d</td></tr>".repeat(100_000)}</table></body></html>`,
  "200,000 small elements": () =>
    `<html><body>${Array.from({ length: 200_000 }, (_, i) => `<div><span>w${i}</span></div>`).join("")}</body></html>`,
  // hidden by markup, so read by the static model's view (src/pipeline/hidden-text.ts): every node copied once
  "200,000 small elements in display:none": () =>
    `<html><body><p>${"word ".repeat(300)}</p><div style="display:none">${Array.from({ length: 200_000 }, (_, i) => `<div><span>w${i}</span></div>`).join("")}</div></body></html>`,
  "10 MB of text without a space": () => `<html><body><p>${"A".repeat(10_000_000)}</p></body></html>`,
  "200,000 attributes on one element": () =>
    `<html><body><div ${Array.from({ length: 200_000 }, (_, i) => `data-a${i}="v"`).join(" ")}><p>${"word ".repeat(200)}</p></div></body></html>`,
  "200,000 class tokens": () =>
    `<html><body><div class="${Array.from({ length: 200_000 }, (_, i) => `c${i}`).join(" ")}"><p>${"word ".repeat(200)}</p></div></body></html>`,
  "10 MB inline script": () =>
    `<html><body><script>var x="${"a".repeat(10_000_000)}";</script><p>${"word ".repeat(300)}</p></body></html>`,
  "10 MB comment": () =>
    `<html><body><!--${"c".repeat(10_000_000)}--><p>${"word ".repeat(300)}</p></body></html>`,
  // a price pattern tried from every digit of a run read to its end was O(N²): 41 s for 100,000 digits (src/features/region.ts PRICE)
  "one word of 200,000 digits": () =>
    `<html><body><p>Number: ${"1".repeat(200_000)} and ${"1,".repeat(50_000)} end.</p></body></html>`,
  // one text child built from every token (src/render/math-text.ts), nested 10,000 levels deep
  "MathML formula of 200,000 tokens in 10,000 nested rows": () =>
    `<html><body><p>Formula: <math>${"<mrow><mi>x</mi><mo>+</mo>".repeat(10_000)}${"</mrow>".repeat(10_000)}${"<mn>1</mn>".repeat(200_000)}</math> end.</p></body></html>`,
  // the Markdown writer rebuilt its line at every closing mark, and read the last character of a code block's line (flattening it) at every line <div>
  "40,000 <b> in one paragraph": () => `<html><body><p>${"<b>x</b> ".repeat(40_000)}</p></body></html>`,
  "code block of 80,000 highlighter line <div>s": () =>
    `<html><body><pre><code>${Array.from({ length: 80_000 }, (_, i) => `<div>line ${i}</div>`).join("")}</code></pre></body></html>`,
  // the spaces at the end of a mark's content were found by a pattern tried from every character (src/output/markdown.ts trailingSpace)
  "200,000 spaces inside one <b>": () =>
    `<html><body><p>Some words <b>bold${" ".repeat(200_000)}text${" ".repeat(200_000)}</b> and more words.</p></body></html>`,
};

const USAGE = `Usage: npm run bench:pathological -- [--limit SECONDS] [--only NAME]

Time and peak memory of pith extract on generated worst-case pages, one fresh process each, and
the time to write the extraction as Markdown (--limit: seconds before a case is stopped, default
120; --only: cases whose name contains NAME).`;
const values = scriptArgs(USAGE, {
  limit: { type: "string" },
  only: { type: "string" },
  one: { type: "string" },
});

if (values.one) {
  // child: extract one page in this fresh process and report
  const { staticSnapshot } = await import("../src/render/static.ts");
  const { mlExtractor } = await import("../src/pipeline/extractor.ts");
  const { buildTree } = await import("../src/dom/tree.ts");
  const { formatExtraction } = await import("../src/output/index.ts");
  const html = readFileSync(values.one, "utf8");
  await mlExtractor.extract(
    staticSnapshot({
      id: "warm",
      source: "warm",
      url: null,
      html: "<p>warm up the model</p>",
      encoding: "utf-8",
      remote: false,
    }),
    { mode: "static", trace: false },
  );
  const t = performance.now();
  const page = staticSnapshot({
    id: "p",
    source: values.one,
    url: null,
    html,
    encoding: "utf-8",
    remote: false,
  });
  const e = await mlExtractor.extract(page, { mode: "static", trace: false });
  const ms = performance.now() - t;
  const m = performance.now(); // Markdown as pith extract --format markdown writes it
  formatExtraction("markdown", page, buildTree(page), e);
  process.stdout.write(
    JSON.stringify({
      ms,
      mdMs: performance.now() - m,
      rssMb: process.resourceUsage().maxRSS / 1024,
      chars: e.text.length,
    }) + "\n",
  );
} else {
  const limit = intOption(USAGE, "limit", values.limit, 120);
  const dir = mkdtempSync(join(tmpdir(), "pith-pathological-"));
  try {
    console.log(
      "| page | HTML MB | extract s | markdown s | peak RSS MB | text chars |\n|---|---:|---:|---:|---:|---:|",
    );
    for (const [name, make] of Object.entries(CASES)) {
      if (values.only && !name.includes(values.only)) continue;
      const file = join(dir, "page.html");
      const html = make();
      writeFileSync(file, html);
      const r = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, "--one", file], {
        encoding: "utf8",
        timeout: limit * 1000,
      });
      const mb = (Buffer.byteLength(html) / 1e6).toFixed(1);
      if (r.error || r.status !== 0) {
        console.log(
          `| ${name} | ${mb} | ${r.error ? `> ${limit} (stopped)` : `failed: ${r.stderr.trim().split("\n").pop()}`} | | | |`,
        );
        continue;
      }
      const out = JSON.parse(r.stdout) as { ms: number; mdMs: number; rssMb: number; chars: number };
      console.log(
        `| ${name} | ${mb} | ${(out.ms / 1000).toFixed(2)} | ${(out.mdMs / 1000).toFixed(2)} | ${out.rssMb.toFixed(0)} | ${out.chars} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
