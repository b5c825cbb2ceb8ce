/** One line per indexed source, folded from its chunk rows, with a check that its chunks form one whole set. */
import type { ChunkRow } from "./chunk-row.ts";

export interface SourceSummary {
  source: string;
  sourceType: ChunkRow["source_type"];
  title: string;
  chunkCount: number;
  contentHash: string;
  mtime: number;
  fileSize: number;
  minScheme: number;
  ocrEngine: string;
  /**
   * True when the rows are not exactly chunks 0..n-1 once each: two writers
   * that stored the same new file at the same moment leave both sets, which
   * no commit conflict catches. Sync re-ingests such a source.
   */
  damaged: boolean;
}

export type SummaryRow = Pick<ChunkRow, "source" | "source_type" | "title" | "content_hash" | "mtime" | "file_size" | "scheme" | "ocr_engine" | "chunk_index">;

export function summariseSources(rows: Iterable<SummaryRow>): SourceSummary[] {
  const bySource = new Map<string, SourceSummary & { indexes: Set<number>; maxIndex: number }>();
  for (const r of rows) {
    const s = bySource.get(r.source);
    if (s) {
      s.chunkCount++;
      s.minScheme = Math.min(s.minScheme, r.scheme);
      s.indexes.add(r.chunk_index);
      s.maxIndex = Math.max(s.maxIndex, r.chunk_index);
      continue;
    }
    bySource.set(r.source, {
      source: r.source,
      sourceType: r.source_type,
      title: r.title,
      chunkCount: 1,
      contentHash: r.content_hash,
      mtime: r.mtime,
      fileSize: r.file_size,
      minScheme: r.scheme,
      ocrEngine: r.ocr_engine,
      damaged: false,
      indexes: new Set([r.chunk_index]),
      maxIndex: r.chunk_index,
    });
  }
  return [...bySource.values()]
    .map(({ indexes, maxIndex, ...s }) => ({ ...s, damaged: indexes.size !== s.chunkCount || maxIndex + 1 !== s.chunkCount }))
    .sort((a, b) => (a.source < b.source ? -1 : 1));
}
