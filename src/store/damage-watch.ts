/**
 * A store's watch over lost data files: each table version it reads is
 * checked once (lost-fragments.ts, a few ms on a local disk), and while a
 * version is damaged, reads go to a clone without its lost fragments
 * (readable-clone.ts) and writes are refused until a sync repairs it.
 */
import type { Table } from "@lancedb/lancedb";
import type { IndexLocation } from "./index-location.ts";
import { damagedReadError, readsGoAround, type IndexDamage } from "./index-damage.ts";
import { findLostFragments, type VerifiedDeletions } from "./lost-fragments.ts";
import { readableClone, type ReadableClone } from "./readable-clone.ts";

/** How long a clone replaced by a newer one stays for reads that took it a moment before. */
const RETIRED_CLONE_MS = 60_000;

export class DamageWatch {
  /** Promises, so requests checking the same version at once share one check and one clone. */
  private checked: { version: number; damage: Promise<IndexDamage | null> } | null = null;
  private clone: { version: number; clone: Promise<ReadableClone> } | null = null;
  /** On object storage: deletion files found whole at earlier versions, not read again (lost-fragments.ts). */
  private readonly verifiedDeletions: VerifiedDeletions = new Map();

  constructor(private readonly location: IndexLocation) {}

  /** The damage of the version `table` reads (`version`, when the caller has it already), or null when its files are whole. */
  async damageOf(table: Table, known?: number): Promise<IndexDamage | null> {
    const version = known ?? (await table.version());
    if (this.checked?.version !== version) {
      const damage = findLostFragments(table, this.location, this.verifiedDeletions).then((fragments) => (fragments.length ? { version, fragments } : null));
      this.checked = { version, damage };
      // A failed check is not kept: the next read checks again.
      damage.catch(() => this.checked?.damage === damage && (this.checked = null));
    }
    return this.checked.damage;
  }

  /** What a read should use: `table` itself, or while its version is damaged, a clone without the lost fragments. */
  async readable(table: Table, version?: number): Promise<Table> {
    const damage = await this.damageOf(table, version);
    if (!damage) {
      // Repaired (by a sync in this process or another): the clone is no longer read.
      if (this.clone) this.retire();
      return table;
    }
    if (!readsGoAround(this.location.path, damage)) throw damagedReadError(this.location.path, damage);
    if (this.clone?.version !== damage.version) {
      this.retire();
      const clone = readableClone(this.location.path, damage.version, damage.fragments);
      this.clone = { version: damage.version, clone };
      clone.catch(() => this.clone?.clone === clone && (this.clone = null));
    }
    return (await this.clone.clone).table;
  }

  /** After a repair: the next read checks the table afresh, and the clone goes. */
  forget(): void {
    this.checked = null;
    this.retire();
  }

  private retire(): void {
    const retired = this.clone?.clone;
    this.clone = null;
    if (retired) setTimeout(() => retired.then((c) => c.dispose(), () => {}), RETIRED_CLONE_MS).unref();
  }
}
