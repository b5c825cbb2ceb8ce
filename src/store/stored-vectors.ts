/**
 * The vectors already stored for some sources, keyed by chunk text: what a
 * re-ingest of an edited document keeps instead of embedding its unchanged
 * chunks again. The table holds one model's vectors (checkModel refuses a
 * write under another), and the model's input for a passage is its prefix and
 * the chunk's text, so equal text means an equal vector. Rows stored in
 * keyword-only mode carry placeholder zeros and are left out.
 */
import type { Table } from "@lancedb/lancedb";
import { sqlString } from "./chunk-row.ts";
import { hasPendingColumn } from "./pending-vectors.ts";

export async function storedVectorsByText(table: Table, sources: string[], dimensions: number): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  if (sources.length === 0) return vectors;
  const pendingColumn = hasPendingColumn(await table.schema());
  const arrow = await table
    .query()
    .where(`source IN (${sources.map(sqlString).join(", ")})${pendingColumn ? " AND vector_pending = false" : ""}`)
    .select(["text", "vector"])
    .toArrow();
  const texts = arrow.getChild("text")!;
  const column = arrow.getChild("vector")!;
  for (let i = 0; i < arrow.numRows; i++) {
    const vector = (column.get(i) as { toArray(): Float32Array } | null)?.toArray();
    // A copy: the view would keep the whole Arrow batch alive for as long as one row holds it.
    if (vector?.length === dimensions) vectors.set(texts.get(i) as string, Float32Array.from(vector));
  }
  return vectors;
}
