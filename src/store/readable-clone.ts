/**
 * Reading a damaged index from what is left of it, without changing it.
 *
 * Lance reads every fragment a scan or a search covers. A filter on row
 * addresses keeps a plain scan off a lost fragment, but a search, or a filter
 * on any other column beside it, still opened the lost file (LanceDB 0.31.0),
 * so no query form can be relied on to skip one. Instead,
 * reads go to a shallow clone (LanceDB's cloneTable: a new manifest that
 * points at the index's own data and index files, copying none) from which
 * the lost fragments are deleted: one commit in the clone, none in the
 * index, so a read-only DB_PATH works and a sync can still see what was lost.
 * Every reader (searches, listings, labels, mentions, look-alikes) then reads
 * a whole table. The clone is checked out at its version, so LanceDB refuses
 * any write through it.
 *
 * The clone is a few kB of manifests in the system's temp folder, under
 * this process's id: removed when this process replaces it or exits, and by
 * any later process once its owner is gone (a kill -9). That folder is the
 * one local step: an index on object storage (issue 37) would still clone
 * into it, reading the data files where they are.
 */
import type { Table } from "@lancedb/lancedb";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { TABLE_NAME } from "./create-table.ts";
import { fragmentFilter, tableDir, type LostFragment } from "./lost-fragments.ts";

const PREFIX = "minirag-readable-";
const clones = new WeakSet<Table>();
const liveFolders = new Set<string>();
let cleanupHooked = false;

/** A read-only table of `version` without the given fragments, and how to let it go. */
export interface ReadableClone {
  table: Table;
  dispose(): void;
}

/** True for a table this module made: readers key their per-version facts apart from the index's own. */
export function isReadableClone(table: Table): boolean {
  return clones.has(table);
}

export async function readableClone(dbPath: string, version: number, lost: LostFragment[]): Promise<ReadableClone> {
  sweepOrphans();
  const lance = await loadLanceDb();
  const folder = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  track(folder);
  const dispose = () => {
    liveFolders.delete(folder);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const source = isLocalPath(dbPath) ? tableDir(dbPath) : `${dbPath.replace(/\/+$/, "")}/${TABLE_NAME}.lance`;
    const clone = await (await lance.connect(folder)).cloneTable(TABLE_NAME, source, { sourceVersion: version, isShallow: true });
    await clone.delete(fragmentFilter(lost));
    await clone.checkout(await clone.version());
    clones.add(clone);
    return { table: clone, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

function track(folder: string): void {
  liveFolders.add(folder);
  if (cleanupHooked) return;
  cleanupHooked = true;
  process.on("exit", () => {
    for (const left of liveFolders) rmSync(left, { recursive: true, force: true });
  });
}

/** Removes clones whose process is gone (killed before its exit hook ran). */
function sweepOrphans(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^minirag-readable-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
