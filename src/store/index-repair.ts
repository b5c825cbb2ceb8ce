/**
 * Sync's repair of a damaged index, before it reads or writes anything else.
 *
 * Fragments whose data files are lost or cut short are dropped in one
 * commit: a delete that selects their rows by row address, which Lance
 * carries out by removing the fragments from the next manifest without
 * opening their files (checked on LanceDB 0.31.0, with a fragment's file
 * missing and cut short). Being one commit it is atomic under a kill -9, and
 * Lance's conflict rules let it land beside other writers' commits, on any
 * storage LanceDB writes to. The chunks it drops were unreadable already; the
 * sync that follows ingests their files again (they are then missing or
 * incomplete in the index), and the source catalog (source-catalog.ts) names
 * the data and url items no sync can rebuild.
 *
 * Indexes that are missing or unreadable (their files were lost) are built
 * again at every sync, whatever else changed: before, only a sync that wrote
 * something rebuilt them, and a move failed on the lost index first.
 */
import type { Table } from "@lancedb/lancedb";
import { fragmentFilter, findLostFragments } from "./lost-fragments.ts";
import { ensureIndexes } from "./table-upkeep.ts";

export interface IndexRepair {
  /** The files dropped with their fragments (what was wrong with each), and the chunks they held. */
  dropped: { problems: string[]; chunks: number } | null;
  /** Index columns built again because their index was missing or unreadable. */
  rebuilt: string[];
}

export async function repairTable(table: Table, dbPath: string): Promise<IndexRepair> {
  const lost = await findLostFragments(table, dbPath);
  if (lost.length) await table.delete(fragmentFilter(lost));
  const { built } = await ensureIndexes(table);
  return {
    dropped: lost.length ? { problems: lost.flatMap((f) => f.problems), chunks: lost.reduce((sum, f) => sum + f.rows, 0) } : null,
    rebuilt: built,
  };
}

/** Sync's account of a repair, or null when there was nothing to repair. */
export function describeRepair(repair: IndexRepair): string | null {
  const parts: string[] = [];
  if (repair.dropped) {
    const { problems, chunks } = repair.dropped;
    parts.push(
      `Dropped ${chunks} chunk${chunks === 1 ? "" : "s"} whose data file${problems.length === 1 ? " was" : "s were"} lost or damaged (${problems.join("; ")}); the files they came from were ingested again (a scoped sync ingests only those in its scope, the next full sync the rest).`,
    );
  }
  if (repair.rebuilt.length) parts.push(`Rebuilt the ${repair.rebuilt.join(", ")} index${repair.rebuilt.length === 1 ? "" : "es"}, which ${repair.rebuilt.length === 1 ? "was" : "were"} missing or unreadable.`);
  return parts.length ? parts.join(" ") : null;
}
