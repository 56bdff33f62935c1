/**
 * The studio's routes (server.ts checks the token and host first): the UI's page and bundle, the
 * pages table, one page's analysis, its Inspect frame, and saving its labels. Pages are looked up
 * by key (workspace.ts); an unknown key or path is 404, whatever it spells.
 */
import { firstLine } from "../errors.ts";
import { FRAME_CSP, frameHtml, pageStyles } from "./frame.ts";
import { dashboard } from "./dashboard.ts";
import { PAGE_TYPES, type LabelsRequest } from "./labels.ts";
import { PageError, type Studio } from "./studio.ts";
import type { UiFiles } from "./ui-bundle.ts";
import type { StudioPage } from "./workspace.ts";
import type { PageDetail, PagesResponse } from "./ui/api.ts";

export interface Reply {
  status: number;
  type: string;
  body: string | Uint8Array;
  csp?: string;
  headers?: Record<string, string>;
}

export interface Request {
  method: string;
  path: string;
  body: string;
}

const APP_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pith studio</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/ui/app.css"></head>
<body><div id="app"></div><script type="module" src="/ui/app.js"></script></body></html>
`;

/** The studio's styles inside the frame: pith's choice as outlines, labels as a tint. */
const FRAME_STYLE = `<style>
[data-pith-b]{outline:2px solid transparent!important;outline-offset:-2px!important;cursor:pointer!important}
[data-pith-s=k]{outline-color:#1a7f37!important}
[data-pith-s=d]{outline-color:#d1242f!important;outline-style:dashed!important}
[data-pith-l=m]{background-color:rgba(46,160,67,.22)!important}
[data-pith-l=n]{background-color:rgba(110,119,129,.12)!important}
[data-pith-h]{box-shadow:0 0 0 3px #0969da!important}
a[data-href]{cursor:pointer!important}
</style>`;

const json = (status: number, value: unknown): Reply => ({
  status,
  type: "application/json; charset=utf-8",
  body: JSON.stringify(value),
});
const notFound = (): Reply => json(404, { error: "not found" });

function uiFile(ui: UiFiles, name: string): Reply {
  const body = ui.get(name);
  if (!body) return notFound();
  const type = name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
  return { status: 200, type, body };
}

function pagesReply(studio: Studio): Reply {
  void studio.survey();
  const rows = studio.rows();
  return json(200, {
    pages: rows,
    analysed: studio.fresh.size,
    mode: studio.flags.mode,
    model: studio.flags.model ?? null,
  } satisfies PagesResponse);
}

async function pageReply(studio: Studio, page: StudioPage): Promise<Reply> {
  const { analysis: a } = await studio.load(page);
  return json(200, {
    key: page.key,
    id: page.id,
    url: page.url ?? a.snapshot.url,
    target: page.target,
    goldType: page.goldType,
    pageType: a.pageType,
    pageTypes: PAGE_TYPES,
    threshold: a.threshold,
    model: a.model,
    text: a.text,
    markdown: a.markdown,
    emptyReason: a.emptyReason,
    gold: a.gold,
    prf: a.prf,
    goldMain: a.goldMain,
    warning: a.warning,
    blocks: a.blocks,
  } satisfies PageDetail);
}

async function frameReply(studio: Studio, page: StudioPage): Promise<Reply> {
  const { input, analysis: a } = await studio.load(page);
  const blocks = new Map(a.blocks.map((b) => [b.node, { "data-pith-s": b.kept ? "k" : "d" }]));
  const head = `<meta charset="utf-8"><style>${pageStyles(input.html)}</style>${FRAME_STYLE}`;
  const body = frameHtml(a.snapshot, a.tree, { head, blocks });
  return { status: 200, type: "text/html; charset=utf-8", body, csp: FRAME_CSP };
}

function labelsRequest(body: string): LabelsRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const v = value as { main?: unknown; pageType?: unknown };
  if (!Array.isArray(v.main) || !v.main.every((n) => Number.isInteger(n))) return null;
  if (v.pageType !== undefined && !(PAGE_TYPES as readonly unknown[]).includes(v.pageType)) return null;
  return { main: v.main as number[], ...(v.pageType ? { pageType: v.pageType as string } : {}) };
}

async function saveReply(studio: Studio, page: StudioPage, body: string): Promise<Reply> {
  const request = labelsRequest(body);
  if (!request) return json(400, { error: "expected {main: [node, …], pageType?}" });
  try {
    const gold = await studio.save(page, request);
    return json(200, { saved: true, goldWords: gold.split(/\s+/).filter(Boolean).length });
  } catch (e) {
    return json(500, { error: `not saved: ${firstLine(e)}` });
  }
}

function teachReply(studio: Studio, req: Request): Reply {
  if (req.method === "GET") return json(200, studio.teaching);
  let host: unknown;
  try {
    host = (JSON.parse(req.body) as { host?: unknown }).host;
  } catch {
    host = undefined;
  }
  if (typeof host !== "string" || !host) return json(400, { error: "expected {host}" });
  const status = studio.teach(host);
  return status ? json(202, status) : json(409, { error: "a site model is being trained already" });
}

/** The page a `/<prefix>/<key>[/<rest>]` path names, and the rest. */
function pageOf(studio: Studio, parts: string[]): StudioPage | undefined {
  return parts[1] === undefined ? undefined : studio.page(parts[1]);
}

export async function route(studio: Studio, ui: UiFiles, req: Request): Promise<Reply> {
  const parts = req.path.split("/").filter(Boolean);
  const get = req.method === "GET";
  if (get && parts.length === 0) return { status: 200, type: "text/html; charset=utf-8", body: APP_PAGE };
  if (get && parts[0] === "ui" && parts.length === 2) return uiFile(ui, parts[1] as string);
  if (get && req.path === "/api/pages") return pagesReply(studio);
  if (get && req.path === "/api/evaluate") {
    void studio.survey();
    const board = await dashboard(studio.rows(), studio.flags);
    return json(200, { ...board, analysed: studio.fresh.size, total: studio.workspace.pages.length });
  }
  if (req.path === "/api/compare" && get) return json(200, studio.comparing);
  if (req.path === "/api/compare" && req.method === "POST") {
    const status = studio.compare();
    return status ? json(202, status) : json(409, { error: "a comparison is running already" });
  }
  if (req.path === "/api/teach" && (get || req.method === "POST")) return teachReply(studio, req);
  const page =
    parts[0] === "api" || parts[0] === "frame"
      ? pageOf(studio, parts.slice(parts[0] === "api" ? 1 : 0))
      : undefined;
  if (!page) return notFound();
  try {
    if (get && parts[0] === "frame" && parts.length === 2) return await frameReply(studio, page);
    if (get && parts[1] === "page" && parts.length === 3) return await pageReply(studio, page);
    if (req.method === "POST" && parts[1] === "page" && parts[3] === "labels" && parts.length === 4)
      return await saveReply(studio, page, req.body);
  } catch (e) {
    if (e instanceof PageError) return json(422, { error: e.message });
    throw e;
  }
  return notFound();
}
