/**
 * The vectors already stored for some sources, found by chunk text: what a
 * re-ingest of an edited document keeps instead of embedding its unchanged
 * chunks again. The table holds one model's vectors (checkModel refuses a
 * write under another), and the model's input for a passage is its prefix and
 * the chunk's text, so equal text means an equal vector. Rows stored in
 * keyword-only mode carry placeholder zeros and are left out. Each read goes
 * through the store's open(), so during a staged write (staged-source.ts) it
 * sees the version from before that write: the document's old chunks only.
 */
import type { Table } from "@lancedb/lancedb";
import { sqlString } from "./chunk-row.ts";
import { hasPendingColumn } from "./pending-vectors.ts";
import type { TableView } from "./table-view.ts";

/** Rows of these sources that hold a real vector. */
async function withVectors(table: Table, sources: string[]): Promise<string> {
  const pending = hasPendingColumn(await table.schema()) ? " AND vector_pending = false" : "";
  return `source IN (${sources.map(sqlString).join(", ")})${pending}`;
}

/** Every stored vector of the sources, by text: for documents small enough to hold whole. */
export async function storedVectorsByText(store: TableView, sources: string[], dimensions: number): Promise<Map<string, Float32Array>> {
  const table = await store.open();
  if (!table || sources.length === 0) return new Map();
  const arrow = await table
    .query()
    .where(await withVectors(table, sources))
    .select(["text", "vector"])
    .toArrow();
  return vectorsOf(arrow, dimensions);
}

/** A 53-bit hash of a chunk text, a Map key that costs no string. */
export function textKey(text: string): number {
  return Number(BigInt.asUintN(53, BigInt(Bun.hash(text))));
}

/**
 * For a document too large to hold whole: the key of each stored chunk text
 * with the id of a row that holds it, read batch by batch, so the text itself
 * is never kept (about 100 bytes a chunk instead of the chunk and its vector).
 */
export async function storedTextIds(store: TableView, source: string): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  const table = await store.open();
  if (!table) return ids;
  const query = table
    .query()
    .where(await withVectors(table, [source]))
    .select(["id", "text"]);
  for await (const batch of query) {
    const idColumn = batch.getChild("id")!;
    const textColumn = batch.getChild("text")!;
    for (let i = 0; i < batch.numRows; i++) ids.set(textKey(textColumn.get(i) as string), idColumn.get(i) as string);
  }
  return ids;
}

/** The vectors of rows by id, by text; the text is read back and compared, so a colliding key never hands over another chunk's vector. */
export async function vectorsByIds(store: TableView, ids: string[], dimensions: number): Promise<Map<string, Float32Array>> {
  const table = await store.open();
  if (!table || ids.length === 0) return new Map();
  const arrow = await table
    .query()
    .where(`id IN (${ids.map(sqlString).join(", ")})`)
    .select(["text", "vector"])
    .toArrow();
  return vectorsOf(arrow, dimensions);
}

function vectorsOf(arrow: { numRows: number; getChild(name: string): { get(i: number): unknown } | null }, dimensions: number): Map<string, Float32Array> {
  const vectors = new Map<string, Float32Array>();
  const texts = arrow.getChild("text")!;
  const column = arrow.getChild("vector")!;
  for (let i = 0; i < arrow.numRows; i++) {
    const vector = (column.get(i) as { toArray(): Float32Array } | null)?.toArray();
    // A copy: the view would keep the whole Arrow batch alive for as long as one row holds it.
    if (vector?.length === dimensions) vectors.set(texts.get(i) as string, Float32Array.from(vector));
  }
  return vectors;
}
