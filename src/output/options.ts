/** What Markdown and HTML output include beyond the text (`pith extract --no-images`). */
export interface OutputOptions {
  /** The content's images: `![alt](src)` in Markdown, `<img>` (and `<picture>`) in HTML. */
  images: boolean;
}

export const DEFAULT_OUTPUT: OutputOptions = { images: true };
