/**
 * Document vectors live in the chunks table, in the doc_vector column of each
 * source's chunk 0 (null on every other row), like look-alike signatures
 * (signatures.ts): written in the same commit as the document's chunks, moved
 * and deleted with them. The value is the base64 of the vector's float32
 * bytes. A document stored in keyword-only mode, or indexed before the column
 * existed, has none until a sync fills it (ingest/document-openings.ts).
 */
import type { Table } from "@lancedb/lancedb";
import { Field, Schema, Utf8 } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import { chunkSchema, sqlString } from "./chunk-row.ts";
import { ensureColumns } from "./table-upkeep.ts";
import { inLists, readDocumentKeys, utf8Views, type DocumentKey, type KeyedValue } from "./document-keys.ts";

export const DOC_VECTOR_COLUMN = "doc_vector";
const DOC_VECTOR_UPDATE = new Schema([new Field("id", new Utf8(), false), new Field(DOC_VECTOR_COLUMN, new Utf8(), true)]);

export function encodeDocumentVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

/** The stored base64 (as text or its UTF-8 bytes) back as a vector; null for a value that is not one (damaged, or cut). */
export function decodeDocumentVector(stored: string | Uint8Array): Float32Array | null {
  const bytes = Buffer.from(typeof stored === "string" ? stored : Buffer.from(stored).toString("latin1"), "base64");
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  // A copy into a fresh buffer: Buffer.from may hand back a view into a pool at an offset float32 cannot start at.
  return new Float32Array(new Uint8Array(bytes).buffer);
}

async function columnsOf(table: Table): Promise<Set<string>> {
  return new Set((await table.schema()).fields.map((f) => f.name));
}

/** Chunk-0 rows that have a real vector but no document vector: what a sync fills. */
function missingCondition(columns: Set<string>): string {
  const pending = columns.has("vector_pending") ? " AND vector_pending IS NOT TRUE" : "";
  return columns.has(DOC_VECTOR_COLUMN) ? `chunk_index = 0 AND ${DOC_VECTOR_COLUMN} IS NULL${pending}` : `chunk_index = 0${pending}`;
}

/** The key of every document, with a vector or not (no vectors: those are read only where the key changed). */
export async function readDocumentVectorKeys(table: Table): Promise<DocumentKey[]> {
  return (await readDocumentKeys(table, [DOCUMENT_VECTOR_KEYS]))[0]!;
}

/** A document vector's key: its row's alone, for every document (testing 2 kB of base64 for null reads it). */
export const DOCUMENT_VECTOR_KEYS: KeyedValue = { valueColumn: DOC_VECTOR_COLUMN, everyRow: true };

/**
 * The stored document vectors of these sources (those that have one that
 * decodes); "all" reads every one in one scan, which beats hundreds of `IN`
 * lists when most changed (a first read).
 */
export async function readDocumentVectors(table: Table, sources: string[] | "all"): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  if (sources.length === 0 || !(await columnsOf(table)).has(DOC_VECTOR_COLUMN)) return found;
  for (const part of inLists(sources)) {
    const only = part ? ` AND source IN (${part.map(sqlString).join(", ")})` : "";
    const arrow = await table.query().where(`chunk_index = 0 AND ${DOC_VECTOR_COLUMN} IS NOT NULL${only}`).select(["source", DOC_VECTOR_COLUMN]).toArrow();
    if (arrow.numRows === 0) continue;
    const names = arrow.getChild("source")!.toArray() as string[];
    const stored = utf8Views(arrow.getChild(DOC_VECTOR_COLUMN)!);
    names.forEach((source, i) => {
      const vector = decodeDocumentVector(stored[i]!);
      if (vector) found.set(source, vector);
    });
  }
  return found;
}

/** The first chunks of some documents, in order, for their openings: text, and the vector of chunk 0 (a one-chunk document's opening is its chunk). */
export interface OpeningChunks {
  texts: string[];
  firstVector: Float32Array | null;
}

/**
 * The first `count` chunks of each source, read at once: what a sync needs
 * to make their openings, without reading whole documents (a 100 MB log's
 * hundreds of thousands of chunks for its first few).
 */
export async function readOpeningChunks(table: Table, sources: string[], count: number): Promise<Map<string, OpeningChunks>> {
  const found = new Map<string, OpeningChunks>();
  if (sources.length === 0) return found;
  const arrow = await table
    .query()
    .where(`chunk_index < ${Math.floor(count)} AND source IN (${sources.map(sqlString).join(", ")})`)
    .select(["source", "chunk_index", "text", "vector"])
    .toArrow();
  const names = arrow.getChild("source")?.toArray() as string[] | undefined;
  if (!names) return found;
  const order = arrow.getChild("chunk_index")!.toArray() as Int32Array;
  const texts = arrow.getChild("text")!.toArray() as string[];
  const vectors = arrow.getChild("vector")!;
  const rows = names.map((source, i) => ({ source, index: order[i]!, i })).sort((a, b) => a.index - b.index);
  for (const { source, index, i } of rows) {
    const entry = found.get(source) ?? found.set(source, { texts: [], firstVector: null }).get(source)!;
    entry.texts.push(texts[i]!);
    if (index === 0) entry.firstVector = Float32Array.from((vectors.get(i) as { toArray(): Float32Array }).toArray());
  }
  return found;
}

/** How many documents with vectors have no document vector yet (0 without a table). */
export async function countWithoutDocumentVector(table: Table | null): Promise<number> {
  return table ? table.countRows(missingCondition(await columnsOf(table))) : 0;
}

/** Up to `limit` documents without a document vector, with the id of the chunk-0 row that takes it. */
export async function sourcesWithoutDocumentVector(table: Table, limit: number): Promise<{ source: string; id: string }[]> {
  const rows = await table.query().where(missingCondition(await columnsOf(table))).select(["source", "id"]).limit(limit).toArray();
  return rows.map((r) => ({ source: r.source as string, id: r.id as string }));
}

/** Sets document vectors on chunk-0 rows by id, in one commit; returns how many took one. A row replaced meanwhile (new id) is not matched. */
export async function writeDocumentVectors(table: Table, rows: { id: string; vector: Float32Array }[]): Promise<number> {
  if (rows.length === 0) return 0;
  await ensureColumns(table, chunkSchema(rows[0]!.vector.length)); // a table from before the column gains it first
  const lance = await loadLanceDb();
  const update = rows.map((r) => ({ id: r.id, [DOC_VECTOR_COLUMN]: encodeDocumentVector(r.vector) }));
  const result = await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(update, { schema: DOC_VECTOR_UPDATE }));
  return result.numUpdatedRows;
}
