/**
 * Markdown -> retrieval units and their sections. The title is seeded as a
 * `# Title` line into the first section (unless it already appears there),
 * so it reaches the vector of chunk 0 as well as the keyword index.
 */
import { capSection } from "./cap-section.ts";
import { detectCategory, type Category } from "./detect-category.ts";
import { packSection, type CountTokens } from "./pack-section.ts";
import { splitSections, type Section } from "./sections.ts";

export interface ChunkDraft {
  text: string;
  chunkIndex: number;
  /** Index of the section this unit was cut from; parents are `<source>#p<n>`. */
  parentIndex: number;
}

export interface ChunkOptions {
  title: string;
  seedTitle: boolean;
  budget: number;
  count: CountTokens;
}

export interface ChunkedDocument {
  category: Category;
  chunks: ChunkDraft[];
}

export function chunkDocument(markdown: string, options: ChunkOptions): ChunkedDocument {
  const normalized = markdown.replace(/\r\n?/g, "\n");
  const category = detectCategory(normalized);
  const sections: Section[] = splitSections(normalized, category, options.title).flatMap((s) =>
    capSection(s.body).map((body) => ({ ...s, body })),
  );
  const title = options.title.trim();
  if (options.seedTitle && title) {
    const first = sections[0];
    if (!first) sections.push({ ladder: [""], body: `# ${title}` });
    else if (!first.body.includes(title) && !first.ladder[0]!.includes(title)) first.body = `# ${title}\n\n${first.body}`;
  }
  const chunks: ChunkDraft[] = [];
  sections.forEach((section, parentIndex) => {
    for (const text of packSection(section, options.budget, options.count)) {
      chunks.push({ text, chunkIndex: chunks.length, parentIndex });
    }
  });
  return { category, chunks };
}
