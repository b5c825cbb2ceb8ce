/**
 * Splits a document into sections (the parents a query returns), each with
 * its prefix ladder: the candidate context lines for its chunks, most
 * informative first and always ending with "".
 */
import type { Category } from "./markdown-summary.ts";
import { ATX_HEADING, SLIDE_MARKER, cleanHeading, fencedLines, timestampSeconds } from "./markdown-lines.ts";

export interface Section {
  ladder: string[];
  body: string;
}

export const TRANSCRIPT_WINDOW_SECONDS = 120;

export function splitSections(markdown: string, category: Category, title: string): Section[] {
  const lines = markdown.split("\n");
  const sections =
    category === "transcript"
      ? transcriptSections(lines, title)
      : category === "slides"
        ? slideSections(lines)
        : category === "headings"
          ? headingSections(lines)
          : genericSections(lines);
  return sections.filter((s) => s.body.trim());
}

function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** Turns go into 120-second windows by start time; a late turn joins its earlier window. */
function transcriptSections(lines: string[], title: string): Section[] {
  const preamble: string[] = [];
  const windows = new Map<number, string[][]>();
  let turn: string[] | null = null;
  for (const line of lines) {
    const seconds = timestampSeconds(line);
    if (seconds === null) {
      (turn ?? preamble).push(line);
      continue;
    }
    const start = Math.floor(seconds / TRANSCRIPT_WINDOW_SECONDS) * TRANSCRIPT_WINDOW_SECONDS;
    const turns = windows.get(start) ?? [];
    windows.set(start, turns);
    turn = [line];
    turns.push(turn);
  }
  const sections: Section[] = [];
  if (preamble.join("\n").trim()) sections.push({ ladder: [""], body: preamble.join("\n").trim() });
  for (const [start, turns] of windows) {
    const label = `[${clock(start)}–${clock(start + TRANSCRIPT_WINDOW_SECONDS)}]`;
    const ladder = title.trim() ? [`${label} ${title.trim()}`, label, ""] : [label, ""];
    sections.push({ ladder, body: turns.map((t) => t.join("\n").trim()).join("\n\n") });
  }
  return sections;
}

function slideSections(lines: string[]): Section[] {
  const sections: Section[] = [];
  let ladder = [""];
  let body: string[] = [];
  const flush = () => {
    if (body.join("\n").trim()) sections.push({ ladder, body: body.join("\n").trim() });
    body = [];
  };
  for (const line of lines) {
    const m = SLIDE_MARKER.exec(line);
    if (m) {
      flush();
      ladder = [`[Slide ${m[1]}]`, ""];
    } else body.push(line);
  }
  flush();
  return sections;
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

function headingSections(lines: string[]): Section[] {
  const fenced = fencedLines(lines);
  interface Block {
    level: number;
    text: string;
    chain: string[];
    body: string[];
  }
  const blocks: Block[] = [{ level: 0, text: "", chain: [], body: [] }];
  const stack: { level: number; text: string }[] = [];
  lines.forEach((line, i) => {
    const m = fenced[i] ? null : ATX_HEADING.exec(line);
    if (!m) {
      blocks[blocks.length - 1]!.body.push(line);
      return;
    }
    const level = m[1]!.length;
    const text = cleanHeading(m[2] ?? "");
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text });
    blocks.push({ level, text, chain: stack.map((s) => s.text).filter(Boolean), body: [] });
  });
  const sections: Section[] = [];
  blocks.forEach((block, i) => {
    const body = block.body.join("\n").trim();
    if (body) {
      sections.push({ ladder: breadcrumbLadder(block.chain), body });
      return;
    }
    if (block.level === 0 || !block.text) return;
    const next = blocks[i + 1];
    const hasChild = next !== undefined && next.level > block.level;
    // An empty heading with a child lives on in its children's breadcrumbs;
    // without one it becomes a body of its own so its words reach the index.
    if (!hasChild) sections.push({ ladder: breadcrumbLadder(block.chain.slice(0, -1)), body: block.text });
  });
  return sections;
}

/** One section per block: blank-line separated, closed fences whole, a heading glued to what follows. */
function genericSections(lines: string[]): Section[] {
  const fenced = fencedLines(lines);
  const blocks: string[][] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.some((l) => l.trim())) blocks.push(current);
    current = [];
  };
  lines.forEach((line, i) => {
    if (!fenced[i] && !line.trim()) flush();
    else current.push(line);
  });
  flush();
  const sections: Section[] = [];
  let pendingHeading: string[] | null = null;
  for (const block of blocks) {
    const isHeading = block.length === 1 && ATX_HEADING.test(block[0]!);
    if (isHeading) {
      pendingHeading = pendingHeading ? [...pendingHeading, "", ...block] : block;
      continue;
    }
    const text = (pendingHeading ? [...pendingHeading, "", ...block] : block).join("\n").trim();
    pendingHeading = null;
    sections.push({ ladder: [""], body: text });
  }
  if (pendingHeading) sections.push({ ladder: [""], body: pendingHeading.join("\n").trim() });
  return sections;
}
