/**
 * Document labels and dates live in the chunks table, on each source's
 * chunk-0 row, like look-alike signatures (signatures.ts): written in the
 * same commit as the chunks, moved and deleted with them. The store keeps
 * them as strings; labels/label-codec.ts knows what they mean.
 */
import type { Table } from "@lancedb/lancedb";
import { Field, Schema, Utf8 } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import { sqlString } from "./chunk-row.ts";

/** The label columns of a chunk row: null on every row but chunk 0, and on chunk 0 while a document has no labels. */
export interface LabelColumns {
  /** JSON: the labels, and the facets the model could not answer with why. */
  labels: string | null;
  /** The taxonomy the labels were resolved under. */
  label_hash: string | null;
  /** YYYY-MM-DD. */
  doc_date: string | null;
  /** document, name or file. */
  date_source: string | null;
}

export const LABEL_COLUMNS = ["labels", "label_hash", "doc_date", "date_source"] as const;
export const NO_LABELS: LabelColumns = { labels: null, label_hash: null, doc_date: null, date_source: null };

const LABEL_UPDATE = new Schema([new Field("id", new Utf8(), false), ...LABEL_COLUMNS.map((c) => new Field(c, new Utf8(), true))]);

export interface LabelRow extends LabelColumns {
  source: string;
  /** The chunk-0 row's id: a merge by it updates exactly this version of the document. */
  id: string;
  sourceType: string;
  mtime: number;
}

async function haveColumns(table: Table): Promise<boolean> {
  const names = new Set((await table.schema()).fields.map((f) => f.name));
  return LABEL_COLUMNS.every((c) => names.has(c));
}

/** Adds the label columns to a table from before them (every document unlabelled). */
export async function ensureLabelColumns(table: Table): Promise<void> {
  const names = new Set((await table.schema()).fields.map((f) => f.name));
  const missing = LABEL_COLUMNS.filter((c) => !names.has(c));
  if (missing.length) await table.addColumns(missing.map((name) => ({ name, valueSql: "CAST(NULL AS STRING)" })));
}

/** Every document's chunk-0 label columns (nulls for a table from before them), optionally for some sources only. */
export async function readLabelRows(table: Table, sources?: string[]): Promise<LabelRow[]> {
  const withLabels = await haveColumns(table);
  const columns = ["source", "id", "source_type", "mtime", ...(withLabels ? LABEL_COLUMNS : [])];
  let where = "chunk_index = 0";
  if (sources) where += ` AND source IN (${sources.map(sqlString).join(", ")})`;
  if (sources?.length === 0) return [];
  const arrow = await table.query().where(where).select(columns).toArrow();
  const get = (name: string) => arrow.getChild(name);
  const rows: LabelRow[] = [];
  for (let i = 0; i < arrow.numRows; i++) {
    const text = (name: string) => (withLabels ? ((get(name)!.get(i) as string | null) ?? null) : null);
    rows.push({
      source: get("source")!.get(i) as string,
      id: get("id")!.get(i) as string,
      sourceType: get("source_type")!.get(i) as string,
      mtime: get("mtime")!.get(i) as number,
      labels: text("labels"),
      label_hash: text("label_hash"),
      doc_date: text("doc_date"),
      date_source: text("date_source"),
    });
  }
  return rows;
}

/** Sets the label columns of chunk-0 rows by id, in one commit; returns how many rows took them. A row replaced meanwhile (new id) is not matched. */
export async function writeLabelRows(table: Table, rows: ({ id: string } & LabelColumns)[]): Promise<number> {
  if (rows.length === 0) return 0;
  await ensureLabelColumns(table);
  const lance = await loadLanceDb();
  const result = await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(rows as unknown as Record<string, unknown>[], { schema: LABEL_UPDATE }));
  return result.numUpdatedRows;
}
