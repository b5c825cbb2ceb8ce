/**
 * Reading back rows cut before own texts were exact slices of the document
 * (chunk scheme 3 and older, e.g. an index of the Python reference or a data
 * item nobody re-sent): each section is rebuilt from its chunks without the
 * context each repeats for its vector, and the units are glued with a blank
 * line, or one line break where rows meet rows or inside a fence. Each chunk
 * says how many of its leading lines are such context (contextLines); rows
 * from before that count was stored get the reference's guess (leading lines
 * shared with the previous unit).
 */
import { FENCE, TABLE_DELIMITER, isTableRow, timestampSeconds } from "../text/markdown-lines.ts";

export interface LegacyUnit {
  text: string;
  /** Null or absent on rows from an index built before it was recorded. */
  contextLines?: number | null;
}

export interface LegacyChunk extends LegacyUnit {
  parentId: string | null;
}

/** Legacy guess: at most this many leading lines shared with the previous unit are dropped. */
const MAX_SHARED_LINES = 4;

/** A legacy section's text: its chunks without their repeated context. */
export function legacyJoinParent(units: LegacyUnit[]): string {
  return joinUnits(units.map((u, i) => ({ ...u, groupStart: i === 0 })));
}

/** A legacy document's text: every chunk without its repeated context, so each line appears as often as in the source. */
export function legacyJoinDocument(chunks: LegacyChunk[]): string {
  const marked = chunks.map((c, i) => ({ ...c, groupStart: c.parentId === null || i === 0 || c.parentId !== chunks[i - 1]!.parentId }));
  if (chunks.every((c) => typeof c.contextLines === "number")) return joinUnits(marked);
  // Rows indexed before contextLines: each section as the legacy joinParent built it, sections apart.
  const groups: LegacyUnit[][] = [];
  for (const chunk of marked) {
    if (chunk.groupStart) groups.push([]);
    groups[groups.length - 1]!.push(chunk);
  }
  return groups
    .map(legacyJoinParent)
    .filter((g) => g.trim())
    .join("\n\n");
}

function joinUnits(units: (LegacyUnit & { groupStart: boolean })[]): string {
  let out = "";
  let lastLine = "";
  let previous: string[] | null = null;
  const fence = new FenceTracker();
  for (const unit of units) {
    if (unit.groupStart) previous = null;
    const lines = unit.text.split("\n");
    const drop = contextToDrop(unit, lines, previous);
    previous = lines;
    const dropped = lines.slice(0, drop);
    const kept = lines.slice(drop);
    while (kept.length && !kept[0]!.trim()) kept.shift();
    if (!kept.join("").trim()) continue;
    if (out) {
      const rows = isTableRow(lastLine) && isTableRow(kept[0]!);
      // Rows meet rows across sections only where a table was cut at the cap and its header dropped.
      const tableGoesOn = rows && (!unit.groupStart || TABLE_DELIMITER.test(dropped.at(-1) ?? ""));
      const tight = tableGoesOn || (!unit.groupStart && (fence.isOpen() || timestampSeconds(lastLine) !== null));
      out += tight ? "\n" : "\n\n";
    }
    out += kept.join("\n");
    fence.feed(kept);
    lastLine = kept[kept.length - 1]!;
  }
  return out;
}

/** The recorded count; for a legacy row, the leading lines it shares with the previous unit of its section. */
function contextToDrop(unit: LegacyUnit, lines: string[], previous: string[] | null): number {
  if (typeof unit.contextLines === "number") return unit.contextLines;
  if (!previous) return 0;
  const limit = Math.min(MAX_SHARED_LINES, previous.length, lines.length - 1);
  let shared = 0;
  while (shared < limit && lines[shared] === previous[shared]) shared++;
  return shared;
}

/** Whether the text so far ends inside a code fence, so the next piece of a split block joins with one newline. */
class FenceTracker {
  private marker: string | null = null;

  feed(lines: string[]): void {
    for (const line of lines) {
      const m = FENCE.exec(line);
      if (!m) continue;
      if (this.marker === null) this.marker = m[1]!;
      else if (m[1]![0] === this.marker[0] && m[1]!.length >= this.marker.length && line.trim() === m[1]) this.marker = null;
    }
  }

  isOpen(): boolean {
    return this.marker !== null;
  }
}
