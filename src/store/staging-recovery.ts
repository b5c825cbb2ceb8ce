/**
 * Settling a staged write (staged-source.ts) whose process died. The store
 * runs this before every write (ChunkStore.settleStagedWrite) and a new
 * staged write runs it before it begins, so it sits below both: the store
 * imports it, and staged-source.ts imports the store and it.
 */
import type { Table } from "@lancedb/lancedb";
import { AppError } from "../errors.ts";
import { sqlString } from "./chunk-row.ts";
import { TABLE_NAME } from "./create-table.ts";
import type { IndexLocation } from "./index-location.ts";
import type { StagingMarker } from "./staging-marker.ts";
import { canStage, stagingMarkers } from "./staging-markers.ts";

/** The live table, on a handle of its own (not the store's pinned one); null before the first write. */
export async function liveTable(location: IndexLocation): Promise<Table | null> {
  const db = await location.connect();
  return (await db.tableNames()).includes(TABLE_NAME) ? db.openTable(TABLE_NAME) : null;
}

/** The rows a staged write added: ids ending in @token. */
export function stagedRows(marker: StagingMarker): string {
  return `source = ${sqlString(marker.source)} AND id LIKE '%@${marker.token}'`;
}

/** Settles a staged write whose process died: undone before its switch, finished after it; then the marker goes. A live writer's marker is left alone. */
export async function recoverStaging(location: IndexLocation): Promise<boolean> {
  if (!canStage(location)) return false;
  const markers = stagingMarkers(location);
  const marker = await markers.read(true);
  if (!marker || markers.alive(marker)) return false;
  const table = await liveTable(location);
  if (table) await table.delete(marker.switched ? oldRows(marker.source, marker.token) : stagedRows(marker));
  await markers.remove();
  return true;
}

/** The source's rows that are not this staged write's: the ones its switch deletes. */
export function oldRows(source: string, token: string): string {
  return `source = ${sqlString(source)} AND NOT (id LIKE '%@${token}')`;
}

/**
 * Before a write: a staged write left by a process that died is recovered
 * (true: a view pinned to the version before it is stale now); one still
 * running refuses the write with a message, where LanceDB would only say the
 * table is read-only, unless it is the caller's own (`staged`).
 */
export async function settleStaging(location: IndexLocation, staged: boolean): Promise<boolean> {
  if (!canStage(location)) return false;
  const markers = stagingMarkers(location);
  const marker = await markers.read(true);
  if (!marker) return false;
  if (!markers.alive(marker)) {
    await recoverStaging(location);
    return true;
  }
  if (staged && markers.mine(marker)) return false;
  const writer = markers.mine(marker) ? "This process" : `Process ${marker.pid}`;
  throw new AppError(
    "INDEX",
    `${writer} is writing a large document (${marker.source}) into the index at ${location.path} in batches; other writes wait until it finishes.`,
    "Try again when that sync or ingest has finished; searches meanwhile answer from the index as it was before that document.",
  );
}
