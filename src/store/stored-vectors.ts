/**
 * The vectors already stored for some sources, found by chunk text: what a
 * re-ingest of an edited document keeps instead of embedding its unchanged
 * chunks again. Equal text means an equal vector only under the same model
 * (its files, prefixes and pooling), so nothing is reused unless the index
 * records exactly the model in use; an index built before models were
 * recorded re-embeds, as before. Rows stored in keyword-only mode carry
 * placeholder zeros and are left out. Each read goes through the store's
 * open(), so during a staged write (staged-source.ts) it sees the version
 * from before that write: the document's old chunks only.
 */
import type { Table } from "@lancedb/lancedb";
import { HAS_VECTOR, sqlString } from "./chunk-row.ts";
import { readIndexModel, sameModel, type IndexModel } from "./index-identity.ts";
import { hasPendingColumn } from "./pending-vectors.ts";
import type { TableView } from "./table-view.ts";

/** The filter for these sources' rows with real vectors, or null where the index's vectors may not be this model's. */
async function reusableRows(table: Table, sources: string[], model: IndexModel): Promise<string | null> {
  const schema = await table.schema();
  const recorded = readIndexModel(schema);
  if (!recorded || !sameModel(recorded, model)) return null;
  // An index from before keyword-only mode has the column added as NULL on every (embedded) row.
  const pending = hasPendingColumn(schema) ? ` AND ${HAS_VECTOR}` : "";
  return `source IN (${sources.map(sqlString).join(", ")})${pending}`;
}

/**
 * The stored vectors of the sources' chunks whose text is one of `texts`, by
 * text. The rows are read as a stream and only wanted vectors are kept, so a
 * document that shrank below the batched write's size costs one batch's
 * vectors, not its old version's.
 */
export async function storedVectorsFor(store: TableView, sources: string[], texts: string[], model: IndexModel): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  const table = await store.open();
  const filter = table && sources.length > 0 ? await reusableRows(table, sources, model) : null;
  if (!filter) return vectors;
  const wanted = new Set(texts);
  for await (const batch of table!.query().where(filter).select(["text", "vector"])) collectVectors(batch, wanted, model.dimensions, vectors);
  return vectors;
}

/** A 53-bit hash of a chunk text, a Map key that costs no string. */
export function textKey(text: string): number {
  return Number(BigInt.asUintN(53, BigInt(Bun.hash(text))));
}

/**
 * For a document too large to hold whole: the key of each stored chunk text
 * with the id of a row that holds it, read as a stream, so the texts
 * themselves are never kept (a number and an id string a chunk).
 */
export async function storedTextIds(store: TableView, source: string, model: IndexModel): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  const table = await store.open();
  const filter = table ? await reusableRows(table, [source], model) : null;
  if (!filter) return ids;
  for await (const batch of table!.query().where(filter).select(["id", "text"])) {
    const idColumn = batch.getChild("id")!;
    const textColumn = batch.getChild("text")!;
    for (let i = 0; i < batch.numRows; i++) ids.set(textKey(textColumn.get(i) as string), idColumn.get(i) as string);
  }
  return ids;
}

/**
 * The vectors of a source's rows by id, by their text. The text is read back
 * and is what callers look up, so a colliding key never hands over another
 * chunk's vector; the source filter lets its btree narrow the scan.
 */
export async function vectorsByIds(store: TableView, source: string, ids: string[], model: IndexModel): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  const table = await store.open();
  const filter = table && ids.length > 0 ? await reusableRows(table, [source], model) : null;
  if (!filter) return vectors;
  const rows = table!
    .query()
    .where(`${filter} AND id IN (${ids.map(sqlString).join(", ")})`)
    .select(["text", "vector"]);
  for await (const batch of rows) collectVectors(batch, null, model.dimensions, vectors);
  return vectors;
}

type Columns = { numRows: number; getChild(name: string): { get(i: number): unknown } | null };

/** Copies a batch's vectors of the wanted texts (all where `wanted` is null) into `into`, by text. */
function collectVectors(batch: Columns, wanted: Set<string> | null, dimensions: number, into: Map<string, Float32Array>): void {
  const texts = batch.getChild("text")!;
  const column = batch.getChild("vector")!;
  for (let i = 0; i < batch.numRows; i++) {
    const text = texts.get(i) as string;
    if (wanted && !wanted.has(text)) continue;
    const vector = (column.get(i) as { toArray(): Float32Array } | null)?.toArray();
    // A copy: the view would keep the whole Arrow batch alive for as long as one row holds it.
    if (vector?.length === dimensions) into.set(text, Float32Array.from(vector));
  }
}
