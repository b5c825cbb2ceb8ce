/**
 * Inlined pictures (`![alt](data:…)`) become their alt text, outside code
 * fences and code spans: the base64 payload would otherwise fill chunks with
 * noise. Path and http images stay. A document made only of placeholders
 * keeps them. Code is text the author wrote, not a picture (a code span was
 * rewritten while a fence beside it was kept: found by a probe).
 */
import { fencedLines } from "../text/markdown-lines.ts";
import { codeSpans } from "../text/code-spans.ts";

const DATA_IMAGE = /!\[([^\]]*)\]\(\s*data:[^)]*\)/g;
const altText = (part: string) => part.replace(DATA_IMAGE, (_m, alt: string) => alt.trim());

/** The line with its pictures outside code spans replaced by their alt text. */
function withoutPictures(line: string): string {
  if (!line.includes("`")) return altText(line);
  let out = "";
  let from = 0;
  for (const [start, end] of codeSpans(line)) {
    out += altText(line.slice(from, start)) + line.slice(start, end);
    from = end;
  }
  return out + altText(line.slice(from));
}

export function stripInlineImages(markdown: string): string {
  const lines = markdown.split("\n");
  const fenced = fencedLines(lines);
  const out = lines.map((line, i) => (fenced[i] ? line : withoutPictures(line)));
  const result = out.join("\n");
  return result.trim() ? result : markdown;
}
