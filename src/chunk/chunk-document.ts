/**
 * Markdown -> retrieval units and their sections. Each unit's text is a few
 * lines of context for its vector followed by its own text: a slice of the
 * document, so the units' own texts, in order, are the document byte for
 * byte (each runs up to where the next starts, the whitespace between
 * included, and the first from the document's start). The title is seeded as
 * a `# Title` context line at the top of chunk 0 (unless the first section
 * already carries it), before packing, so chunk 0 is sized with it.
 */
import { countWithLongRuns } from "../embed/long-runs.ts";
import { capSection } from "./cap-section.ts";
import { DocText, type Span } from "./doc-text.ts";
import { detectCategory, type Category } from "../text/markdown-summary.ts";
import { choosePrefix, packSection } from "./pack-section.ts";
import type { CountTokens, PackedUnit } from "./packer.ts";
import { splitSections } from "./sections.ts";
import { inSlices, runToEnd, type Slices } from "../slices.ts";

export interface ChunkDraft {
  text: string;
  chunkIndex: number;
  /** Index of the section this unit was cut from; parents are `<source>#p<n>`. */
  parentIndex: number;
  /** Leading lines of text that repeat context (title seed, label, table header, split note); read-back drops them. */
  contextLines: number;
  /** Where the unit's own text lies in the document, whitespace around it left out; absent on a unit that is all context. */
  span?: Span;
}

export interface ChunkOptions {
  title: string;
  seedTitle: boolean;
  budget: number;
  count: CountTokens;
  /** The whole document's category, when this is one window of it (chunk-windows.ts). */
  category?: Category;
}

export interface ChunkedDocument {
  category: Category;
  chunks: ChunkDraft[];
}

/** Line breaks as the chunker and every reader of the index see them: `\r\n` and `\r` become `\n`. */
export function normalizeLineBreaks(markdown: string): string {
  return markdown.includes("\r") ? markdown.replace(/\r\n?/g, "\n") : markdown;
}

export function chunkDocument(markdown: string, options: ChunkOptions): ChunkedDocument {
  return runToEnd(chunkSteps(markdown, options));
}

/** chunkDocument in slices (slices.ts): the same chunks, with the event loop turning between sections. */
export function chunkDocumentInSlices(markdown: string, options: ChunkOptions, work?: Slices): Promise<ChunkedDocument> {
  return inSlices(chunkSteps(markdown, options), work);
}

/** The chunking, yielding after each section is packed (packing counts tokens: about 0.5 ms a section with a 250k-word vocabulary). */
function* chunkSteps(markdown: string, options: ChunkOptions): Generator<void, ChunkedDocument> {
  const { budget } = options;
  // Runs without spaces are sized by their length, as the model reads only their head (embed/long-runs.ts).
  const count = countWithLongRuns(options.count);
  const doc = new DocText(normalizeLineBreaks(markdown));
  const category = options.category ?? detectCategory(doc.text);
  // Each piece of a section cut at the cap is a parent of its own, as in the reference.
  const pieces = splitSections(doc, category, options.title).flatMap((section) =>
    capSection(doc, section).map((piece, i) => ({ ...piece, ladder: section.ladder, firstLadder: section.firstLadder, continued: i > 0 })),
  );
  const title = options.title.trim().replace(/\s+/g, " ");
  if (pieces.length === 0) {
    // Nothing but whitespace: the title, as context, is the document's only text.
    if (!options.seedTitle || title === "") return { category, chunks: [] };
    return { category, chunks: [{ text: `# ${title}\n${doc.text}`, chunkIndex: 0, parentIndex: 0, contextLines: 1 }] };
  }
  const first = pieces[0]!;
  const seed = options.seedTitle && title !== "" && !doc.slice(first).includes(title) && !choosePrefix(first.firstLadder, budget, count).includes(title);
  const units: (PackedUnit & { parentIndex: number })[] = [];
  for (const [parentIndex, piece] of pieces.entries()) {
    const packed = packSection(doc, piece, budget, count, { seed: seed && parentIndex === 0 ? `# ${title}` : undefined, continued: piece.continued, opensDocument: parentIndex === 0 });
    for (const unit of packed) units.push({ ...unit, parentIndex });
    yield;
  }
  return { category, chunks: partition(doc, units) };
}

/** The drafts: each unit's own text runs from its start (the first unit's from 0) to the next unit's start. */
function partition(doc: DocText, units: (PackedUnit & { parentIndex: number })[]): ChunkDraft[] {
  // Where the next unit with own text starts, for each unit (the end of the document after the last).
  const nextStart: number[] = new Array(units.length);
  for (let i = units.length - 1, next = doc.text.length; i >= 0; i--) {
    nextStart[i] = next;
    next = units[i]!.own?.start ?? next;
  }
  let firstOwn = true;
  return units.map((unit, i) => {
    let own = "";
    if (unit.own) {
      own = doc.text.slice(firstOwn ? 0 : unit.own.start, nextStart[i]);
      firstOwn = false;
    }
    // A unit of context alone (pieces of a very long seeded title) is just its lines.
    const text = unit.own ? (unit.context.length ? `${unit.context.join("\n")}\n${own}` : own) : unit.context.join("\n");
    const draft: ChunkDraft = { text, chunkIndex: i, parentIndex: unit.parentIndex, contextLines: unit.context.length };
    if (unit.own) draft.span = doc.trim(unit.own);
    return draft;
  });
}
