/**
 * Row output of `pith features` and `pith predict`: text written as it comes, with backpressure
 * (a slow disk or reader holds the batch back instead of memory), to a file or to stdout. A write
 * error (a full disk) ends the command with it, not with an unhandled event.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { checkOutputFile } from "./output-path.ts";

export interface LineFile {
  /** Writes `text`; resolves once the stream takes more. */
  put(text: string): Promise<void>;
  /** Ends the file; rejects with a write error that happened on the way. */
  close(): Promise<void>;
}

/**
 * Resolves when `out` drains or closes, and removes both listeners either way (a race of two
 * `once` promises left the loser's listener behind at every backpressure wait: Node warned of a
 * listener leak after ten).
 */
function drainedOrClosed(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });
}

/** `path` opened for `command`'s --out (checked first: a folder that cannot hold it is a usage error). */
export async function openLineFile(command: string, path: string): Promise<LineFile> {
  await checkOutputFile(command, "--out", path);
  const out = createWriteStream(path);
  let failed: Error | null = null;
  out.on("error", (e) => (failed = e));
  return {
    async put(text) {
      if (failed) throw failed;
      if (!out.write(text)) await drainedOrClosed(out);
    },
    async close() {
      out.end();
      await Promise.race([once(out, "finish"), once(out, "close")]); // once: nothing left behind
      if (failed) throw failed;
    },
  };
}

/** Standard output as a LineFile (a pipe into another program paces the writes). */
export function stdoutLines(): LineFile {
  return {
    put: async (text) => void (!process.stdout.write(text) && (await drainedOrClosed(process.stdout))),
    close: async () => {},
  };
}
