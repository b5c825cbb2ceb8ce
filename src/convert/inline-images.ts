/**
 * Inlined pictures (`![alt](data:…)`) become their alt text, outside code
 * fences and code spans: the base64 payload would otherwise fill chunks with
 * noise. Path and http images stay. A document made only of placeholders
 * keeps them. Code is text the author wrote, not a picture (a code span was
 * rewritten while a fence beside it was kept: found by a probe).
 */
import { fencedLines } from "../text/markdown-lines.ts";

const DATA_IMAGE = /!\[([^\]]*)\]\(\s*data:[^)]*\)/g;
/**
 * The code spans of one line as [start, end) pairs: a run of backticks up to
 * the next run of as many (CommonMark). Found in one pass over the runs, each
 * knowing where the next of its length is: a pattern that tried every run as
 * an opener and read on to the line's end would be quadratic on a long line.
 */
function codeSpans(line: string): [number, number][] {
  const runs: { at: number; length: number }[] = [];
  for (let i = line.indexOf("`"); i >= 0; i = line.indexOf("`", i)) {
    let end = i;
    while (line[end] === "`") end++;
    runs.push({ at: i, length: end - i });
    i = end;
  }
  const next: number[] = new Array(runs.length);
  const nextOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    next[k] = nextOfLength.get(runs[k]!.length) ?? -1;
    nextOfLength.set(runs[k]!.length, k);
  }
  const spans: [number, number][] = [];
  for (let k = 0; k < runs.length; ) {
    const close = next[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    spans.push([runs[k]!.at, runs[close]!.at + runs[close]!.length]);
    k = close + 1;
  }
  return spans;
}

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
