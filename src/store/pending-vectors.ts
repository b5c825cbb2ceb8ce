/**
 * Rows stored in keyword-only mode (no model could load) carry a vector of
 * zeros and vector_pending = true. Vector search leaves them out, keyword
 * search finds them as any other row, and a later sync with a model writes
 * their vectors in place: a merge of just id, vector and vector_pending, so
 * nothing else about the row (text, ids, signature) changes and no file is
 * read again.
 */
import type { Table } from "@lancedb/lancedb";
import { Bool, Field, FixedSizeList, Float32, Schema, Utf8 } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import { sqlString } from "./chunk-row.ts";

export const PENDING = "vector_pending = true";

/** A row that waits for its vector: what embedding it needs. */
export interface PendingChunk {
  id: string;
  source: string;
  sourceType: string;
  chunkIndex: number;
  text: string;
}

export function hasPendingColumn(schema: { fields: { name: string }[] }): boolean {
  return schema.fields.some((f) => f.name === "vector_pending");
}

export async function countPending(table: Table): Promise<number> {
  return hasPendingColumn(await table.schema()) ? table.countRows(PENDING) : 0;
}

/** Sources with rows waiting for vectors, each with how many. */
export async function pendingSources(table: Table): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!hasPendingColumn(await table.schema())) return counts;
  const arrow = await table.query().where(PENDING).select(["source"]).toArrow();
  const column = arrow.getChild("source")!;
  for (let i = 0; i < arrow.numRows; i++) {
    const source = column.get(i) as string;
    counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  return counts;
}

/** The waiting rows of some sources; with `limit`, at most that many (rows given vectors meanwhile no longer wait, so asking again reads the next ones). */
export async function pendingChunks(table: Table, sources: string[], limit?: number): Promise<PendingChunk[]> {
  if (sources.length === 0) return [];
  let query = table
    .query()
    .where(`${PENDING} AND source IN (${sources.map(sqlString).join(", ")})`)
    .select(["id", "source", "source_type", "chunk_index", "text"]);
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.toArray();
  return rows.map((r) => ({ id: r.id, source: r.source, sourceType: r.source_type, chunkIndex: r.chunk_index, text: r.text }));
}

/**
 * Writes vectors into waiting rows, one commit. A row that another writer
 * replaced meanwhile has a new id, so it is not matched and nothing is
 * inserted: a fill can never bring back a chunk a newer write removed.
 */
export async function writeVectors(table: Table, dimensions: number, updates: { id: string; vector: Float32Array }[]): Promise<void> {
  if (updates.length === 0) return;
  const lance = await loadLanceDb();
  const schema = new Schema([
    new Field("id", new Utf8(), false),
    new Field("vector", new FixedSizeList(dimensions, new Field("item", new Float32(), true)), false),
    new Field("vector_pending", new Bool(), true),
  ]);
  const rows = updates.map((u) => ({ id: u.id, vector: Array.from(u.vector), vector_pending: false }));
  await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(rows, { schema }));
}
