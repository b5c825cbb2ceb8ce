/**
 * A local copy of a table on S3, for reading. LanceDB 0.31 caches nothing
 * between queries on object storage: a warm hybrid query made about 15
 * requests (each read listed `_versions/` again, then read data and index
 * files), 103 ms against moto on localhost and 213 ms with 20 ms per request
 * (docs/team-index.md). Lance files never change once written and a version's
 * manifest names only files written before it, so a version can be copied
 * file by file and read from the local disk: a query then asks the store only
 * for the latest version.
 *
 * A version is copied in the background while queries read the bucket as
 * before; once every file of it is here, snapshots of that version read the
 * copy (chunk-store.ts). Copies live in CACHE_DIR/index-copies, one folder per
 * index, and outlive the process, so only the first process on a machine
 * waits. Files the bucket no longer lists (compacted away) are deleted from
 * the copy one refresh later, when no view of this process reads them.
 */
import type { Connection } from "@lancedb/lancedb";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import type { ObjectStorage } from "../config/object-storage.ts";
import { describeError } from "../errors.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { inParallel, REQUESTS_AT_ONCE, type ListedObject, type StoreObjects } from "./object-api.ts";
import { storeObjects } from "./store-objects.ts";
import { manifestTags, replacedInStore } from "./copy-history.ts";
import { filesOfVersion, readState, writeState, type CopyState } from "./copy-state.ts";
import { MAX_U64 } from "./lance-manifest.ts";

/**
 * How long a reader's first query waits for its first copy, at most. At
 * 100,000 chunks on moto with 20 ms a request, a new reader's first query read
 * the bucket for 51.6 s; filling the copy first and reading it took 6.5 s. A
 * query stops waiting sooner when the copy's pace says it would take longer.
 */
export const FIRST_COPY_WAIT_MS = 15_000;
/** How often a waiting query looks at the copy's pace, and how long the copy runs before its pace is judged. */
const PACE_CHECK_MS = 250;
const PACE_JUDGED_AFTER_MS = 1_000;

/** How often a process serving a copy asks the store whether the table was replaced (copy-history.ts): one listing of `_versions/`. */
export const HISTORY_CHECK_MS = 10_000;
/** How often, at most, an answer asked at a version below the copy's waits for that check. */
const WENT_BACK_CHECK_MS = 1_000;

/** How long after a failed copy the next is tried (a connection reset, a store that was away). */
export const RETRY_MS = 60_000;

const isManifest = (f: ListedObject) => f.key.includes("/_versions/");

export class ObjectMirror {
  /** When (by its clock) the last copy this process made whole ended: for benchmarks. */
  lastCopyEndedAt: number | null = null;
  private state: CopyState | null;
  /** A copy was on disk when this process began (an earlier process made it): questions never wait for one. */
  private readonly foundOnDisk: boolean;
  /** A question has read the copy: later ones read the store while a newer version is copied. */
  private servedACopy = false;
  /** Copies dropped because the table in the store was replaced: a store reading through LanceDB's own handle forgets it too. */
  replacements = 0;
  private historyCheck: Promise<void> | null = null;
  private historyCheckedAt = Number.NEGATIVE_INFINITY;
  private copying: Promise<void> | null = null;
  private connection: Promise<Connection> | null = null;
  /** When a copy last failed: none is tried again for RETRY_MS, so a store that refuses the reads does not cost a copy per query. */
  private failedAt = Number.NEGATIVE_INFINITY;
  /**
   * The copy under way: bytes to fetch (null while the store is still being
   * listed), bytes of files fetched whole, files being fetched (their partial
   * paths), and when the downloads began.
   */
  private progress: { total: number | null; fetched: number; partials: Set<string>; started: number } = { total: null, fetched: 0, partials: new Set(), started: 0 };

  /**
   * fill: copy versions this process reads. A long-lived process (the MCP
   * server) does; a one-shot CLI command only reads a copy already made, since
   * it would otherwise wait to exit until the whole index was downloaded.
   */
  constructor(
    private readonly objects: StoreObjects,
    readonly folder: string,
    private readonly table: string,
    private readonly log: (line: string) => void,
    private readonly fill = true,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {
    this.state = readState(folder);
    this.foundOnDisk = this.state !== null;
  }

  /**
   * A connection to the local copy when it holds `version` whole, else null,
   * and a copy of `version` starts unless one is under way, one failed less
   * than RETRY_MS ago, or this process does not fill. Never throws: a copy
   * that fails leaves reads on the bucket.
   */
  async at(version: number): Promise<Connection | null> {
    if (this.holds(version)) {
      // Until a first check has ended, answers wait for it: the copy on disk may be of a table since replaced in the store.
      // Later checks run beside the answers, which read the copy meanwhile. A store whose latest version is below the
      // copy's went back, which only a table built anew does: that answer waits for a check (at most one a second). A
      // probe's reader answered two questions from the old table's early version, rows neither table then held.
      const checkedBefore = this.historyCheckedAt !== Number.NEGATIVE_INFINITY;
      const wentBack = this.state!.version > version;
      const check = this.checkHistory(wentBack ? WENT_BACK_CHECK_MS : HISTORY_CHECK_MS);
      if (!checkedBefore || wentBack) await check;
    }
    if (this.holds(version)) {
      this.connection ??= loadLanceDb().then((lance) => lance.connect(this.folder, { readConsistencyInterval: 0 }));
      return this.connection;
    }
    if (this.fill && !this.copying && this.clock.now() - this.failedAt > RETRY_MS) {
      this.progress = { total: null, fetched: 0, partials: new Set(), started: this.clock.now() };
      this.copying = this.copy(version)
        .catch((error) => {
          this.failedAt = this.clock.now();
          this.log(`warn: reads of ${this.objects.where} stay on the store: the local copy of version ${version} failed (${describeError(error)})`);
        })
        .finally(() => (this.copying = null));
    }
    return null;
  }

  /**
   * As at(), but a process that found no copy on disk waits, until a question
   * has read one, for the copy of the version asked while that is expected to
   * end within FIRST_COPY_WAIT_MS (a new reader's first query); past that it
   * reads the store, as at() does. The copy its opening started may be of an
   * older version than the question's (the writer committed meanwhile): the
   * copy of the newer files that follows is waited for within the same time.
   */
  async atFirst(version: number): Promise<Connection | null> {
    const ready = await this.at(version);
    if (ready || this.foundOnDisk || this.servedACopy) return this.served(ready);
    const deadline = this.clock.now() + FIRST_COPY_WAIT_MS;
    while (this.copying) {
      if (!(await this.waitForCopy(this.copying, deadline))) return null;
      const copied = await this.at(version);
      if (copied) return this.served(copied);
    }
    return null;
  }

  private served(connection: Connection | null): Connection | null {
    if (connection) this.servedACopy = true;
    return connection;
  }

  /** True once `copying` has settled; false when it would end past `deadline` at its pace, or has not by then. */
  private waitForCopy(copying: Promise<void>, deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      let cancel = () => {};
      const stop = (settled: boolean) => {
        cancel();
        resolve(settled);
      };
      copying.then(() => stop(true), () => stop(true));
      const check = () => {
        const now = this.clock.now();
        const { total, started } = this.progress;
        const copied = this.copiedBytes();
        const running = now - started;
        // When the whole copy would end at its pace so far; a listing still under way is not judged, only capped.
        const expectedEnd = total === null ? null : copied > 0 ? started + (running * total) / copied : Number.POSITIVE_INFINITY;
        const tooSlow = expectedEnd !== null && running >= PACE_JUDGED_AFTER_MS && expectedEnd > deadline;
        if (now >= deadline || tooSlow) return stop(false);
        cancel = this.clock.after(PACE_CHECK_MS, check, true);
      };
      cancel = this.clock.after(PACE_CHECK_MS, check, true);
    });
  }

  /** Bytes of the copy under way that are here: whole files, and what the files being fetched hold so far. */
  private copiedBytes(): number {
    let bytes = this.progress.fetched;
    for (const partial of this.progress.partials) bytes += fileSize(partial);
    return bytes;
  }

  /** Settles when the copy under way (if any) has finished; for tests and benchmarks. */
  async settled(): Promise<void> {
    await this.copying;
  }

  private holds(version: number): boolean {
    return this.state !== null && this.state.version >= version && this.hasManifest(version);
  }

  /** At most every `every` ms: drops the copy when the store lists another manifest under a name it holds. A failed check keeps it. */
  private checkHistory(every: number): Promise<void> {
    if (this.historyCheck) return this.historyCheck;
    if (this.clock.now() - this.historyCheckedAt < every) return Promise.resolve();
    this.historyCheck = this.objects
      .list(`${this.table}.lance/_versions/`)
      .then((listed) => this.dropIfReplaced(listed), () => {})
      .finally(() => {
        this.historyCheckedAt = this.clock.now();
        this.historyCheck = null;
      });
    return this.historyCheck;
  }

  private dropIfReplaced(listed: ListedObject[]): void {
    if (!this.state || !replacedInStore(listed, this.state.manifests, this.folder)) return;
    this.log(`warn: the index at ${this.objects.where} was replaced in the store (deleted and built again): its local copy is dropped and made anew`);
    // The copy holds no version now and no manifest (a question under way has read its own already); its other files,
    // no longer listed, go a refresh later, so such a question finishes. The next copy fetches the manifests anew.
    this.state = { version: 0, files: this.state.files, unlisted: this.state.unlisted, manifests: {} };
    writeState(this.folder, this.state);
    rmSync(join(this.folder, `${this.table}.lance`, "_versions"), { recursive: true, force: true });
    this.connection = null;
    this.replacements++;
  }

  private hasManifest(version: number): boolean {
    const folder = join(this.folder, `${this.table}.lance`, "_versions");
    return existsSync(join(folder, `${MAX_U64 - BigInt(version)}.manifest`)) || existsSync(join(folder, `${version}.manifest`));
  }

  private async copy(version: number): Promise<void> {
    const listed = await this.objects.list(`${this.table}.lance/`);
    this.dropIfReplaced(listed);
    const wanted = filesOfVersion(listed, this.table, version);
    // Data before manifests: a manifest here means every file it names is here.
    // A manifest is here when the copy took it under the tag the store lists (another table's of that name may have its size).
    const taken = (f: ListedObject) => (isManifest(f) ? this.state?.manifests?.[f.key] === f.etag : true) && hasFile(join(this.folder, f.key), f.size);
    const missing = wanted.filter((f) => !taken(f));
    this.progress = { ...this.progress, total: missing.reduce((sum, f) => sum + f.size, 0), started: this.clock.now() };
    await inParallel(missing.filter((f) => !isManifest(f)), REQUESTS_AT_ONCE, (f) => this.fetchTo(f));
    await inParallel(missing.filter(isManifest), REQUESTS_AT_ONCE, (f) => this.fetchTo(f));
    const present = new Set(listed.map((f) => f.key));
    for (const key of this.state?.unlisted ?? []) if (!present.has(key)) rmSync(join(this.folder, key), { force: true });
    this.state = {
      version: Math.max(version, this.state?.version ?? 0),
      files: wanted.map((f) => f.key),
      unlisted: (this.state?.files ?? []).filter((key) => !present.has(key)),
      manifests: manifestTags(wanted),
    };
    writeState(this.folder, this.state);
    this.lastCopyEndedAt = this.clock.now();
  }

  private async fetchTo(file: ListedObject): Promise<void> {
    const path = join(this.folder, file.key);
    mkdirSync(dirname(path), { recursive: true });
    // Written beside and renamed: another process reading the copy never meets half a file.
    const partial = `${path}.${randomBytes(4).toString("hex")}.partial`;
    this.progress.partials.add(partial);
    try {
      if (!(await this.objects.download(file.key, partial))) throw new Error(`${file.key} went away while it was copied`);
      renameSync(partial, path);
      this.progress.fetched += file.size;
    } finally {
      this.progress.partials.delete(partial);
      rmSync(partial, { force: true });
    }
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function hasFile(path: string, size: number): boolean {
  try {
    return statSync(path).size === size;
  } catch {
    return false;
  }
}

/** Where an index's local copy lives: a folder per endpoint, bucket and prefix under CACHE_DIR. */
export function copyFolder(cacheDir: string, storage: ObjectStorage): string {
  const id = createHash("sha256").update(`${storage.endpoint ?? "aws"}\n${storage.uri}`).digest("hex").slice(0, 16);
  return join(cacheDir, "index-copies", id);
}

/**
 * The local copy reads of an index on object storage use, or undefined: the copy needs our
 * own signed requests (store-objects.ts), so only an s3:// or az:// index reached with keys has one.
 */
export function localCopyFor(storage: ObjectStorage, cacheDir: string, table: string, log: (line: string) => void, fill: boolean): ObjectMirror | undefined {
  const objects = storeObjects(storage);
  if (!objects) return undefined;
  return new ObjectMirror(objects, copyFolder(cacheDir, storage), table, log, fill);
}
