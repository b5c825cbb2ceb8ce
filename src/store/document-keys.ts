/**
 * Where each document's stored value stands (its document vector, its
 * look-alike signature), so a cache of those values reads again only the
 * documents whose key changed since it was built. A key is hashed from
 * chunk 0's content hash and ingest time (a new ingest changes the latter even
 * for the same bytes), and from any further columns the cache depends on (a
 * look-alike's date). Hashed from the columns' bytes: at 30k documents this
 * scan follows every write, and decoding strings cost more than reading them.
 */
import type { Table } from "@lancedb/lancedb";
import type { Table as ArrowTable, Vector } from "apache-arrow";

export interface DocumentKey {
  source: string;
  key: number;
}

/** Sources per `source IN (…)` read: a longer list costs LanceDB more than several short ones. */
export const IN_LIST = 500;

/** The sources in lists of at most IN_LIST, or one list standing for every source ("all"). */
export function inLists(sources: string[] | "all"): (string[] | null)[] {
  if (sources === "all") return [null];
  return Array.from({ length: Math.ceil(sources.length / IN_LIST) }, (_, n) => sources.slice(n * IN_LIST, (n + 1) * IN_LIST));
}

/** A value kept per document (its column on chunk-0 rows), and the columns whose change also changes its key. */
export interface KeyedValue {
  valueColumn: string;
  extra?: string[];
  /**
   * Keys for every chunk-0 row, whether or not it holds the value: for a
   * column whose values are large, where `IS NOT NULL` reads them all (2 kB
   * of base64 a document vector: at 5,100 documents 25 of a 55 ms scan).
   * Its cache then reads a document it found without a value again at the
   * next version, since a value filled in later leaves the key as it was.
   */
  everyRow?: boolean;
}

/** How the keys of some values are read: which chunk-0 rows, which columns, and the extra columns each value's key takes. */
export interface KeyPlan {
  where: string;
  projection: Record<string, string>;
  /** Per value: the extra columns present, or null when the table lacks the value's column. */
  present: (string[] | null)[];
}

/** The plan for these values on this table, or null when it has none of their columns. */
export async function planKeys(table: Table, values: KeyedValue[]): Promise<KeyPlan | null> {
  const columns = new Set((await table.schema()).fields.map((f) => f.name));
  const present = values.map(({ valueColumn, extra = [] }) => (columns.has(valueColumn) ? extra.filter((c) => columns.has(c)) : null));
  const held = values.flatMap((v, i) => (present[i] ? [`${v.valueColumn} IS NOT NULL`] : []));
  if (held.length === 0) return null;
  const everyRow = values.some((v, i) => present[i] && v.everyRow);
  const projection: Record<string, string> = { source: "source", content_hash: "content_hash", ingested_at: "ingested_at" };
  for (const column of new Set(present.flatMap((p) => p ?? []))) projection[column] = column;
  values.forEach((v, i) => present[i] && !v.everyRow && (projection[`has_${i}`] = `${v.valueColumn} IS NOT NULL`));
  return { where: everyRow ? "chunk_index = 0" : `chunk_index = 0 AND (${held.join(" OR ")})`, projection, present };
}

/** Each row's source and, per value, its key (undefined where the row does not hold the value). */
export function rowKeys(arrow: ArrowTable, values: KeyedValue[], plan: KeyPlan): { sources: string[]; keys: (number | undefined)[][] } {
  const sources = arrow.numRows === 0 ? [] : (arrow.getChild("source")!.toArray() as string[]);
  const keys = values.map((value, i) => {
    const extra = plan.present[i];
    if (!extra || arrow.numRows === 0) return sources.map(() => undefined);
    const all = keysOf(arrow, extra);
    if (value.everyRow) return all;
    const has = arrow.getChild(`has_${i}`)!.toArray() as ArrayLike<boolean>;
    return all.map((key, row) => (has[row] ? key : undefined));
  });
  return { sources, keys };
}

/**
 * For each value, the key of every chunk-0 row that has it (absent columns are left out), all from one scan: after
 * a write both caches of a query (signatures, document vectors) read their keys, and on 2 cores two scans beside
 * the query's own searches slowed all of them.
 */
export async function readDocumentKeys(table: Table, values: KeyedValue[]): Promise<DocumentKey[][]> {
  const plan = await planKeys(table, values);
  if (!plan) return values.map(() => []);
  const { sources, keys } = rowKeys(await table.query().where(plan.where).select(plan.projection).toArrow(), values, plan);
  return keys.map((perRow) => sources.flatMap((source, row) => (perRow[row] === undefined ? [] : [{ source, key: perRow[row]! }])));
}

/** The key of each row of a read that selected content_hash, ingested_at and the `extra` columns. */
export function keysOf(arrow: ArrowTable, extra: string[]): number[] {
  const hashes = utf8Views(arrow.getChild("content_hash")!);
  const times = utf8Views(arrow.getChild("ingested_at")!);
  // The extra columns are short and may be null (no date): read as values, a null as "" (a date is never empty).
  const extras = extra.map((c) => arrow.getChild(c)!);
  return hashes.map((hashBytes, i) => {
    let hash = Bun.hash(hashBytes, Bun.hash(times[i]!));
    for (const column of extras) hash = Bun.hash(String(column.get(i) ?? ""), hash);
    return Number(BigInt.asUintN(53, BigInt(hash)));
  });
}

/**
 * Each value of a string column without nulls as a view of its UTF-8 bytes:
 * a column's chunks hold their rows' bytes end to end, with offsets, so a
 * view per row copies nothing. A chunk cut from a larger one (Data.slice) has
 * its offsets cut to match already, so they are read from 0 whatever its
 * `offset`.
 */
export function utf8Views(column: Vector): Uint8Array[] {
  const views: Uint8Array[] = [];
  for (const data of column.data) {
    const { valueOffsets: offsets, values } = data as unknown as { valueOffsets: ArrayLike<number | bigint>; values: Uint8Array };
    for (let row = 0; row < data.length; row++) views.push(values.subarray(Number(offsets[row]!), Number(offsets[row + 1]!)));
  }
  return views;
}
