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

/** The chunks the lost fragments held, or null when one of them does not say (lost-fragments.ts). */
export function lostChunkCount(damage: IndexDamage): number | null {
  return chunksOf(damage.fragments);
}

export function chunksOf(fragments: LostFragment[]): number | null {
  return fragments.some((f) => f.rows === null) ? null : fragments.reduce((sum, f) => sum + f.rows!, 0);
}

function chunkCount(count: number | null): string {
  return count === null ? "an unknown number of chunks" : plural(count, "chunk");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "data file" while every problem is a data file's ("data/ab12.lance is missing"), else "file" (a deletion file is among them). */
export function lostFileWord(problems: string[]): string {
  return problems.every((p) => p.startsWith("data/")) ? "data file" : "file";
}

/** True when a lost deletion file is among the damage: no read of its fragment gets past it, not even a clone's (readable-clone.ts). */
function deletionLost(damage: IndexDamage): boolean {
  return damage.fragments.some((f) => f.deletion);
}

/** Which files are lost or damaged, and how many chunks they held. */
function damageFacts(dbPath: string, damage: IndexDamage): string {
  const problems = damage.fragments.flatMap((f) => f.problems);
  const named = problems.slice(0, NAMED).join("; ") + (problems.length > NAMED ? `; and ${problems.length - NAMED} more` : "");
  return `${plural(problems.length, lostFileWord(problems))} of the index at ${dbPath} ${problems.length === 1 ? "is" : "are"} lost or damaged (${named}), with ${chunkCount(lostChunkCount(damage))} in ${problems.length === 1 ? "it" : "them"}.`;
}

/** Status's account of the damage: which files, how many chunks, and what still works. */
export function describeDamage(dbPath: string, damage: IndexDamage): string {
  const reads = readsGoAround(dbPath, damage)
    ? "Searches, listings and reads answer from the rest of the index."
    : `Searches, listings and reads fail until then (${cannotGoAround(dbPath, damage)}).`;
  return `${damageFacts(dbPath, damage)} ${reads}`;
}

/** Reads of a damaged index that cannot go around its lost files: on object storage LanceDB 0.31.0 cannot make the shallow clone reads use locally (readable-clone.ts), and no read gets past a lost deletion file; so the reads are refused by name. */
export function damagedReadError(dbPath: string, damage: IndexDamage): AppError {
  return new AppError("INDEX", `${damageFacts(dbPath, damage)} Reads fail until a sync repairs it: ${cannotGoAround(dbPath, damage)}.`, REPAIR_HINT);
}

/** Whether reads can answer from the rest of a damaged index (a local one whose lost files are all data files). */
export function readsGoAround(dbPath: string, damage: IndexDamage): boolean {
  return isLocalPath(dbPath) && !deletionLost(damage);
}

function cannotGoAround(dbPath: string, damage: IndexDamage): string {
  return deletionLost(damage) ? "every read of the table opens each deletion file" : "on object storage they cannot go around lost files yet";
}

/** The notice an answer read from a damaged index carries. */
export function damageNotice(damage: IndexDamage): string {
  return `The index lost ${chunkCount(lostChunkCount(damage))} with a damaged data file: this answer comes from the rest of it. ${REPAIR_HINT}`;
}

/** Writes other than sync's repair wait for it: they would otherwise stop at the lost file halfway. */
export function damagedIndexError(dbPath: string, damage: IndexDamage): AppError {
  return new AppError("INDEX", `${damageFacts(dbPath, damage)} Other writes wait until sync has repaired it.`, REPAIR_HINT);
}
