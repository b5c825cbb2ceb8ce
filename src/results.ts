/**
 * The result types that reading and searching both return, kept below both
 * so neither has to import the other.
 */
import type { ChunkRow } from "./store/chunk-row.ts";

export interface ChunkResult {
  text: string;
  source: string;
  title: string;
  chunkIndex: number;
  score: number;
  distance: number | null;
  parentId: string | null;
  /** A PDF chunk's pages, "12" or "12-13"; present only where they are certain. */
  pages?: string;
}

export function toChunkResult(row: Pick<ChunkRow, "text" | "source" | "title" | "chunk_index" | "parent_id" | "pages">, score: number, distance: number | null): ChunkResult {
  const result: ChunkResult = { text: row.text, source: row.source, title: row.title, chunkIndex: row.chunk_index, score, distance, parentId: row.parent_id ?? null };
  if (row.pages) result.pages = row.pages;
  return result;
}
