/**
 * Markdown -> retrieval units and their sections. The title is seeded as a
 * `# Title` line into chunk 0 (unless the first section already carries it),
 * so it reaches that chunk's vector too. It goes in after chunk 0's prefix,
 * so chunk 0 still starts like its siblings and its section reconstructs;
 * boundaries, ids and counts do not change.
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
  const seed = options.seedTitle && title !== "";
  if (seed && sections.length === 0) sections.push({ ladder: [""], body: `# ${title}` });
  const chunks: ChunkDraft[] = [];
  sections.forEach((section, parentIndex) => {
    const packed = packSection(section, options.budget, options.count);
    packed.units.forEach((text, i) => {
      const first = parentIndex === 0 && i === 0;
      const seeded = first && seed && !section.body.includes(title) && !packed.prefix.includes(title);
      chunks.push({ text: seeded ? withTitle(text, packed.prefix, title) : text, chunkIndex: chunks.length, parentIndex });
    });
  });
  return { category, chunks };
}

function withTitle(text: string, prefix: string, title: string): string {
  return prefix ? `${prefix}\n\n# ${title}\n\n${text.slice(prefix.length + 2)}` : `# ${title}\n\n${text}`;
}
