/**
 * Reading a stream whose size is not known beforehand (a download, a pipe, stdin) up to the page
 * size cap, so that no input can fill the memory: past MAX_PAGE_BYTES the reading stops.
 */
import { MAX_PAGE_BYTES } from "./decode.ts";

/** The reason an error record gives for a page over the cap. */
export const tooLarge = (): string => `page is larger than ${MAX_PAGE_BYTES} bytes`;

/** A stream's bytes, or null once they pass MAX_PAGE_BYTES (leaving the loop stops the stream). */
export async function readCapped(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > MAX_PAGE_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
