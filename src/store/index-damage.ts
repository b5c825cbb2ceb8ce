/** What a damaged index tells its users: status's sentence, the notice on answers, the error a write gets. */
import { isLocalPath } from "../config/db-location.ts";
import { AppError } from "../errors.ts";
import type { LostFragment } from "./lost-fragments.ts";

/** The lost fragments of one table version. */
export interface IndexDamage {
  version: number;
  fragments: LostFragment[];
}

/** How many problems a sentence names before it says "and N more". */
const NAMED = 3;

export const REPAIR_HINT =
  "Run sync (sync_start, or minirag-mcp sync) to repair it: sync drops the lost chunks, ingests the files they came from again, and names any ingest-data or ingest-url source it cannot rebuild.";

export function lostChunkCount(damage: IndexDamage): number {
  return damage.fragments.reduce((sum, f) => sum + f.rows, 0);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Which files are lost or damaged, and how many chunks they held. */
function damageFacts(dbPath: string, damage: IndexDamage): string {
  const problems = damage.fragments.flatMap((f) => f.problems);
  const named = problems.slice(0, NAMED).join("; ") + (problems.length > NAMED ? `; and ${problems.length - NAMED} more` : "");
  return `${plural(problems.length, "data file")} of the index at ${dbPath} ${problems.length === 1 ? "is" : "are"} lost or damaged (${named}), with ${plural(lostChunkCount(damage), "chunk")} in ${problems.length === 1 ? "it" : "them"}.`;
}

/** Status's account of the damage: which files, how many chunks, and what still works. */
export function describeDamage(dbPath: string, damage: IndexDamage): string {
  const reads = isLocalPath(dbPath) ? "Searches, listings and reads answer from the rest of the index." : "Searches, listings and reads fail until then (on object storage they cannot go around lost files yet).";
  return `${damageFacts(dbPath, damage)} ${reads}`;
}

/** Reads of a damaged index on object storage: LanceDB 0.31.0's shallow clone of an s3:// table, which reads go around lost files with locally, fails inside Lance, so the reads are refused by name. */
export function damagedReadError(dbPath: string, damage: IndexDamage): AppError {
  return new AppError("INDEX", `${damageFacts(dbPath, damage)} Reads cannot go around lost files on object storage yet.`, REPAIR_HINT);
}

/** The notice an answer read from a damaged index carries. */
export function damageNotice(damage: IndexDamage): string {
  return `The index lost ${plural(lostChunkCount(damage), "chunk")} with a damaged data file: this answer comes from the rest of it. ${REPAIR_HINT}`;
}

/** Writes other than sync's repair wait for it: they would otherwise stop at the lost file halfway. */
export function damagedIndexError(dbPath: string, damage: IndexDamage): AppError {
  return new AppError("INDEX", `${damageFacts(dbPath, damage)} Other writes wait until sync has repaired it.`, REPAIR_HINT);
}
