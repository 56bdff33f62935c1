/**
 * The studio's HTTP server (node:http): the UI, a JSON API and the Inspect frame, for one local
 * user. Security model (docs/studio.md):
 * - bound to 127.0.0.1 unless --host says otherwise, and requests must name this host and port
 *   (a DNS-rebinding page cannot reach it under another name);
 * - every request carries the access token printed with the URL (`?t=`), or the cookie the first
 *   page sets (SameSite=Strict, HttpOnly): anything else is refused with 403;
 * - pages are named by keys looked up in the workspace, never by paths: no route reads a file a
 *   request names;
 * - a page is shown only as the snapshot's markup (frame.ts), in a sandboxed frame without
 *   scripts, under frame.ts FRAME_CSP, which blocks every request the page's markup could make;
 * - writes are POSTs with a JSON body, which a cross-site form cannot send.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { firstLine } from "../errors.ts";
import type { UiFiles } from "./ui-bundle.ts";
import { route, type Reply } from "./routes.ts";
import type { Studio } from "./studio.ts";

/**
 * The UI's policy: its own script and styles, data: images, requests to itself only, no eval (Vega's
 * chart expressions run in vega-interpreter: ui/chart.tsx); the page's own markup never runs in
 * this document (it is in the sandboxed frame), and the UI puts page text in as text.
 */
export const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Largest request body read (a save's labels). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class PortTakenError extends Error {
  override name = "PortTakenError";
}

export interface StudioServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  host: string;
  port: number;
  token?: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function newToken(): string {
  return randomBytes(18).toString("base64url");
}

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Whether the Host header names this server (any host when bound beyond loopback on purpose). */
function hostAllowed(req: IncomingMessage, bound: string, port: number): boolean {
  if (!LOOPBACK.has(bound)) return true;
  const host = req.headers.host ?? "";
  const colon = host.lastIndexOf(":");
  return colon > 0 && host.slice(colon + 1) === String(port) && LOOPBACK.has(host.slice(0, colon));
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = {
    "content-type": reply.type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy": reply.csp ?? APP_CSP,
    ...reply.headers,
  };
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const text = (status: number, body: string): Reply => ({ status, type: "text/plain; charset=utf-8", body });

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  at: { studio: Studio; ui: UiFiles; token: string; host: string; port: number },
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://studio");
  const cookie = `pith_studio_${at.port}`;
  if (!hostAllowed(req, at.host, at.port)) return send(res, text(403, "forbidden: unknown host name"));
  const byQuery = sameToken(url.searchParams.get("t"), at.token);
  if (!byQuery && !sameToken(cookieToken(req, cookie), at.token))
    return send(
      res,
      text(403, "forbidden: open the studio with the URL it printed (it carries the access token)"),
    );
  const method = req.method ?? "GET";
  if (method === "POST" && !(req.headers["content-type"] ?? "").startsWith("application/json"))
    return send(res, text(415, "expected a JSON body"));
  const body = method === "POST" ? await readBody(req) : "";
  const reply = await route(at.studio, at.ui, { method, path: url.pathname, body });
  if (byQuery)
    reply.headers = {
      ...reply.headers,
      "set-cookie": `${cookie}=${at.token}; HttpOnly; SameSite=Strict; Path=/`,
    };
  send(res, reply);
}

function listen(server: Server, options: ServeOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE")
        reject(
          new PortTakenError(
            `port ${options.port} on ${options.host} is taken (another studio, or another program, ` +
              `listens there): stop it or pick another with --port N (--port 0: any free port)`,
          ),
        );
      else reject(new Error(`cannot listen on ${options.host}:${options.port}: ${e.message}`));
    });
    server.listen(options.port, options.host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts the server; the URL it returns carries the token. */
export async function serveStudio(studio: Studio, ui: UiFiles, options: ServeOptions): Promise<StudioServer> {
  const token = options.token ?? newToken();
  const at = { studio, ui, token, host: options.host, port: options.port };
  const server = createServer((req, res) => {
    handle(req, res, at).catch((e: unknown) => {
      if (!res.headersSent) send(res, text(500, `studio error: ${firstLine(e)}`));
      else res.end();
    });
  });
  const port = await listen(server, options);
  at.port = port;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}/?t=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
