/**
 * Finding the fragments of the chunks table whose data files are lost or cut
 * short. One such file made every scan fail (Lance reads every fragment a
 * scan covers), so status, list, query and sync all stopped at a raw Lance
 * error. Knowing the fragments, reads go around them (readable-clone.ts) and
 * a sync drops them (index-repair.ts).
 *
 * On a local disk the manifest names each fragment's files and their sizes
 * (lance-manifest.ts): a stat a file tells a lost or resized one, and a file
 * whose last bytes are not Lance's footer magic is cut short even where no
 * size was recorded. That takes a few ms, so every new table version is
 * checked. Each fragment's deletion file is checked as well
 * (deletion-files.ts): every read of the fragment opens it too. On object storage (issue 37) the same check is made from the
 * version's manifest and one listing of data/ through the index's own
 * requests (object-api.ts): a few requests, where asking LanceDB (below) took
 * 9.6 s at 100,000 chunks on moto with 20 ms a request, the whole of a new
 * reader's opening of the index. An object is written whole by one PUT, so
 * its size is the check there, without the footer. Where the index has no
 * requests of its own (gs://, a profile), LanceDB is asked: one row of each
 * fragment is read with every column, which opens each of its data files (a
 * read through a row address touches only that row's fragment).
 */
import type { Table } from "@lancedb/lancedb";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { TABLE_NAME } from "./create-table.ts";
import { deletionFileProblem } from "./deletion-files.ts";
import { manifestNames, parseManifestFragments, readManifestFragments, type ManifestDataFile, type ManifestDeletionFile, type ManifestFragment } from "./lance-manifest.ts";
import type { IndexLocation } from "./index-location.ts";
import { inParallel, REQUESTS_AT_ONCE, type StoreObjects } from "./object-api.ts";

export interface LostFragment {
  id: number;
  /** Rows it held: chunks that only a re-ingest brings back; null where not known (a lost deletion file found by asking LanceDB). */
  rows: number | null;
  /** Its files that are gone or damaged, each with what is wrong ("data/ab12.lance is missing"). */
  problems: string[];
  /** Its deletion file, when that is among them: no read of the fragment, not even the delete that drops it, gets past it (deletion-files.ts). */
  deletion?: ManifestDeletionFile;
}

/** A row address is the fragment id in the high 32 bits and the row's offset in the low 32. */
const FRAGMENT_SHIFT = 32n;

/** The table's folder on this machine's disk (the chunks table unless named). */
export function tableDir(dbPath: string, name = TABLE_NAME): string {
  return resolve(dbPath, `${name}.lance`);
}

/**
 * Deletion files on object storage found whole before, by name and size: a
 * deletion file is written once under a name of its own, so one whose listed
 * size is unchanged is not read again at each new version (a GET each).
 */
export type VerifiedDeletions = Map<string, number>;

/** Fragments of the version `table` reads whose files are lost or damaged; empty for a whole table. */
export async function findLostFragments(table: Table, location: IndexLocation, verified: VerifiedDeletions = new Map(), name = TABLE_NAME): Promise<LostFragment[]> {
  if (location.isLocal) {
    const dir = tableDir(location.path, name);
    const fragments = readManifestFragments(dir, await table.version());
    if (fragments) return withProblems(fragments, (file) => fileProblem(join(dir, "data"), file), (file) => deletionFileProblem(file, readIfThere(join(dir, "_deletions", file.path))));
  } else {
    const objects = location.objects;
    const found = objects && (await lostInStore(objects, await table.version(), verified, name));
    if (found) return found;
  }
  return probeFragments(table);
}

function withProblems(
  fragments: ManifestFragment[],
  problemOf: (file: ManifestDataFile) => string | null,
  deletionProblemOf: (file: ManifestDeletionFile) => string | null,
): LostFragment[] {
  return fragments.flatMap((fragment) => {
    const problems = fragment.files.flatMap((file) => problemOf(file) ?? []);
    const deletionProblem = fragment.deletion && deletionProblemOf(fragment.deletion);
    if (deletionProblem) problems.push(deletionProblem);
    if (!problems.length) return [];
    return [{ id: fragment.id, rows: fragment.rows, problems, ...(deletionProblem ? { deletion: fragment.deletion! } : {}) }];
  });
}

function readIfThere(path: string): Uint8Array | null {
  return existsSync(path) ? readFileSync(path) : null;
}

/** The lost fragments of `version` on object storage, from its manifest and a listing of data/; null when its manifest is not found or not read as expected. */
export async function lostInStore(objects: StoreObjects, version: number, verified: VerifiedDeletions = new Map(), name = TABLE_NAME): Promise<LostFragment[] | null> {
  const folder = `${name}.lance`;
  let manifest: Uint8Array | null = null;
  for (const name of manifestNames(version)) {
    manifest = await objects.bytes(`${folder}/_versions/${name}`);
    if (manifest) break;
  }
  const fragments = manifest && parseManifestFragments(manifest, version);
  if (!fragments) return null;
  const data = `${folder}/data/`;
  const [sizes, deletions] = await Promise.all([
    objects.list(data).then((listed) => new Map(listed.map((f) => [f.key.slice(data.length), f.size]))),
    deletionBytes(objects, `${folder}/_deletions/`, fragments, verified),
  ]);
  return withProblems(
    fragments,
    ({ path, size }) => {
      const stored = sizes.get(path);
      if (stored === undefined) return `data/${path} is missing`;
      return size !== null && stored !== size ? `data/${path} is ${stored} bytes where the index recorded ${size}` : null;
    },
    (file) => {
      const found = deletions.get(file.path);
      if (found === "verified") return null;
      const problem = deletionFileProblem(file, found?.bytes ?? null);
      if (!problem && found) verified.set(file.path, found.size);
      return problem;
    },
  );
}

/**
 * Each deletion file the fragments name that the store has: "verified" when
 * found whole before at its listed size, else its bytes (a few kB each; one
 * listing, then a request for each new one, a few at once).
 */
async function deletionBytes(objects: StoreObjects, folder: string, fragments: ManifestFragment[], verified: VerifiedDeletions): Promise<Map<string, "verified" | { bytes: Uint8Array; size: number }>> {
  const named = fragments.flatMap((f) => f.deletion?.path ?? []);
  const found = new Map<string, "verified" | { bytes: Uint8Array; size: number }>();
  if (!named.length) return found;
  const sizes = new Map((await objects.list(folder)).map((f) => [f.key.slice(folder.length), f.size]));
  const toRead: string[] = [];
  for (const path of named) {
    const size = sizes.get(path);
    if (size === undefined) continue;
    if (verified.get(path) === size) found.set(path, "verified");
    else toRead.push(path);
  }
  await inParallel(toRead, REQUESTS_AT_ONCE, async (path) => {
    const bytes = await objects.bytes(folder + path);
    if (bytes) found.set(path, { bytes, size: sizes.get(path)! });
  });
  return found;
}

/** What is wrong with a data file, or null when it is there, of its recorded size, and ends in Lance's footer. */
export function fileProblem(dataDir: string, file: ManifestDataFile): string | null {
  const name = `data/${file.path}`;
  let size: number;
  try {
    size = statSync(join(dataDir, file.path)).size;
  } catch {
    return `${name} is missing`;
  }
  if (file.size !== null && size !== file.size) return `${name} is ${size} bytes where the index recorded ${file.size}`;
  return endsInLanceFooter(join(dataDir, file.path), size) ? null : `${name} does not end in a Lance footer (cut short or overwritten)`;
}

/** Lance data files end in the magic "LANC" (the footer the reader opens first). */
function endsInLanceFooter(path: string, size: number): boolean {
  if (size < 4) return false;
  const tail = new Uint8Array(4);
  const fd = openSync(path, "r");
  try {
    readSync(fd, tail, 0, 4, size - 4);
  } finally {
    closeSync(fd);
  }
  return new TextDecoder().decode(tail) === "LANC";
}

/**
 * Through LanceDB alone: the row addresses (read without opening any data
 * file) give each fragment and its rows; one row of each, read with every
 * column, opens all of its files.
 */
export async function probeFragments(table: Table): Promise<LostFragment[]> {
  let addresses: BigUint64Array;
  try {
    // An empty table answers with no column at all (LanceDB 0.31.0), hence none to read.
    addresses = ((await table.query().select(["_rowaddr"]).toArrow()).getChild("_rowaddr")?.toArray() ?? []) as BigUint64Array;
  } catch (error) {
    // Reading the addresses opens every deletion file: a lost one is named, though not how many rows its fragment held.
    const lost = missingDeletionFile(error);
    if (lost) return [lost];
    throw error;
  }
  const fragments = new Map<bigint, { first: bigint; rows: number }>();
  for (const address of addresses) {
    const id = address >> FRAGMENT_SHIFT;
    const known = fragments.get(id);
    if (known) known.rows++;
    else fragments.set(id, { first: address, rows: 1 });
  }
  const lost: LostFragment[] = [];
  for (const [id, { first, rows }] of fragments) {
    try {
      await table.takeRowIds([first]).toArray();
    } catch (error) {
      lost.push({ id: Number(id), rows, problems: [missingObject(error) ?? lanceReason(error)] });
    }
  }
  return lost;
}

/** The fragment of a deletion file that Lance's error says is not found (`_deletions/<fragment>-<read version>-<id>.<arrow|bin>`), else null. */
function missingDeletionFile(error: unknown): LostFragment | null {
  const found = /_deletions\/((\d+)-\d+-\d+\.(arrow|bin))/.exec(error instanceof Error ? error.message : String(error));
  if (!found || !/not found/i.test(String(error))) return null;
  const [, path, fragment, kind] = found;
  return { id: Number(fragment), rows: null, problems: [`_deletions/${path} is missing`], deletion: { path: path!, bitmap: kind === "bin", rows: null } };
}

/** "data/<file>.lance is missing" for an object store's not-found answer, as a local disk's check says it; else null. */
function missingObject(error: unknown): string | null {
  const file = /Object at location \S*?(data\/[^\s/]+\.lance) not found/.exec(error instanceof Error ? error.message : String(error))?.[1];
  return file ? `${file} is missing` : null;
}

/** A Lance error's first line without the Rust source location it carries. */
export function lanceReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // An object store's answer follows as XML (the S3 error document): its status line says enough.
  return message.split(/\s+Caused by:/)[0]!.split(/:\s*<\?xml/)[0]!.replace(/,\s*\/\S+\.rs:\d+:\d+/g, "").trim();
}

/** The filter that selects every row of the given fragments, by row address (Lance drops a fragment so selected whole, without reading it). */
export function fragmentFilter(fragments: { id: number }[]): string {
  return fragments.map(({ id }) => `(_rowaddr >= ${BigInt(id) << FRAGMENT_SHIFT} AND _rowaddr < ${(BigInt(id) + 1n) << FRAGMENT_SHIFT})`).join(" OR ");
}
