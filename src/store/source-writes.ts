/**
 * Writes over whole sources that need no new text or vectors: moving a file's
 * chunks to its new path, recording new mtimes, deleting. Each works in
 * batches of sources, one commit a batch, so filters stay short and memory
 * flat; a source is always inside one batch, so it changes whole or not at all.
 */
import type { Table } from "@lancedb/lancedb";
import { Field, Float64, Schema, Utf8 } from "apache-arrow";
import { randomBytes } from "node:crypto";
import { loadLanceDb } from "../native/lancedb.ts";
import { sqlString, type ChunkRow } from "./chunk-row.ts";
import { stampRow, swapIn } from "./table-writes.ts";

/** A file that moved: its chunks go to the new path as they are, with no read or embedding. */
export interface SourceMove {
  from: string;
  to: string;
  mtime: number;
}

/** The columns of an mtime-only merge, typed as the table has them. */
const MTIME_UPDATE = new Schema([new Field("id", new Utf8(), false), new Field("mtime", new Float64(), false)]);

/** Sources per SQL IN list and per commit. */
const BATCH_SOURCES = 200;

function batches<T>(items: T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / BATCH_SOURCES) }, (_, i) => items.slice(i * BATCH_SOURCES, (i + 1) * BATCH_SOURCES));
}

/** `columns`: the table's, so rows are stamped with only the columns it has (stampRow). */
export async function moveSources(table: Table, columns: Set<string> | null, moves: SourceMove[], dbPath: string): Promise<void> {
  for (const batch of batches(moves)) {
    const byOld = new Map(batch.map((m) => [m.from, m]));
    const old = await table.query().where(`source IN (${batch.map((m) => sqlString(m.from)).join(", ")})`).toArray();
    const token = randomBytes(6).toString("hex");
    const rows = old.map((r) => {
      const move = byOld.get(r.source)!;
      const row = { ...r } as ChunkRow;
      row.vector = Float32Array.from(r.vector.toArray());
      row.source = move.to;
      row.parent_id = r.parent_id === null ? null : move.to + String(r.parent_id).slice(move.from.length);
      row.mtime = move.mtime;
      stampRow(row, token, columns);
      return row;
    });
    if (rows.length) await swapIn(table, rows, batch.flatMap((m) => [m.from, m.to]), dbPath);
  }
}

/** As a merge of just the id and mtime columns: Lance's update takes one value for every matched row. */
export async function updateMtimes(table: Table, updates: { source: string; mtime: number }[]): Promise<void> {
  for (const part of batches(updates)) {
    const batch = new Map(part.map((u) => [u.source, u.mtime]));
    const ids = await table.query().where(`source IN (${[...batch.keys()].map(sqlString).join(", ")})`).select(["id", "source"]).toArray();
    if (ids.length === 0) continue;
    const lance = await loadLanceDb();
    const rows = ids.map((r) => ({ id: r.id as string, mtime: batch.get(r.source)! }));
    await table.mergeInsert("id").whenMatchedUpdateAll().execute(lance.makeArrowTable(rows, { schema: MTIME_UPDATE }));
  }
}

export async function deleteSources(table: Table, sources: string[]): Promise<void> {
  for (const batch of batches(sources)) await table.delete(`source IN (${batch.map(sqlString).join(", ")})`);
}
