/**
 * Sync's repair of a damaged index, before it reads or writes anything else.
 *
 * Fragments whose data files are lost or cut short are dropped in one
 * commit: a delete that selects their rows by row address, which Lance
 * carries out by removing the fragments from the next manifest without
 * opening their files (checked on LanceDB 0.31.0, with a fragment's file
 * missing and cut short). Being one commit it is atomic under a kill -9, and
 * Lance's conflict rules let it land beside other writers' commits, on any
 * storage LanceDB writes to. A fragment whose deletion file is lost cannot be
 * dropped so (the delete reads that file first): an empty one is put in its
 * place first (deletion-files.ts), which the check still finds wanting, by its
 * count, should the delete not follow. The chunks it drops were unreadable already; the
 * sync that follows ingests their files again (they are then missing or
 * incomplete in the index), and the source catalog (source-catalog.ts) names
 * the data and url items no sync can rebuild.
 *
 * Indexes that are missing or unreadable (their files were lost) are built
 * again at every sync, whatever else changed: before, only a sync that wrote
 * something rebuilt them, and a move failed on the lost index first.
 *
 * Probing each index by a query cost about 30 ms of a 75 ms unchanged sync
 * (5,100 documents), which a server's rescan and `sync --watch` repeat. So a
 * process remembers the version at which a repair of a local index found
 * nothing to mend (RepairMemo), and at that version checks the files alone:
 * the data files, every required index listed, and each index's files there.
 * A new version probes by query again. On a local index an index whose files
 * are gone is rebuilt even when the probe passes: a process that loaded it
 * before answers the probe from its cache.
 */
import type { Table } from "@lancedb/lancedb";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { TABLE_NAME } from "./create-table.ts";
import { emptyDeletionFile } from "./deletion-files.ts";
import { chunksOf, lostFileWord } from "./index-damage.ts";
import type { IndexLocation } from "./index-location.ts";
import { fragmentFilter, findLostFragments, tableDir, type LostFragment } from "./lost-fragments.ts";
import { whyNoObjects } from "./store-objects.ts";
import { ensureIndexes, lostIndexFolders, missingIndexes } from "./table-upkeep.ts";

/** The table version a repair last found sound, in this process. */
export class RepairMemo {
  soundAt: number | null = null;
}

export interface IndexRepair {
  /** The files dropped with their fragments (what was wrong with each), and the chunks they held. */
  dropped: { problems: string[]; chunks: number | null } | null;
  /** Index columns built again because their index was missing or unreadable. */
  rebuilt: string[];
}

export async function repairTable(table: Table, location: IndexLocation, memo: RepairMemo): Promise<IndexRepair> {
  const version = await table.version();
  if (memo.soundAt === version && (await filesSound(table, location))) return { dropped: null, rebuilt: [] };
  memo.soundAt = null;
  const lost = await findLostFragments(table, location);
  if (lost.length) {
    await putEmptyDeletionFiles(location, lost);
    await table.delete(fragmentFilter(lost));
  }
  const local = location.isLocal;
  const { built, complete } = await ensureIndexes(table, local ? await lostIndexFolders(table, tableDir(location.path)) : []);
  // Only a local index's files can be checked without a query; anything mended wrote a new version, checked in full next time.
  if (local && lost.length === 0 && built.length === 0 && complete) memo.soundAt = version;
  return {
    dropped: lost.length ? { problems: lost.flatMap((f) => f.problems), chunks: chunksOf(lost) } : null,
    rebuilt: built,
  };
}

/** An empty deletion file where each lost one was, so that the delete which drops their fragments can read them. */
async function putEmptyDeletionFiles(location: IndexLocation, lost: LostFragment[]): Promise<void> {
  const files = lost.flatMap((f) => f.deletion ?? []);
  if (!files.length) return;
  if (location.isLocal) {
    const folder = join(tableDir(location.path), "_deletions");
    mkdirSync(folder, { recursive: true });
    for (const file of files) writeFileSync(join(folder, file.path), emptyDeletionFile(file));
    return;
  }
  const objects = location.objects;
  if (!objects) {
    const storage = location.storage!;
    throw new AppError("INDEX", `A deletion file of the index at ${location.path} is lost (${files.map((f) => `_deletions/${f.path}`).join(", ")}), and sync puts an empty one in its place through the index's own requests, which this store does not have: ${whyNoObjects(storage)}.`, "Set the store's keys for this sync and run it again, or restore the file from a backup.");
  }
  for (const file of files) {
    const key = `${TABLE_NAME}.lance/_deletions/${file.path}`;
    // A damaged file, or the stand-in of a repair cut off before its delete, is replaced.
    await objects.delete(key);
    const put = await objects.put(key, emptyDeletionFile(file), { ifNoneMatch: true });
    if (!put.written) throw new AppError("INDEX", `Another writer put ${key} in ${objects.where} while this sync repaired it.`, "Run sync again.");
  }
}

/** At a version found sound before: every data file whole, every required index listed and its files there. */
async function filesSound(table: Table, location: IndexLocation): Promise<boolean> {
  if ((await findLostFragments(table, location)).length > 0 || (await missingIndexes(table)).length > 0) return false;
  return (await lostIndexFolders(table, tableDir(location.path))).length === 0;
}

/** Sync's account of a repair, or null when there was nothing to repair. */
export function describeRepair(repair: IndexRepair): string | null {
  const parts: string[] = [];
  if (repair.dropped) {
    const { problems, chunks } = repair.dropped;
    parts.push(
      `Dropped ${chunks === null ? "the" : chunks} chunk${chunks === 1 ? "" : "s"} whose ${lostFileWord(problems)}${problems.length === 1 ? " was" : "s were"} lost or damaged (${problems.join("; ")}); the files they came from were ingested again (a scoped sync ingests only those in its scope, the next full sync the rest).`,
    );
  }
  if (repair.rebuilt.length) parts.push(`Rebuilt the ${repair.rebuilt.join(", ")} index${repair.rebuilt.length === 1 ? "" : "es"}, which ${repair.rebuilt.length === 1 ? "was" : "were"} missing or unreadable.`);
  return parts.length ? parts.join(" ") : null;
}
