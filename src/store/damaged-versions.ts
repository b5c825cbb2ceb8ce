/**
 * A table whose newest version's manifest is cut short or overwritten (a
 * backup restored halfway, a copy of the index folder that stopped): LanceDB
 * opens a table at its newest version, so every open failed with "file size
 * is too small" and nothing, not status, a query or a sync, got past it. A
 * manifest is written whole and once (Lance commits by creating it), so a
 * crash of ours leaves none such; only a copy or a disk does.
 *
 * The repair sets the damaged manifest aside, into `damaged-versions/` beside
 * the tables (LanceDB lists only `*.lance` folders there), keeping its bytes.
 * The table then opens at the version before, which LanceDB also does when
 * the newest manifest is missing (checked on 0.31.0, with the version hint
 * still naming the newer one), and the sync that follows ingests again what
 * that version had changed: the folder's files differ from what the index
 * holds. Local indexes only: on object storage a manifest is one PUT that
 * lands whole.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import { AppError } from "../errors.ts";
import { manifestVersion, readsAsManifest } from "./lance-manifest.ts";

const ASIDE = "damaged-versions";

/** Where damaged parts of an index are set aside: a folder beside its tables, which LanceDB does not list as one. */
export function asideFolder(dbPath: string): string {
  return join(dbPath, ASIDE);
}

/** Versions set aside at most in one repair: more than a few damaged in a row is not a copy cut short, and the rest is left alone. */
const MOST_SET_ASIDE = 8;

export interface DamagedVersion {
  table: string;
  version: number;
  /** The manifest's file name in `_versions/`. */
  name: string;
}

/** The newest version of a local table when its manifest does not read as one, else null (also without a table folder). */
export function damagedNewestVersion(dbPath: string, table: string): DamagedVersion | null {
  const folder = join(dbPath, `${table}.lance`, "_versions");
  if (!existsSync(folder)) return null;
  let newest: { version: number; name: string } | null = null;
  for (const name of readdirSync(folder)) {
    const version = manifestVersion(name);
    if (version !== null && (!newest || version > newest.version)) newest = { version, name };
  }
  if (!newest || readsAsManifest(readFileSync(join(folder, newest.name)), newest.version)) return null;
  return { table, ...newest };
}

function where(dbPath: string, damaged: DamagedVersion): string {
  return `${join(dbPath, `${damaged.table}.lance`, "_versions", damaged.name)} (version ${damaged.version})`;
}

/** The error every open of such a table gives, naming the file and the fix. */
export function damagedVersionError(dbPath: string, damaged: DamagedVersion): AppError {
  return new AppError(
    "INDEX",
    `The newest version of the index at ${dbPath} cannot be read: its manifest ${where(dbPath, damaged)} is cut short or overwritten. Nothing can read or write the index until a sync repairs it.`,
    `Run sync (sync_start, or minirag-mcp sync): it sets that version aside in ${asideFolder(dbPath)}, goes on from the version before, and ingests again the files that version had changed.`,
  );
}

/** Sets aside each damaged newest version of the table, newest first, until one reads; what was set aside, in that order. */
export function setAsideDamagedVersions(dbPath: string, table: string): DamagedVersion[] {
  const setAside: DamagedVersion[] = [];
  for (let damaged = damagedNewestVersion(dbPath, table); damaged && setAside.length < MOST_SET_ASIDE; damaged = damagedNewestVersion(dbPath, table)) {
    const aside = join(asideFolder(dbPath), `${table}.lance`, "_versions");
    // Stamped: a version number set aside before (then committed again) keeps its earlier bytes too.
    moveAside(join(dbPath, `${table}.lance`, "_versions", damaged.name), join(aside, `${Date.now()}-${damaged.name}`));
    setAside.push(damaged);
  }
  return setAside;
}

/**
 * Moves a file or folder into damaged-versions/: a rename, or where that
 * folder lies on another file system than the table (a table folder linked
 * elsewhere), a copy and then a removal.
 */
export function moveAside(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    cpSync(from, to, { recursive: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/** Sets aside the damaged newest versions of each table of a local index; sync's account of it, or null when there were none. */
export function setAsideDamagedTables(dbPath: string, tables: string[]): string | null {
  if (!isLocalPath(dbPath)) return null;
  const accounts = tables.flatMap((table) => {
    const setAside = setAsideDamagedVersions(dbPath, table);
    if (!setAside.length) return [];
    const versions = setAside.map((d) => d.version).join(", ");
    const left = readdirSync(join(dbPath, `${table}.lance`, "_versions")).some((name) => manifestVersion(name) !== null);
    const then = left ? "the table went on from the version before" : "no version was left, so the table was started afresh";
    return [`${table} version${setAside.length === 1 ? "" : "s"} ${versions}; ${then}`];
  });
  if (!accounts.length) return null;
  return `Set aside the damaged newest versions of the index (manifests cut short or overwritten) in ${asideFolder(dbPath)}: ${accounts.join("; ")}. The files changed since were ingested again (an ingest-data or ingest-url item written in a version set aside is not in the index any more: ingest it again).`;
}
