/**
 * The search columns (text_search, title_search: text and title as the
 * full-text index reads them, see keyword-text.ts). New rows get them on
 * write; a table built before they existed gains them as nulls (ensureColumns)
 * and is filled here from its stored text, with no re-embedding, before the
 * full-text indexes move onto them. Until those indexes exist, keyword search
 * reads the old text and title indexes.
 */
import type { Table } from "@lancedb/lancedb";
import { Field, Schema, Utf8 } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import type { ChunkRow } from "./chunk-row.ts";
import { keywordText } from "./keyword-text.ts";

/** The full-text columns, and the ones they replace on tables built before them. */
export const SEARCH_COLUMNS = ["text_search", "title_search"] as const;
export const LEGACY_SEARCH_COLUMNS = ["text", "title"] as const;

/** The columns of a backfill merge, typed as the table has them. */
const SEARCH_UPDATE = new Schema([new Field("id", new Utf8(), false), new Field("text_search", new Utf8(), true), new Field("title_search", new Utf8(), true)]);
/** Rows per backfill commit: 5,000 texts are a few MB in memory, and 100k rows take 20 commits. */
const BACKFILL_BATCH = 5_000;
const UNFILLED = "text_search IS NULL OR title_search IS NULL";

/** Sets a row's search columns from its text and title where they are not set yet. */
export function fillSearchColumns(row: Pick<ChunkRow, "text" | "title" | "text_search" | "title_search">): void {
  row.text_search ??= keywordText(row.text);
  row.title_search ??= keywordText(row.title);
}

/** Fills the search columns of rows that lack them, a batch per commit (a merge of id and the two columns); returns how many. */
export async function backfillSearchColumns(table: Table): Promise<number> {
  const pending = await table.countRows(UNFILLED);
  if (pending === 0) return 0;
  const lance = await loadLanceDb();
  let filled = 0;
  // Bounded: every pass fills a batch, so this many passes cover every row counted above.
  for (let pass = 0; pass <= Math.ceil(pending / BACKFILL_BATCH); pass++) {
    const rows = await table.query().where(UNFILLED).select(["id", "text", "title"]).limit(BACKFILL_BATCH).toArray();
    if (rows.length === 0) break;
    const update = rows.map((r) => ({ id: r.id as string, text_search: keywordText(r.text as string), title_search: keywordText(r.title as string) }));
    await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(update, { schema: SEARCH_UPDATE }));
    filled += rows.length;
  }
  return filled;
}

/** The columns keyword search reads: the search columns once both are indexed, else the old text and title. */
export function keywordColumns(indexedColumns: Iterable<string>): readonly string[] {
  const indexed = new Set(indexedColumns);
  return SEARCH_COLUMNS.every((c) => indexed.has(c)) ? SEARCH_COLUMNS : LEGACY_SEARCH_COLUMNS;
}

/**
 * Of the index columns found missing, those that matter now: while the old
 * text and title indexes serve keyword search, the search columns' indexes
 * are not missing but due, built by the next write.
 */
export function missingNow(missing: string[], indexedColumns: Iterable<string>): string[] {
  if (keywordColumns(indexedColumns) === SEARCH_COLUMNS) return missing;
  const legacy = new Set(indexedColumns);
  if (!LEGACY_SEARCH_COLUMNS.every((c) => legacy.has(c))) return missing;
  return missing.filter((c) => !(SEARCH_COLUMNS as readonly string[]).includes(c));
}
