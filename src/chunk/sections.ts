/**
 * Splits a document into sections (the parents a query returns): runs of
 * whole lines, in document order, that together cover every line with text.
 * Each carries its label ladders: the candidate context lines for its units,
 * most informative first and always ending with "". The section's own text
 * keeps its heading, slide marker or timestamp, so the label of its first
 * unit names only what that text does not (a heading's ancestors), and the
 * later units repeat the whole label.
 */
import { DocText, type Span } from "./doc-text.ts";
import type { Category } from "../text/markdown-summary.ts";
import { isNavigation } from "../text/link-share.ts";
import { outline } from "../text/contents-share.ts";
import { ATX_HEADING, SLIDE_MARKER, TRANSCRIPT_WINDOW_SECONDS, cleanHeading, fencedLines, timestampSeconds } from "../text/markdown-lines.ts";

export interface Section extends Span {
  /** Labels for the units after the section's first. */
  ladder: string[];
  /** Labels for its first unit. */
  firstLadder: string[];
}

/** A run of lines, [from, to), before it is trimmed to its text. */
interface LineGroup {
  from: number;
  ladder: string[];
  firstLadder: string[];
}

const NO_LABEL = [""];

export function splitSections(doc: DocText, category: Category, title: string): Section[] {
  const groups =
    category === "transcript"
      ? transcriptGroups(doc, title)
      : category === "slides"
        ? slideGroups(doc)
        : category === "headings"
          ? headingGroups(doc)
          : genericGroups(doc);
  const sections: Section[] = [];
  groups.forEach((group, i) => {
    const to = i + 1 < groups.length ? groups[i + 1]!.from : doc.lineCount;
    const span = doc.trim({ start: doc.lineStarts[group.from]!, end: doc.lineEnd(to - 1) });
    if (span.end > span.start) sections.push({ ...span, ladder: group.ladder, firstLadder: group.firstLadder });
  });
  return joinWordless(doc, sections);
}

/**
 * A section without a letter or digit (`.`, `* * *`, a rule) joins the one
 * before it, or the one after when it comes first: alone it would be a unit
 * no question can match, yet one that ranks for anything.
 */
function joinWordless(doc: DocText, sections: Section[]): Section[] {
  const out: Section[] = [];
  let carried: number | null = null;
  for (const section of sections) {
    if (!doc.hasWords(section)) {
      if (out.length) out[out.length - 1]!.end = section.end;
      else carried ??= section.start;
      continue;
    }
    out.push(carried === null ? section : { ...section, start: carried });
    carried = null;
  }
  // Nothing but wordless text: it stays, as one section, so no line is lost.
  if (out.length === 0 && sections.length) out.push({ ...sections[0]!, end: sections.at(-1)!.end });
  return out;
}

function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/**
 * Turns go into 120-second windows by start time, a window per run of turns:
 * a late turn that falls in an earlier window starts a section of its own
 * with that window's label, so the sections stay in document order.
 */
function transcriptGroups(doc: DocText, title: string): LineGroup[] {
  const groups: LineGroup[] = [{ from: 0, ladder: NO_LABEL, firstLadder: NO_LABEL }];
  let window = -1;
  for (let i = 0; i < doc.lineCount; i++) {
    const seconds = timestampSeconds(doc.line(i));
    if (seconds === null) continue;
    const start = Math.floor(seconds / TRANSCRIPT_WINDOW_SECONDS) * TRANSCRIPT_WINDOW_SECONDS;
    if (start === window) continue;
    window = start;
    const label = `[${clock(start)}–${clock(start + TRANSCRIPT_WINDOW_SECONDS)}]`;
    const ladder = title.trim() ? [`${label} ${title.trim()}`, label, ""] : [label, ""];
    groups.push({ from: i, ladder, firstLadder: ladder });
  }
  return groups;
}

/** A section per slide, from its marker; the marker's number is its label. */
function slideGroups(doc: DocText): LineGroup[] {
  const groups: LineGroup[] = [{ from: 0, ladder: NO_LABEL, firstLadder: NO_LABEL }];
  for (let i = 0; i < doc.lineCount; i++) {
    const m = SLIDE_MARKER.exec(doc.line(i));
    if (m) groups.push({ from: i, ladder: [`[Slide ${m[1]}]`, ""], firstLadder: [`[Slide ${m[1]}]`, ""] });
  }
  return groups;
}

/** Full chain, then first + … + last k (k = n-2 … 1), then the last heading, then "". */
export function breadcrumbLadder(chain: string[]): string[] {
  const rungs: string[] = [];
  if (chain.length > 0) {
    rungs.push(chain.join(" > "));
    for (let k = chain.length - 2; k >= 1; k--) rungs.push([chain[0]!, "…", ...chain.slice(-k)].join(" > "));
    rungs.push(chain[chain.length - 1]!);
  }
  rungs.push("");
  return [...new Set(rungs)];
}

interface Heading {
  line: number;
  level: number;
  /** The cleaned heading texts from the top level down to this one. */
  chain: string[];
  /** The chain without this heading. */
  ancestors: string[];
  /** No text between this heading and the next. */
  empty: boolean;
}

/**
 * A section per heading with text under it. A heading with nothing under it
 * but a child heading opens its child's section (its words are in the
 * child's breadcrumbs too); one with no child is a section of its own, so
 * its words are stored all the same.
 */
function headingGroups(doc: DocText): LineGroup[] {
  const lines = Array.from({ length: doc.lineCount }, (_, i) => doc.line(i));
  const fenced = fencedLines(lines);
  const headings: Heading[] = [];
  const stack: { level: number; text: string }[] = [];
  lines.forEach((line, i) => {
    const m = fenced[i] ? null : ATX_HEADING.exec(line);
    if (!m) {
      if (line.trim() && headings.length) headings[headings.length - 1]!.empty = false;
      return;
    }
    const level = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    const ancestors = stack.map((s) => s.text).filter(Boolean);
    const text = cleanHeading(m[2] ?? "");
    stack.push({ level, text });
    headings.push({ line: i, level, chain: text ? [...ancestors, text] : ancestors, ancestors, empty: true });
  });
  const groups: LineGroup[] = [{ from: 0, ladder: NO_LABEL, firstLadder: NO_LABEL }];
  let opener: Heading | null = null;
  headings.forEach((heading, k) => {
    opener ??= heading;
    const next = headings[k + 1];
    if (heading.empty && next !== undefined && next.level > heading.level) return;
    const chain = heading.empty ? heading.ancestors : heading.chain;
    groups.push({ from: opener.line, ladder: breadcrumbLadder(chain), firstLadder: breadcrumbLadder(opener.ancestors) });
    opener = null;
  });
  return groups;
}

/** The longest block read as a plain-text heading: two lines of a wrapped title, never a paragraph. */
const OUTLINE_HEADING_LINES = 2;
const OUTLINE_HEADING_CHARS = 200;
/** Outline headings of two levels or more a document needs before its blocks are grouped under them. */
const MIN_OUTLINE_HEADINGS = 2;

interface Block {
  start: number;
  end: number;
}

/** The outline number of a block that is a plain-text heading (a line or two opening with one: `6.2.2. Where do these codenames come from?`), else null. */
function headingNumber(doc: DocText, lines: string[], block: Block): string | null {
  if (block.end - block.start > OUTLINE_HEADING_LINES) return null;
  if (doc.lineEnd(block.end - 1) - doc.lineStarts[block.start]! > OUTLINE_HEADING_CHARS) return null;
  return ATX_HEADING.test(lines[block.start]!) ? null : (outline(lines[block.start]!)?.number ?? null);
}

/**
 * One section per block: blank-line separated, closed fences whole, a heading
 * glued to what follows. Blocks that are mostly links, one after another, are
 * one section: a contents page converted from HTML is a block per entry, and
 * an entry alone, a heading's words and nothing else, matched the question
 * its page answers better than the page (text/link-share.ts). Together they
 * read as the list they are, as they already do under a heading.
 *
 * A plain-text book numbers its headings instead of marking them
 * (`6.2.2. Where do these codenames come from?`). In a document with at
 * least two such headings of two levels or more, each opens a section that
 * runs to the next one, as an ATX heading's does: alone, the heading was a
 * section of its own words and each paragraph under it another, so a
 * question matched the heading and got no answer back (the Debian FAQ as
 * text: `bun run bench --navigation`, docs/search.md).
 */
function genericGroups(doc: DocText): LineGroup[] {
  const lines = Array.from({ length: doc.lineCount }, (_, i) => doc.line(i));
  const fenced = fencedLines(lines);
  const blocks: Block[] = [];
  let blockStart = -1;
  for (let i = 0; i <= lines.length; i++) {
    const blank = i === lines.length || (!fenced[i] && !lines[i]!.trim());
    if (!blank) {
      if (blockStart < 0) blockStart = i;
      continue;
    }
    if (blockStart >= 0) blocks.push({ start: blockStart, end: i });
    blockStart = -1;
  }
  const numbers = blocks.map((block) => headingNumber(doc, lines, block));
  const outlined = numbers.filter((n) => n?.includes(".")).length >= MIN_OUTLINE_HEADINGS;
  // The next block is an outline heading numbered under this one's number, or not an outline heading at all (its text).
  const childFollows = (k: number) => k + 1 < blocks.length && (numbers[k + 1] === null || numbers[k + 1]!.startsWith(`${numbers[k]}.`));
  const groups: LineGroup[] = [{ from: 0, ladder: NO_LABEL, firstLadder: NO_LABEL }];
  let headingOpen = false;
  let linksOpen = false;
  let underOutline = false;
  let outlineOpen = false;
  blocks.forEach((block, k) => {
    const links = isNavigation(doc.slice({ start: doc.lineStarts[block.start]!, end: doc.lineEnd(block.end - 1) }));
    const atx = block.end - block.start === 1 && ATX_HEADING.test(lines[block.start]!);
    const outlineHeading = outlined && numbers[k] !== null;
    // A block is a new section unless a heading before it is waiting for it (an outline heading as well: its
    // child, or the next entry of contents set a line apart), it goes on a run of links, or it is text under an
    // outline heading.
    const joins = headingOpen || outlineOpen || (links && linksOpen) || (underOutline && !outlineHeading && !atx);
    if (!joins && block.start > 0) groups.push({ from: block.start, ladder: NO_LABEL, firstLadder: NO_LABEL });
    headingOpen = atx;
    linksOpen = links;
    // A heading waits for the block after it only when that is its child (`6.` then `6.1.`): siblings one after
    // another are clauses of a contract or entries of a list, each a section (a reviewer's contract became one).
    outlineOpen = outlineHeading && childFollows(k);
    underOutline = outlineHeading || (underOutline && !atx);
  });
  return groups;
}
