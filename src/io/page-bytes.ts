/** A page's bytes as read (gzipped or not), before decoding, with what is known about it. */
export interface PageBytes {
  id: string;
  source: string;
  url: string | null;
  remote: boolean;
  /** The charset an HTTP Content-Type declared, if any. */
  charset: string | null;
  /** Set when the bytes are plain text, not markup (a URL served as text/plain): see plainTextPage. */
  plainText?: boolean;
  /** Set when an HTTP Content-Type says XHTML (application/xhtml+xml): PageInput.xhtml. */
  xhtml?: boolean;
  bytes: Uint8Array;
  /** The WARC record the page was read from, when it was (a conversion record refers to it: src/batch/warc-out.ts). */
  record?: WarcRecordRef;
}

/** A WARC record as another record names it. */
export interface WarcRecordRef {
  /** Its WARC-Record-ID, with the angle brackets (`<urn:uuid:…>`). */
  id: string;
  /** Its WARC-Date, as written. */
  date: string | null;
}
