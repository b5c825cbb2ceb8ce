/**
 * How a store reaches its table: one connection, the table opened once and
 * shared by callers that ask at the same moment, the version a staged write
 * pins readers to (staged-source.ts), and facts read once per table version.
 * ChunkStore adds the reads and writes; its snapshot() is a ChunkStore whose
 * view is fixed at one version (isView). Reads go around lost data files and
 * writes wait for sync's repair (damage-watch.ts).
 */
import type { Connection, Table } from "@lancedb/lancedb";
import { existsSync } from "node:fs";
import { dbPathProblem, makeIndexFolder, missingRootProblem } from "./db-path.ts";
import { openCommitted, TABLE_NAME } from "./create-table.ts";
import { isLocalPath } from "../config/db-location.ts";
import { IndexLocation } from "./index-location.ts";
import { readStagingMarker } from "./staging-marker.ts";
import { canStage, stagingMarkers } from "./staging-markers.ts";
import { ANN_THRESHOLD } from "./vector-index.ts";
import { DamageWatch } from "./damage-watch.ts";
import { damagedIndexError, damageNotice, type IndexDamage } from "./index-damage.ts";
import { isReadableClone } from "./readable-clone.ts";
import type { ObjectMirror } from "./object-mirror.ts";
import { HOLDABLE_AGE_MS, QueryHold, type HoldTaken } from "./query-hold.ts";
import { manifestIdentity, tableFolderIdentity } from "./table-identity.ts";
import { damagedNewestVersion, damagedVersionError } from "./damaged-versions.ts";

export class TableView {
  protected table: Table | null = null;
  /** Promises, so the background model load and a first query asking at once share one connection and one open. */
  protected connection: Promise<Connection> | null = null;
  private opening: Promise<Table | null> | null = null;
  protected columns: Set<string> | null = null;
  /** Facts that only change with the table version (rows, rows waiting for vectors, indexed columns), shared with snapshots: read once per version, not per query. */
  protected perVersion = new Map<string, unknown>();
  /** A snapshot view reads its own version; a live store reads the one a staged write names (staged-source.ts). */
  protected isView = false;
  protected stagingView: { version: number; table: Table } | null = null;
  protected damageWatch: DamageWatch;
  /** A snapshot read from a clone of a damaged version carries its damage, for the notice on its answers. */
  protected viewDamage: IndexDamage | null = null;
  /** The table version a view reads (ChunkStore.snapshot); null for the live store. */
  pinnedAt: number | null = null;
  /** A view's durableVersion (set by ChunkStore.snapshot). */
  protected durable: string | null = null;
  /** On S3: the local copy snapshots read once it holds their version (object-mirror.ts); set by createApp. */
  localCopy: ObjectMirror | undefined;
  /** The version questions (ChunkStore.snapshot) stay on while a server loads the one its watcher writes (query-hold.ts). */
  readonly queryHold = new QueryHold();
  /** The table folder the open table is (tableFolderIdentity), and how many times it was replaced under this store: caches of whole-index reads key by both. */
  private tableIdentity: string | null = null;
  protected generation = 0;
  /** Each version's manifest file as this store first read that version (manifestIdentity). */
  private manifests = new Map<number, string>();

  /**
   * roots: the document roots, which writing or creating the index must never create (db-path.ts).
   * location: what reaching dbPath takes (index-location.ts); the App gives an object store's credentials there.
   */
  constructor(
    readonly dbPath: string,
    protected readonly annThreshold = ANN_THRESHOLD,
    readonly roots: readonly string[] = [],
    readonly location = new IndexLocation(dbPath),
  ) {
    if (location.path !== dbPath) throw new Error(`a store of ${dbPath} given the location of ${location.path}`);
    this.damageWatch = new DamageWatch(location);
  }

  /** True when an index exists on disk (status and reads need not load LanceDB otherwise); on object storage, LanceDB's table list decides. */
  exists(): boolean {
    return !isLocalPath(this.dbPath) || existsSync(this.dbPath);
  }

  protected connect(): Promise<Connection> {
    // LanceDB's connect creates the folder and its parents, so a missing root is refused before it can (db-path.ts).
    const missing = this.exists() ? null : missingRootProblem(this.dbPath, this.roots);
    if (missing) return Promise.reject(missing);
    this.connection ??= this.location.connect();
    // A failed connect is not kept: the next call tries again.
    this.connection.catch(() => (this.connection = null));
    return this.connection;
  }

  /** Throws the one clear error for a DB_PATH that is a file or, for a write, read-only or inside a missing root. */
  checkPath(forWrite: boolean): void {
    // The missing root first: without it, the nearest folder above is judged, and a read-only /media said "read-only".
    const problem = (forWrite ? missingRootProblem(this.dbPath, this.roots) : null) ?? dbPathProblem(this.dbPath, forWrite);
    if (problem) throw problem;
    // A folder that cannot be made fails here, once, and not in LanceDB for every file written.
    if (forWrite && !this.exists()) makeIndexFolder(this.dbPath, this.roots);
  }

  /** The table to read if it exists, else null: while data files of its version are lost, a clone without them. */
  async open(): Promise<Table | null> {
    if (this.isView) return this.table;
    const table = await this.openStored();
    return table && this.damageWatch.readable(table);
  }

  /** As open(), with the version of the stored table it chose (a snapshot pins it): one version lookup, not two. */
  protected async openWithVersion(): Promise<{ table: Table; version: number } | null> {
    let stored = await this.openStored();
    if (!stored) return null;
    let version = await this.versionOf(stored);
    if (!this.sameManifest(version)) {
      // LanceDB's handle would read the old table's manifest of that version from its cache: raw "Not found" errors.
      this.forgetTable();
      stored = await this.openStored();
      if (!stored) return null;
      version = await this.versionOf(stored);
      this.sameManifest(version);
    }
    return { table: await this.damageWatch.readable(stored, version), version };
  }

  /**
   * The version the open table reads now. A newest manifest cut short under a
   * handle opened before (damaged-versions.ts) fails this with Lance's "magic
   * number does not match": named with its fix instead, the handle forgotten.
   */
  private async versionOf(table: Table): Promise<number> {
    try {
      return await table.version();
    } catch (error) {
      const damaged = isLocalPath(this.dbPath) ? damagedNewestVersion(this.dbPath, TABLE_NAME) : null;
      if (!damaged) throw error;
      this.forgetTable();
      throw damagedVersionError(this.dbPath, damaged);
    }
  }

  /** False when `version`'s manifest is not the file this store read as that version before (manifestIdentity); the first time, notes it. */
  private sameManifest(version: number): boolean {
    const identity = manifestIdentity(this.dbPath, version);
    if (identity === null) return true;
    const known = this.manifests.get(version);
    if (known !== undefined) return known === identity;
    if (this.manifests.size >= 64) this.manifests.clear();
    this.manifests.set(version, identity);
    return true;
  }

  /**
   * What a snapshot reads, named for another process (cache files in CACHE_DIR key by it): the table folder, the
   * version and its manifest file, as this store checked them at the opening; a manifest is never rewritten. Null for
   * the live store, on object storage, and while reads go around lost files (rows can go without a new version).
   */
  durableVersion(): string | null {
    return this.durable;
  }

  /** durableVersion's value for a view of `version` of the table this store has open. */
  protected durableStamp(version: number): string | null {
    const manifest = this.manifests.get(version);
    return this.tableIdentity && manifest ? `${this.tableIdentity}|${version}|${manifest}` : null;
  }

  /** The lost data files reads go around now, or null when the index is whole. */
  async damage(): Promise<IndexDamage | null> {
    if (this.isView) return this.viewDamage;
    const table = await this.openStored();
    return table && this.damageWatch.damageOf(table, await this.versionOf(table));
  }

  /** The notice an answer read now carries while data files are lost (index-damage.ts), else undefined. */
  async damageNotice(): Promise<string | undefined> {
    const damage = await this.damage();
    return damage ? damageNotice(damage) : undefined;
  }

  /** The table as stored, for a write: refused while data files are lost, which only sync's repair may touch. */
  protected async openWritable(): Promise<Table | null> {
    const table = await this.openStored();
    if (!table) return null;
    const damage = await this.damageWatch.damageOf(table);
    if (damage) throw damagedIndexError(this.dbPath, damage);
    return table;
  }

  /**
   * Questions stay on the version there is now until queryHold is released or
   * runs out (query-hold.ts). Not held: without a table; on object storage,
   * whose questions follow a local copy (object-mirror.ts); while data files
   * are lost (questions read a clone, and sync's repair replaces the version);
   * a version older than HOLDABLE_AGE_MS, which the sync may prune.
   */
  async holdQueries(now = Date.now()): Promise<HoldTaken> {
    const since = this.queryHold.mark();
    const table = await this.openStored();
    if (!table || !isLocalPath(this.dbPath) || (await this.damageWatch.damageOf(table))) return null;
    const version = await table.version();
    const made = (await table.listVersions()).find((v) => v.version === version)?.timestamp;
    return made !== undefined && now - made.getTime() < HOLDABLE_AGE_MS ? this.queryHold.hold(version, since) : null;
  }

  /** The table as stored, damaged or not, if it exists. */
  protected async openStored(): Promise<Table | null> {
    // A large source is being written in batches: read the version from before it began (store/staged-source.ts).
    const staging = this.location.isLocal ? readStagingMarker(this.dbPath) : canStage(this.location) ? await stagingMarkers(this.location).read() : null;
    if (staging) return this.openAt(staging.version);
    if (this.table) {
      if (this.exists() && tableFolderIdentity(this.dbPath) === this.tableIdentity) return this.table;
      // The folder went away (with its root: an unplugged drive), or was deleted and built again. LanceDB would fail
      // every read on the handle it holds, or read the old table's files through its cache of manifests; forgotten,
      // reads see no index or the new one, and a write to a folder that is gone is refused by name (missingRootProblem).
      this.forgetTable();
    }
    this.checkPath(false);
    if (!this.exists()) return null;
    this.opening ??= this.openLatest().finally(() => (this.opening = null));
    return this.opening;
  }

  /** Drops the handle, the connection (whose cache holds the old table's manifests) and every fact read from the old table. */
  protected forgetTable(): void {
    this.table = null;
    this.connection = null;
    this.columns = null;
    this.stagingView = null;
    this.perVersion = new Map();
    this.damageWatch.forget();
    this.queryHold.release();
    this.manifests.clear();
    this.generation++;
  }

  private async openLatest(): Promise<Table | null> {
    // Read before the open: a folder replaced in between is then seen at the next call, not taken for the old one.
    const identity = tableFolderIdentity(this.dbPath);
    const table = await openCommitted(await this.connect(), this.dbPath);
    if (!table) return null;
    // A process that fills a local copy starts it once it knows the version, not at its first question: a server's
    // copy then runs beside its model's load (object-mirror.ts). Not of a version with lost files, which no read uses.
    const copy = this.localCopy;
    if (copy) {
      void (async () => {
        const version = await table.version();
        if (!(await this.damageWatch.damageOf(table, version))) await copy.at(version);
      })().catch(() => null);
    }
    return this.adopt(table, identity);
  }

  /** The table as it was at a version (0: before it existed), read-only. */
  protected async openAt(version: number): Promise<Table | null> {
    if (version === 0) return null;
    if (this.stagingView?.version !== version) {
      const table = await (await this.connect()).openTable(TABLE_NAME);
      await table.checkout(version);
      this.stagingView = { version, table };
    }
    return this.stagingView.table;
  }

  /** identity: the table folder's, read before the table was opened (a table this store created is read after). */
  protected async adopt(table: Table, identity = tableFolderIdentity(this.dbPath)): Promise<Table> {
    this.table = table;
    this.tableIdentity = identity;
    this.columns = new Set((await table.schema()).fields.map((f) => f.name));
    return table;
  }

  /** A fact about the table as this store reads it (table: what open() returned), read once per table version. */
  protected async atVersion<T>(table: Table, kind: string, read: (table: Table) => Promise<T>): Promise<T> {
    // A clone's versions count on from the damaged version's, so they would meet the index's own later ones.
    const key = `${kind}@${isReadableClone(table) ? "clone:" : ""}${await table.version()}`;
    if (this.perVersion.has(key)) return this.perVersion.get(key) as T;
    const value = await read(table);
    if (this.perVersion.size > 64) this.perVersion.clear();
    this.perVersion.set(key, value);
    return value;
  }
}
