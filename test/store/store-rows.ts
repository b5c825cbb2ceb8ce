/** Chunk rows for store tests that need tables of known shape without converting or embedding anything. */
import { CHUNK_SCHEME } from "../../src/config/defaults.ts";
import type { ChunkRow, SourceType } from "../../src/store/chunk-row.ts";

/** Chunk `i` of `source`, with a 32-wide vector and the text given (or one naming the chunk). */
export function storeRow(source: string, i: number, text = `chunk ${i} of ${source}`, sourceType: SourceType = "data"): ChunkRow {
  return {
    id: `${source}#${i}`,
    source,
    source_type: sourceType,
    title: source,
    chunk_index: i,
    parent_id: `${source}#p0`,
    text,
    vector: new Float32Array(32).fill((i % 7) + 1),
    scheme: CHUNK_SCHEME,
    content_hash: "h",
    mtime: 0,
    file_size: 1,
    ingested_at: "2026-12-02T00:00:00Z",
    ocr_engine: "",
  };
}
