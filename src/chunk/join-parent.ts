/**
 * Reads a document, or one of its sections, back from its chunks. Since
 * chunk scheme 4 each unit's own text (after its context lines) is a slice of
 * the document running to where the next unit starts, so a document is its
 * units' own texts in order, byte for byte, and a section is its units' own
 * texts. A section that continues a table cut at the 4,000-character cap
 * keeps the header its first unit repeats, so its rows can be read. Rows cut
 * by an older scheme are read back as before (legacy-join.ts).
 */
import { legacyJoinDocument, legacyJoinParent } from "./legacy-join.ts";
import { pipeTable, TABLE_DELIMITER } from "../text/markdown-lines.ts";
import { ownText } from "./own-text.ts";

/** The first chunk scheme whose own texts are exact slices of the document. */
export const EXACT_SCHEME = 4;

export interface JoinUnit {
  text: string;
  /** Null or absent on rows from an index built before it was recorded. */
  contextLines?: number | null;
  /** The row's chunk scheme; absent means the current one (drafts at ingest). */
  scheme?: number;
}

export interface JoinChunk extends JoinUnit {
  parentId: string | null;
}

const exact = (u: JoinUnit) => (u.scheme ?? EXACT_SCHEME) >= EXACT_SCHEME && typeof u.contextLines === "number";

/** A section's text: its units' own texts, after the table header a continued section repeats. */
export function joinParent(units: JoinUnit[]): string {
  if (!units.every(exact)) return legacyJoinParent(units);
  return (units.length ? carriedHeader(units[0]!) : "") + units.map((u) => ownText(u.text, u.contextLines!)).join("");
}

/** A document's text: its units' own texts, in order (the converted document itself). */
export function joinDocument(chunks: JoinChunk[]): string {
  if (!chunks.every(exact)) return legacyJoinDocument(chunks);
  return chunks.map((c) => ownText(c.text, c.contextLines!)).join("");
}

/** The table header a unit repeats as its last context lines, when its own text opens with the table's rows. */
function carriedHeader(unit: JoinUnit): string {
  const lines = unit.text.split("\n", unit.contextLines! + 1);
  const own = lines[unit.contextLines!] ?? "";
  const context = lines.slice(0, unit.contextLines!);
  // Rows and header are pipe rows, their outer pipes optional (markdown-lines.ts pipeTable).
  if (context.length < 2 || !own.includes("|") || !pipeTable([...context.slice(-2), own])?.header.length) return "";
  return `${context.slice(-2).join("\n")}\n`;
}

/**
 * Whether a section opens with a table's rows and no header: a piece of a
 * table cut at the section cap whose first unit could not repeat the header
 * as context (a header that leaves a unit's vector too little room), so its
 * header is read from the table's start (headerAbove).
 */
export function opensHeaderless(section: string): boolean {
  const [first = "", second = ""] = section.split("\n", 2);
  return first.includes("|") && !TABLE_DELIMITER.test(second) && !TABLE_DELIMITER.test(first);
}

/**
 * The header (its line and the delimiter row, each ending "\n") of the table
 * whose rows run to the end of `before`, the document's text just before a
 * section that opensHeaderless with `firstRow`. "further" when every line of
 * `before` is a row (its start lies earlier still); null when prose comes
 * first, or the lines above are no header of a row like this one.
 */
export function headerAbove(before: string, firstRow: string): string | "further" | null {
  const lines = before.split("\n");
  // `before` ends with its last line's "\n", so the last item is "".
  if (lines.at(-1) === "") lines.pop();
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (TABLE_DELIMITER.test(line)) {
      if (i === 0) return "further";
      const header = [lines[i - 1]!, line];
      return pipeTable([...header, firstRow])?.header.length ? `${header.join("\n")}\n` : null;
    }
    if (!line.includes("|")) return null;
  }
  return "further";
}
