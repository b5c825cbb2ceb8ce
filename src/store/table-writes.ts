/** Write steps shared by the store's operations. */
import type { Table } from "@lancedb/lancedb";
import { AppError } from "../errors.ts";
import { HAS_VECTOR, schemaVectorWidth, sqlString, type ChunkRow } from "./chunk-row.ts";
import { hasPendingColumn } from "./pending-vectors.ts";
import { fillSearchColumns } from "./search-columns.ts";
import { withWriteLock } from "./write-lock.ts";
import { mapInSlices } from "../slices.ts";

/**
 * A row as every write stores it: its id under this write's token (so two
 * writers never produce matching ids), its search columns, and a
 * vector_pending that is never null (apache-arrow writes a boolean column of
 * only nulls without its bitmap, which Lance refuses). `columns`, when given,
 * are the table's: a table from before a column is not handed it.
 */
export function stampRow(row: ChunkRow, token: string, columns?: Set<string> | null): void {
  row.id = `${row.source}#${row.chunk_index}@${token}`;
  if (!columns || columns.has("text_search")) fillSearchColumns(row);
  if (!columns || columns.has("vector_pending")) row.vector_pending = row.vector_pending === true;
}

/** stampRow over a write's rows, in slices (slices.ts): stemming a Russian document's 3,600 chunks for the keyword columns took 150 ms. */
export async function stampRows(rows: ChunkRow[], token: string): Promise<void> {
  await mapInSlices(rows, (row) => stampRow(row, token));
}

/**
 * One commit: insert rows, and delete every other row of the named sources.
 * Sources with no rows yet (every file of a first sync) are appended instead:
 * a merge joins the batch against the whole table to find the rows to delete,
 * so in a sync of 256-row groups each commit cost more as the index grew
 * (350-row commits: 164 ms at 7k rows, 395 ms at 70k), while an append stayed
 * at 60-140 ms (scripts/bench/scale-ingest.ts measures the whole sync). The
 * check and the append run under the index's write lock (write-lock.ts).
 */
export async function swapIn(table: Table, rows: ChunkRow[], sources: string[], dbPath: string): Promise<void> {
  const appended = await withWriteLock(dbPath, async () => {
    if ((await table.countRows(`source IN (${sources.map(sqlString).join(", ")})`)) > 0) return false;
    await table.add(rows as unknown as Record<string, unknown>[]);
    return true;
  });
  if (appended) return;
  await table
    .mergeInsert("id")
    .whenMatchedUpdateAll()
    .whenNotMatchedInsertAll()
    .whenNotMatchedBySourceDelete({ where: `source IN (${sources.map(sqlString).join(", ")})` })
    .execute(rows as unknown as Record<string, unknown>[]);
}

/**
 * Refuses a model whose vectors are not the table's width. An index stored
 * while no model could load (every row waiting for its vector) holds zeros of
 * a guessed width; no model built it, so it says that, and what a new index
 * costs.
 */
export async function checkDimensions(dbPath: string, table: Table, dimensions: number): Promise<void> {
  const schema = await table.schema();
  const stored = schemaVectorWidth(schema);
  if (stored === dimensions) return;
  const waiting = hasPendingColumn(schema) && (await table.countRows(HAS_VECTOR)) === 0;
  if (waiting) {
    throw new AppError(
      "INDEX",
      `The index at ${dbPath} was stored while no embedding model could load: none of its chunks has a vector yet, and their places were made ${stored} wide, where this model makes ${dimensions}-dimensional vectors.`,
      `Delete ${dbPath} and sync again with this model: the files' chunks are made again from the files (items added with ingest_data or ingest_url were stored as text only and must be added again). Or set MODEL_NAME to a model that makes ${stored}-dimensional vectors.`,
    );
  }
  throw new AppError(
    "INDEX",
    `The index at ${dbPath} holds ${stored}-dimensional vectors but the model makes ${dimensions}-dimensional ones.`,
    "The index was built with another model. Use a new DB_PATH, or delete this one and sync again.",
  );
}

