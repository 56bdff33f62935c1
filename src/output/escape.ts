/** HTML and Markdown escaping for the output formats. */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

/** Escape characters that would start Markdown syntax at the beginning of a line or inline. */
export function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_\[\]])/g, "\\$1").replace(/^(\s*)([#>+-]|\d+\.)(\s)/, "$1\\$2$3");
}
