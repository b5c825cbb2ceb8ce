/**
 * Look-alike signatures live in the chunks table, in the minhash column of
 * each source's chunk 0 (null on every other row). So a signature is written
 * in the same commit as its document's chunks, moves with them (a move copies
 * whole rows) and goes when they are deleted: no second table to keep in step,
 * and nothing beside the table, wherever DB_PATH points. A table from before
 * the column gains it as nulls; sync then fills it from the stored text.
 */
import type { Table } from "@lancedb/lancedb";
import { Field, Schema, Utf8 } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import { sqlString } from "./chunk-row.ts";
import { inLists, keysOf, readDocumentKeys, utf8Views, type DocumentKey, type KeyedValue } from "./document-keys.ts";

export const SIGNATURE_COLUMN = "minhash";
const UNSIGNED = `chunk_index = 0 AND ${SIGNATURE_COLUMN} IS NULL`;
const SIGNATURE_UPDATE = new Schema([new Field("id", new Utf8(), false), new Field(SIGNATURE_COLUMN, new Utf8(), true)]);

async function hasColumn(table: Table): Promise<boolean> {
  return (await table.schema()).fields.some((f) => f.name === SIGNATURE_COLUMN);
}

/** Adds the column to a table from before it (every row null, so every source unsigned). */
export async function ensureSignatureColumn(table: Table): Promise<void> {
  if (!(await hasColumn(table))) await table.addColumns([{ name: SIGNATURE_COLUMN, valueSql: "CAST(NULL AS STRING)" }]);
}

/** How many sources have no signature yet (0 without a table). */
export async function countUnsigned(table: Table | null): Promise<number> {
  if (!table) return 0;
  return table.countRows((await hasColumn(table)) ? UNSIGNED : "chunk_index = 0");
}

/** Up to `limit` unsigned sources, with the id of the chunk-0 row that takes the signature. */
export async function unsignedSources(table: Table, limit: number): Promise<{ source: string; id: string }[]> {
  const rows = await table.query().where(UNSIGNED).select(["source", "id"]).limit(limit).toArray();
  return rows.map((r) => ({ source: r.source as string, id: r.id as string }));
}

export interface SignatureBytes {
  sources: string[];
  /** Each signature's stored base64 as UTF-8 bytes. */
  stored: Uint8Array[];
  dates: (string | null)[];
  /** Each one's key (document-keys.ts), as readSignatureKeys gives it. */
  keys: number[];
}

/**
 * Every stored signature (empty ones included: documents with no words) as
 * its stored base64 text's bytes, with the document's date where labels gave
 * it one ("all"), or those of the given sources. Bytes, not strings: at a
 * million chunks (298k signatures) making the strings took 170-260 ms and
 * decoding them 340-410 ms of a 1.6 s read.
 */
export async function readSignatureBytes(table: Table, sources: string[] | "all" = "all"): Promise<SignatureBytes> {
  const out: SignatureBytes = { sources: [], stored: [], dates: [], keys: [] };
  const names = new Set((await table.schema()).fields.map((f) => f.name));
  if (!names.has(SIGNATURE_COLUMN) || sources.length === 0) return out;
  // doc_date: on chunk 0 too, written with labels (label-rows.ts); a table without a classify.toml has no such column.
  const dated = names.has(DATE_COLUMN);
  for (const part of inLists(sources)) {
    const only = part ? ` AND source IN (${part.map(sqlString).join(", ")})` : "";
    const arrow = await table
      .query()
      .where(`chunk_index = 0 AND ${SIGNATURE_COLUMN} IS NOT NULL${only}`)
      .select(["source", SIGNATURE_COLUMN, "content_hash", "ingested_at", ...(dated ? [DATE_COLUMN] : [])])
      .toArrow();
    // No signed row (the column added to an older index by a write, before a sync signs it): the empty answer has no columns at all.
    if (arrow.numRows === 0) continue;
    const date = dated ? arrow.getChild(DATE_COLUMN)! : null;
    const found = arrow.getChild("source")!.toArray() as string[];
    out.stored.push(...utf8Views(arrow.getChild(SIGNATURE_COLUMN)!));
    out.keys.push(...keysOf(arrow, dated ? [DATE_COLUMN] : []));
    found.forEach((source, i) => {
      out.sources.push(source);
      out.dates.push((date?.get(i) as string | null | undefined) ?? null);
    });
  }
  return out;
}

/** Every stored signature's key (document-keys.ts), its date included: what changed since the signatures were read. */
export async function readSignatureKeys(table: Table): Promise<DocumentKey[]> {
  return (await readDocumentKeys(table, [SIGNATURE_KEYS]))[0]!;
}

/** Every stored signature as text (readSignatureBytes), with the document's date: for tests and checks, which compare the stored form. */
export async function readSignatures(table: Table): Promise<{ source: string; minhash: string; date: string | null }[]> {
  const { sources, stored, dates } = await readSignatureBytes(table);
  const text = new TextDecoder();
  return sources.map((source, i) => ({ source, minhash: text.decode(stored[i]), date: dates[i]! }));
}

const DATE_COLUMN = "doc_date";

/** A signature's key: its row's, and the document's date (a look-alike carries it). */
export const SIGNATURE_KEYS: KeyedValue = { valueColumn: SIGNATURE_COLUMN, extra: [DATE_COLUMN] };

/** Sets signatures on chunk-0 rows by id, in one commit; returns how many rows took one. A row replaced meanwhile (new id) is not matched. */
export async function writeSignatures(table: Table, rows: { id: string; minhash: string }[]): Promise<number> {
  if (rows.length === 0) return 0;
  const lance = await loadLanceDb();
  const result = await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(rows, { schema: SIGNATURE_UPDATE }));
  return result.numUpdatedRows;
}
