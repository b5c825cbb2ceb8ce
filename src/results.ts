/**
 * The result types that reading and searching both return, kept below both
 * so neither has to import the other.
 */
import type { Hit } from "./store/chunk-store.ts";

export interface ChunkResult {
  text: string;
  source: string;
  title: string;
  chunkIndex: number;
  score: number;
  distance: number | null;
  parentId: string | null;
}

export function toChunkResult(row: Hit, score: number, distance: number | null): ChunkResult {
  return { text: row.text, source: row.source, title: row.title, chunkIndex: row.chunk_index, score, distance, parentId: row.parent_id ?? null };
}
