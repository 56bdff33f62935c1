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
}
