/** WARC input (gzipped or not): every `response` record with an HTML payload becomes a page. */
import { createReadStream } from "node:fs";
import { WARCParser } from "warcio";
import type { PageResult } from "../types.ts";
import type { PageBytes } from "./inputs.ts";

const HTML_CONTENT_TYPE = /html|xml/i;

/**
 * Page ids are `<name>#<n>`, n counting the HTML responses, with `name` the WARC's path as given
 * (relative to the directory when the WARC was found by walking one, as page files are).
 * `skip` (ReadOptions.skip) is asked with each HTML record's id before its payload is read.
 */
export async function* readWarc(path: string, skip?: (id: string) => boolean | Promise<boolean>, name = path): AsyncGenerator<PageResult<PageBytes>> {
  let n = 0;
  let records = 0;
  try {
    const parser = new WARCParser(createReadStream(path));
    for await (const record of parser) {
      if (!record.warcHeaders?.protocol?.startsWith("WARC/")) throw new Error("not a WARC record header");
      records++;
      if (record.warcType !== "response") continue;
      const url = record.warcTargetURI ?? null;
      const type = record.httpHeaders?.headers.get("content-type") ?? "";
      if (!HTML_CONTENT_TYPE.test(type)) continue;
      n++;
      const id = `${name}#${n}`;
      if (await skip?.(id)) continue;
      const bytes = await record.readFully(true);
      const charset = /charset=([^;]+)/i.exec(type)?.[1] ?? null;
      yield { ok: true, value: { id, source: `${path}#${url ?? n}`, url, remote: false, charset, bytes } };
    }
  } catch (e) {
    yield { ok: false, error: { id: `${name}#${n + 1}`, source: path, stage: "read", reason: `bad WARC: ${(e as Error).message}` } };
    return;
  }
  if (records === 0) yield { ok: false, error: { id: name, source: path, stage: "read", reason: "bad WARC: no records found" } };
}
