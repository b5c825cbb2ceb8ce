/**
 * Inlined pictures (`![alt](data:…)`) become their alt text, outside code
 * fences: the base64 payload would otherwise fill chunks with noise. Path and
 * http images stay. A document made only of placeholders keeps them.
 */
import { fencedLines } from "../text/markdown-lines.ts";

const DATA_IMAGE = /!\[([^\]]*)\]\(\s*data:[^)]*\)/g;

export function stripInlineImages(markdown: string): string {
  const lines = markdown.split("\n");
  const fenced = fencedLines(lines);
  const out = lines.map((line, i) => (fenced[i] ? line : line.replace(DATA_IMAGE, (_m, alt: string) => alt.trim())));
  const result = out.join("\n");
  return result.trim() ? result : markdown;
}
