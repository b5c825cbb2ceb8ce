/**
 * Names in one line of human output: C0 and C1 controls and DEL become
 * escapes (\n, \t, \r, \xNN), so a file name holding a newline or a terminal
 * escape cannot break a line or recolour the terminal (JSON output keeps
 * names exact). The way back serves a name typed as it was shown: only a path
 * that does not exist is read back this way (scan/containment.ts).
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}

/** The controls escapeControls writes, back as themselves; other text, backslashes included, unchanged. */
export function unescapeControls(text: string): string {
  return text.replace(/\\(n|t|r|x([0-1][0-9a-f]|7f|[89][0-9a-f]))/g, (_, code: string, hex?: string) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    return code === "n" ? "\n" : code === "t" ? "\t" : "\r";
  });
}
