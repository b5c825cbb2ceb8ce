/**
 * An index stored while no model could load holds zeros in every row's
 * vector (pending-vectors.ts), at a width guessed then: the default model's,
 * or a model folder's config.json. The first model that loads may make
 * another width. No vector can be lost by changing it, so the table is
 * written again at the model's width, every row as it was but its zeros, in
 * one commit: an overwrite, which leaves the version before it readable until
 * cleanup, so a process killed meanwhile leaves the index as it was. The
 * caller's next write builds the indexes again (chunk-store.ts openForWrite).
 */
import type { Connection, Table } from "@lancedb/lancedb";
import { Field, FixedSizeList, Float32, Schema } from "apache-arrow";
import { loadLanceDb } from "../native/lancedb.ts";
import { HAS_VECTOR, schemaVectorWidth } from "./chunk-row.ts";
import { TABLE_NAME } from "./create-table.ts";
import { hasPendingColumn } from "./pending-vectors.ts";
import { withWriteLock } from "./write-lock.ts";

/** Whether every row of the table waits for its vector (so its width holds nothing but zeros). */
export async function onlyPlaceholders(table: Table): Promise<boolean> {
  return hasPendingColumn(await table.schema()) && (await table.countRows(HAS_VECTOR)) === 0 && (await table.countRows()) > 0;
}

/** Writes the table again at `dimensions` wide when it holds only placeholders of another width; says whether it did. */
export async function widenPlaceholders(db: Connection, dbPath: string, table: Table, dimensions: number): Promise<boolean> {
  if (schemaVectorWidth(await table.schema()) === dimensions) return false;
  // Under the write lock, so a single-document write cannot land between the check and the overwrite.
  return withWriteLock(dbPath, async () => {
    await table.checkoutLatest();
    const schema = await table.schema();
    if (schemaVectorWidth(schema) === dimensions || !(await onlyPlaceholders(table))) return false;
    // Field metadata (the model record, the source catalog) and the table's own go along unchanged.
      const wider = new Schema(
      schema.fields.map((f) => (f.name === "vector" ? new Field("vector", new FixedSizeList(dimensions, new Field("item", new Float32(), true)), f.nullable, f.metadata) : f)),
      schema.metadata,
    );
    const rows = (await table.query().toArray()).map((row) => ({ ...row, vector: new Array<number>(dimensions).fill(0) }));
    const lance = await loadLanceDb();
    await db.createTable(TABLE_NAME, lance.makeArrowTable(rows, { schema: wider }), { mode: "overwrite" });
    return true;
  });
}
