/**
 * Rebuilds a section (or a whole document) from its chunks without the
 * repeated context each chunk carries for its own vector: a unit drops the
 * leading lines it shares with the previous one (a breadcrumb, a table
 * header), at most min(4, previous lines, own lines - 1).
 */
import { isTableRow, timestampSeconds } from "./markdown-lines.ts";

const MAX_SHARED_LINES = 4;

export function joinParent(units: string[]): string {
  let out = "";
  let previous: string[] | null = null;
  for (const unit of units) {
    let lines = unit.split("\n");
    if (previous) {
      const limit = Math.min(MAX_SHARED_LINES, previous.length, lines.length - 1);
      let shared = 0;
      while (shared < limit && lines[shared] === previous[shared]) shared++;
      const own = lines;
      lines = lines.slice(shared);
      previous = own;
    } else previous = lines;
    while (lines.length && !lines[0]!.trim()) lines.shift();
    const text = lines.join("\n");
    if (!text.trim()) continue;
    if (!out) {
      out = text;
      continue;
    }
    const lastLine = out.slice(out.lastIndexOf("\n") + 1);
    const tight = (isTableRow(lastLine) && isTableRow(lines[0]!)) || timestampSeconds(lastLine) !== null;
    out += (tight ? "\n" : "\n\n") + text;
  }
  return out;
}

/** Chunks grouped by consecutive parent id (no id: a group of its own), each group joined, groups separated by a blank line. */
export function joinDocument(chunks: { text: string; parentId: string | null }[]): string {
  const groups: string[][] = [];
  let lastParent: string | null | undefined;
  for (const chunk of chunks) {
    if (chunk.parentId !== null && chunk.parentId === lastParent) groups[groups.length - 1]!.push(chunk.text);
    else groups.push([chunk.text]);
    lastParent = chunk.parentId;
  }
  return groups
    .map(joinParent)
    .filter((g) => g.trim())
    .join("\n\n");
}
