/** Line-level Markdown facts the converters, the title and the chunker share: fences, headings, table rows, timestamps, slide markers. */

export const FENCE = /^ {0,3}(`{3,}|~{3,})/;
export const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
export const SLIDE_MARKER = /^\s*<!--\s*Slide number:\s*(\d+)\s*-->\s*$/i;
export const TABLE_ROW = /^\s*\|.*\|\s*$/;
export const TABLE_DELIMITER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
/** An optional **speaker** (1-80 chars), then M:SS, MM:SS or H:MM:SS, alone on its line. */
export const TIMESTAMP_LINE = /^\s*(?:\*\*([^*\n]{1,80})\*\*\s+)?(?:(\d):([0-5]\d):([0-5]\d)|(\d{1,2}):([0-5]\d))\s*$/;
/** A transcript is sectioned in windows of this many seconds (chunk/sections.ts), and the VTT converter starts a new turn at each window, so no turn straddles two sections. */
export const TRANSCRIPT_WINDOW_SECONDS = 120;

/** Whether a line whose FENCE match is `marker` closes a fence opened with `opening`: the same character, at least as long, alone on its line. */
export function closesFence(line: string, marker: string | undefined, opening: string): boolean {
  return marker !== undefined && marker[0] === opening[0] && marker.length >= opening.length && line.trim() === marker;
}

/** For each line, whether it sits inside a closed fenced code block (fence lines included). */
export function fencedLines(lines: string[]): boolean[] {
  const inside = new Array<boolean>(lines.length).fill(false);
  let open = -1;
  let marker = "";
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (open < 0) {
      if (m) {
        open = i;
        marker = m[1]!;
      }
    } else if (closesFence(lines[i]!, m?.[1], marker)) {
      for (let j = open; j <= i; j++) inside[j] = true;
      open = -1;
    }
  }
  // An unclosed fence is prose: its lines stay outside.
  return inside;
}

/** Seconds of a timestamp line, or null when the line is not one. */
export function timestampSeconds(line: string): number | null {
  const m = TIMESTAMP_LINE.exec(line);
  if (!m) return null;
  if (m[2] !== undefined) return Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  return Number(m[5]) * 60 + Number(m[6]);
}

/** Heading text with emphasis markers removed and whitespace collapsed. */
export function cleanHeading(text: string): string {
  return text
    .replace(/\s+#+\s*$/, "")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function isTableRow(line: string): boolean {
  return TABLE_ROW.test(line);
}

/** A row's cells: split at pipes not escaped, the outer pipes optional. */
function cellCount(line: string): number {
  return line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "").split(/(?<!\\)\|/).length;
}

/** A blockquote's markers at a line's start: `> `, `>> `, `> > `. */
const QUOTE_MARKERS = /^(?: {0,3}>[ \t]?)+/;

/**
 * The lines without the blockquote markers they all open with, when they all
 * open with the same number of them; else the lines as they are. A table set
 * in a blockquote (`> | a | b |`) is a table to every rule here, its header
 * kept with its markers where it is repeated (found by a probe: such a table
 * was cut at rows with no header repeated).
 */
export function unquoted(lines: string[]): string[] {
  const first = QUOTE_MARKERS.exec(lines[0] ?? "")?.[0];
  if (!first) return lines;
  const depth = (marker: string) => marker.split(">").length - 1;
  const level = depth(first);
  const out: string[] = [];
  for (const line of lines) {
    const marker = QUOTE_MARKERS.exec(line)?.[0];
    if (!marker || depth(marker) !== level) return lines;
    out.push(line.slice(marker.length));
  }
  return out;
}

/**
 * The lines of one paragraph as a pipe table, with its two header lines
 * (empty when it has none), or null when they are not one. Either every line
 * is a row with outer pipes, the header there when line 2 is a delimiter; or,
 * as GitHub's Markdown allows, the outer pipes are left out: a header and a
 * delimiter row with as many cells, then rows, each line with a pipe.
 * A header with no rows under it is content, not a header.
 */
export function pipeTable(quoted: string[]): { header: string[] } | null {
  const header = (n: number) => quoted.slice(0, n);
  const lines = unquoted(quoted);
  const delimited = lines.length > 2 && TABLE_DELIMITER.test(lines[1]!);
  if (lines.every(isTableRow)) return { header: header(delimited ? 2 : 0) };
  if (!delimited || !lines.every((l) => l.includes("|")) || cellCount(lines[0]!) !== cellCount(lines[1]!)) return null;
  return { header: header(2) };
}

/** A pipe table among a paragraph's lines: lines from..to (to excluded), its header the first two, or none. */
export interface TableRun {
  from: number;
  to: number;
  header: string[];
}

/**
 * The pipe tables among the lines of one paragraph (no blank line between
 * them); lines outside the runs are prose. A paragraph that is a table
 * throughout is one run (pipeTable). Otherwise a table starts at a header
 * over a delimiter row with as many cells, both holding a pipe, and runs
 * while lines hold one: an intro line just above it ("Results:") or a line of
 * prose just after it stays prose, where it used to make the whole paragraph
 * prose, cut between words in the middle of its rows. With carriedHeader,
 * rows at the very start go on with the table that header began, as a run
 * with no header of its own.
 */
export function tableRuns(quoted: string[], carriedHeader: string[] | null = null): TableRun[] {
  const whole = pipeTable(quoted);
  if (whole) return [{ from: 0, to: quoted.length, header: whole.header }];
  const lines = unquoted(quoted);
  const runs: TableRun[] = [];
  const rowsFrom = (at: number) => {
    let end = at;
    while (end < lines.length && lines[end]!.includes("|")) end++;
    return end;
  };
  let i = 0;
  if (carriedHeader?.length) {
    const end = rowsFrom(0);
    if (end > 0 && pipeTable([...carriedHeader, ...quoted.slice(0, end)])) {
      runs.push({ from: 0, to: end, header: [] });
      i = end;
    }
  }
  while (i + 2 < lines.length) {
    const head = lines[i]!;
    const delimiter = lines[i + 1]!;
    const end = head.includes("|") && delimiter.includes("|") && TABLE_DELIMITER.test(delimiter) && cellCount(head) === cellCount(delimiter) ? rowsFrom(i + 2) : i + 2;
    if (end > i + 2) {
      runs.push({ from: i, to: end, header: quoted.slice(i, i + 2) });
      i = end;
    } else i++;
  }
  return runs;
}
