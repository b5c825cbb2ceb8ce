/**
 * Writing one very large source in bounded batches without readers ever
 * seeing half of it.
 *
 * A normal write swaps a source in one merge-insert commit, but that commit
 * carries every row of the source through memory at once: a 50 MB text file
 * (374k chunks, each with a 1.5 kB vector, its text twice and its ids) peaked
 * at 4.2 GB. Lance cannot take a commit's rows as a stream from JavaScript in
 * 0.31 (Scannable has no consumer yet), so a large source is written in
 * several commits, and the readers are kept off the versions in between:
 *
 *   1. With the table ready (model, columns, indexes), the marker
 *      (staging-markers.ts) is written beside the index (in the store on s3://), naming the current
 *      version V. From then on every ChunkStore.open() reads V, in this
 *      process and in others, so the batches that follow are out of sight.
 *   2. A pause (the marker store's graceMs: 1 s beside a local index, 2.5 s
 *      on s3://, where readers look at most once a second) lets a reader that looked for the marker
 *      just before it was written finish resolving the version it reads.
 *   3. The new rows are appended in batches under ids ending in @token,
 *      beside the source's old rows (each batch one commit, on a table
 *      handle of its own, not the store's pinned one).
 *   4. One commit deletes the source's rows that are not this write's: the
 *      switch. Every version after it holds the new set only.
 *   5. The marker goes, and readers read the latest version again.
 *
 * A reader therefore sees V (old chunks) until step 5, then the new set;
 * never a mix. If the writer dies before step 5 the marker stays, readers go
 * on reading V, and the next write or sync (recoverStaging, staging-recovery.ts) settles it: before
 * step 4 the marker is rewritten with `switched`, so a write that died before
 * that has its staged rows deleted (the old chunks stay), and one that died
 * after has its switch finished (the new chunks stay). Either way the source
 * stays indexed. The writer is known dead by its pid and, on Linux, the
 * process's start time, so a reused pid does not keep readers on V.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors.ts";
import type { ChunkRow } from "./chunk-row.ts";
import type { ChunkStore } from "./chunk-store.ts";
import { makeIndexFolder } from "./db-path.ts";
import { stampRows } from "./table-writes.ts";
import { processStart, type StagingMarker } from "./staging-marker.ts";
import { canStage, stagingMarkers } from "./staging-markers.ts";
import { liveTable, oldRows, recoverStaging, stagedRows } from "./staging-recovery.ts";

export interface StagedSource {
  /** Appends a batch of the source's new rows (one commit, unseen until commit()). */
  add(rows: ChunkRow[]): Promise<void>;
  /** Deletes the source's old rows in one commit and lets readers see the result. */
  commit(): Promise<void>;
  /** Deletes the rows added so far and lets readers go on with the old ones. */
  abort(): Promise<void>;
}

/** Starts a staged write of `source`; see the top of this file. */
export async function beginStagedSource(store: ChunkStore, source: string, dimensions: number): Promise<StagedSource> {
  // The marker that hides the batches lives beside a local index or in an s3:// store; elsewhere (gs://, az://, s3:// without keys) it has no place yet.
  if (!canStage(store.location)) {
    throw new AppError(
      "INDEX",
      `${source} is too large to write to this index in one commit, and on ${store.dbPath} this version cannot keep the marker that hides a batched write from readers.`,
      "Split the document, index it into a local DB_PATH, or use s3:// with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; everything else in the folder is indexed as usual.",
    );
  }
  await recoverStaging(store.location);
  const current = await store.open();
  // Model check, missing columns and indexes, as every write does, while the table is still the store's live one.
  if (current) await store.openForWrite(dimensions, []);
  const marker: StagingMarker = { pid: process.pid, pidStart: processStart(process.pid), token: randomBytes(6).toString("hex"), source, version: current ? await current.version() : 0 };
  makeIndexFolder(store.dbPath, store.roots);
  const markers = stagingMarkers(store.location);
  await markers.begin(marker);
  await Bun.sleep(markers.graceMs);
  let table = current ? await liveTable(store.location) : null;

  return {
    async add(rows) {
      await stampRows(rows, marker.token);
      if (!table) {
        // No table yet: the store creates it with these rows (readers, told version 0, see no index meanwhile).
        const { created } = await store.openForWrite(dimensions, rows, true);
        table = await liveTable(store.location);
        if (created) return store.recordSources(rows, table!);
      }
      // The store's own handle reads the pinned version, which takes no commit: the name goes through this one.
      await store.recordSources(rows, table!);
      await table!.add(rows as unknown as Record<string, unknown>[]);
    },
    async commit() {
      // Said before it happens: a crash between the two leaves a marker that recovery finishes rather than undoes.
      await markers.update({ ...marker, switched: true });
      if (table) await table.delete(oldRows(source, marker.token));
      await markers.remove();
    },
    async abort() {
      if (table) await table.delete(stagedRows(marker));
      await markers.remove();
    },
  };
}
