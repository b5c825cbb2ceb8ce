/** Write steps shared by the store's operations. */
import type { Table } from "@lancedb/lancedb";
import { AppError } from "../errors.ts";
import { sqlString, type ChunkRow } from "./chunk-row.ts";

/** One commit: insert rows, and delete every other row of the named sources. */
export async function swapIn(table: Table, rows: ChunkRow[], sources: string[]): Promise<void> {
  await table
    .mergeInsert("id")
    .whenMatchedUpdateAll()
    .whenNotMatchedInsertAll()
    .whenNotMatchedBySourceDelete({ where: `source IN (${sources.map(sqlString).join(", ")})` })
    .execute(rows as unknown as Record<string, unknown>[]);
}

export function checkDimensions(dbPath: string, schema: { fields: { name: string; type: unknown }[] }, dimensions: number): void {
  const field = schema.fields.find((f) => f.name === "vector");
  const stored = (field?.type as { listSize?: number } | undefined)?.listSize;
  if (stored === dimensions) return;
  throw new AppError(
    "INDEX",
    `The index at ${dbPath} holds ${stored}-dimensional vectors but the model makes ${dimensions}-dimensional ones.`,
    "The index was built with another model. Use a new DB_PATH, or delete this one and sync again.",
  );
}

