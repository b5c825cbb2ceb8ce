/**
 * A value an App derives from its index and keeps for the index's latest
 * version (the document vectors, the look-alike signatures): built once per
 * version, one build at a time, each from the one before it, so queries that
 * arrive during a build wait for it instead of starting another, and a sync
 * that commits often does not start one a version. A build that fails is not
 * kept: the next caller tries again.
 */
import type { ChunkStore } from "./chunk-store.ts";

export class VersionedCache<T> {
  private entry: { version: string; ready: Promise<T>; value?: T } | undefined;

  /** build(store, previous): the value at the store's version, from the last one built (null before any, or after a failure). */
  constructor(private readonly build: (store: ChunkStore, previous: T | null) => Promise<T>) {}

  /** The version whose value is built, or being built; undefined before any. */
  version(): string | undefined {
    return this.entry?.version;
  }

  /** The value at the version the store reads when it is built already, else undefined (nothing is started). */
  async builtAt(store: ChunkStore): Promise<T | undefined> {
    const version = (await store.contentVersion()) ?? "none";
    return this.entry?.version === version ? this.entry.value : undefined;
  }

  /** The value at the version the store reads (pass a snapshot), keyed by ChunkStore.contentVersion. */
  async at(store: ChunkStore): Promise<T> {
    const version = (await store.contentVersion()) ?? "none";
    if (this.entry?.version === version) return this.entry.ready;
    const previous = this.entry?.ready.catch(() => null) ?? Promise.resolve(null);
    const ready = previous.then((before) => this.build(store, before));
    const entry: { version: string; ready: Promise<T>; value?: T } = { version, ready };
    this.entry = entry;
    ready.then((value) => void (entry.value = value), () => {});
    ready.catch(() => this.entry?.ready === ready && (this.entry = undefined));
    return ready;
  }
}
