/**
 * Markdown -> retrieval units and their sections. The title is seeded as a
 * `# Title` line at the top of chunk 0 (unless the first section already
 * carries it), so it reaches that chunk's vector too. It is seeded before
 * packing, so chunk 0 is sized with it and stays within the budget like every
 * other unit; added afterwards it pushed chunk 0 past the model's 128
 * positions, where the tail was cut unseen.
 */
import { capSection } from "./cap-section.ts";
import { detectCategory, type Category } from "./markdown-summary.ts";
import { choosePrefix, packSection } from "./pack-section.ts";
import type { CountTokens } from "./packer.ts";
import { splitSections, type Section } from "./sections.ts";

export interface ChunkDraft {
  text: string;
  chunkIndex: number;
  /** Index of the section this unit was cut from; parents are `<source>#p<n>`. */
  parentIndex: number;
  /** Leading lines of text that repeat context (title seed, breadcrumb, table header, split note); read-back drops them. */
  contextLines: number;
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

interface CappedSection {
  section: Section;
  /** A later piece of a section cut at the character cap. */
  continued: boolean;
  carriedHeader: boolean;
}

export function chunkDocument(markdown: string, options: ChunkOptions): ChunkedDocument {
  const { budget, count } = options;
  const normalized = markdown.replace(/\r\n?/g, "\n");
  const category = options.category ?? detectCategory(normalized);
  const sections: CappedSection[] = splitSections(normalized, category, options.title).flatMap((s) =>
    capSection(s.body).map((piece, i) => ({ section: { ...s, body: piece.body }, continued: i > 0, carriedHeader: piece.carriedHeader })),
  );
  const title = options.title.trim();
  let seed = options.seedTitle && title !== "";
  if (seed && sections.length === 0) {
    // Nothing else to index: the title is the document's only text.
    sections.push({ section: { ladder: [""], body: `# ${title}` }, continued: false, carriedHeader: false });
    seed = false;
  } else if (seed) {
    const first = sections[0]!.section;
    seed = !first.body.includes(title) && !choosePrefix(first.ladder, budget, count).includes(title);
  }
  const chunks: ChunkDraft[] = [];
  sections.forEach(({ section, continued, carriedHeader }, parentIndex) => {
    const titleLine = seed && parentIndex === 0 ? `# ${title.replace(/\s+/g, " ")}` : undefined;
    const { units } = packSection(section, budget, count, { seed: titleLine, continued, carriedHeader });
    for (const unit of units) chunks.push({ text: unit.text, chunkIndex: chunks.length, parentIndex, contextLines: unit.contextLines });
  });
  return { category, chunks };
}
