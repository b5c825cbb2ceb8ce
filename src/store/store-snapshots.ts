/**
 * The snapshots a request reads through (ChunkStore.snapshot): a read-only
 * view of one table version, so every read of a request sees the same one;
 * the last two are kept, since most questions read the latest or the one a
 * server holds while it loads a new one (query-hold.ts).
 */
import { TABLE_NAME } from "./create-table.ts";
import { isReadableClone } from "./readable-clone.ts";
import { StoreReads } from "./store-reads.ts";

export abstract class StoreSnapshots extends StoreReads {
  /** The last two snapshots: the next query at the same version reuses one instead of opening the table again. */
  protected lastViews: { version: string; view: StoreSnapshots }[] = [];

  protected override forgetTable(): void {
    super.forgetTable();
    this.lastViews = [];
  }

  /** The local copy's replacements this store has followed (object-mirror.ts). */
  private followedReplacements = 0;

  /**
   * True when the local copy found the table replaced in the store since this
   * store last looked (copy-history.ts): LanceDB's own handle on the store reads
   * the old table's manifests too, so the store forgets it and its views.
   */
  private followReplacement(): boolean {
    const seen = this.localCopy?.replacements ?? 0;
    if (seen === this.followedReplacements) return false;
    this.followedReplacements = seen;
    this.forgetTable();
    return true;
  }

  /** A store of the same kind and index, not yet opened: what snapshot() pins. */
  protected abstract newView(): this;

  /**
   * A read-only view of the table as it is now, for a request that reads more
   * than once (a search, then the sections of its hits): every read sees the
   * same version, so a sync committing meanwhile cannot mix an old hit with a
   * new section. Writes through the view are refused by LanceDB.
   */
  async snapshot(options: { latest?: boolean } = {}): Promise<this> {
    this.followReplacement();
    const view = this.newView();
    const opened = await this.openWithVersion();
    if (!opened) return view;
    // A clone of a damaged version (readable-clone.ts) is fixed at its version already; its versions are its own.
    const clone = isReadableClone(opened.table);
    // On S3, a local copy holding the version whole, the bucket meanwhile (a new reader first waits for one: object-mirror.ts).
    const copy = clone ? null : await this.localCopy?.atFirst(opened.version);
    if (this.followReplacement()) return this.snapshot(options);
    // A server's questions stay on an older version while it loads the one its watcher wrote (query-hold.ts).
    const at = clone || copy || options.latest ? opened.version : this.queryHold.versionFor(opened.version);
    const version = `${clone ? "clone:" : ""}${at}${copy ? ":copy" : ""}`;
    // A view of a version read before (the latest, or the one held) reads the same files: opening the table again cost ~2 ms a query.
    const kept = this.lastViews.find((v) => v.version === version);
    if (kept) return kept.view as this;
    const pinned = clone ? opened.table : await (copy ?? (await this.connect())).openTable(TABLE_NAME);
    if (!clone) await pinned.checkout(at);
    view.connection = this.connection;
    view.isView = true;
    view.perVersion = this.perVersion;
    view.keyLedger = this.keyLedger;
    view.viewDamage = clone ? await this.damage() : null;
    view.pinnedAt = at;
    view.durable = clone ? null : this.durableStamp(at);
    view.generation = this.generation;
    await view.adopt(pinned);
    this.lastViews = [{ version, view }, ...this.lastViews.slice(0, 1)]; // two: a held version's, the latest's
    return view;
  }
}
