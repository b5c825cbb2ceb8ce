/**
 * A value an App derives from its index and keeps for the index's latest
 * version (the document vectors, the look-alike signatures): built once per
 * version, one build at a time, each from the one before it, so queries that
 * arrive during a build wait for it instead of starting another, and a sync
 * that commits often does not start one a version. A build that fails is not
 * kept: the next caller tries again. The value of the version before stays
 * too, for questions a server keeps on it while it loads the new one
 * (store/query-hold.ts); each build makes a new value, so the two share
 * only what neither changes.
 */
import type { ChunkStore } from "./chunk-store.ts";

type Entry<T> = { version: string; ready: Promise<T>; value?: T };

export class VersionedCache<T> {
  private entry: Entry<T> | undefined;
  private before: Entry<T> | undefined;

  /** build(store, previous): the value at the store's version, from the last one built (null before any, or after a failure). */
  constructor(private readonly build: (store: ChunkStore, previous: T | null) => Promise<T>) {}

  /** The version whose value is built, or being built; undefined before any. */
  version(): string | undefined {
    return this.entry?.version;
  }

  /** The value at the version the store reads when it is built already, else undefined (nothing is started). */
  async builtAt(store: ChunkStore): Promise<T | undefined> {
    const version = (await store.contentVersion()) ?? "none";
    return this.kept(version)?.value;
  }

  /** The value at the version the store reads (pass a snapshot), keyed by ChunkStore.contentVersion. */
  async at(store: ChunkStore): Promise<T> {
    const version = (await store.contentVersion()) ?? "none";
    const kept = this.kept(version);
    if (kept) return kept.ready;
    const previous = this.entry?.ready.catch(() => null) ?? Promise.resolve(null);
    const ready = previous.then((before) => this.build(store, before));
    const entry: Entry<T> = { version, ready };
    this.before = this.entry;
    this.entry = entry;
    ready.then((value) => void (entry.value = value), () => {});
    ready.catch(() => {
      if (this.entry === entry) this.entry = undefined;
      if (this.before === entry) this.before = undefined;
    });
    return ready;
  }

  private kept(version: string): Entry<T> | undefined {
    return this.entry?.version === version ? this.entry : this.before?.version === version ? this.before : undefined;
  }
}
