/**
 * The document keys (document-keys.ts) of the last version read, brought
 * forward to a newer version without reading every document's key again.
 *
 * Lance never changes a stored row: a write (an edit's swap, an update, a
 * merge of a few columns) puts the rows it writes in new fragments, whose ids
 * only grow, and marks the old rows deleted. So between two versions of one
 * table with the same columns, the chunk-0 rows of the fragments past the last
 * one seen are every such row written since; rows in older fragments are as
 * they were, or gone. One count of the chunk-0 rows then says whether any row
 * went beyond those written again: a delete or a move (and a new column, a
 * table read at an older version, or every STEPS_BEFORE_FULL_READ steps) reads
 * every key as before. At 5,100 documents the whole read took 20-40 ms of the
 * first query after a one-file edit, the two small reads 5-10 ms.
 */
import type { Table } from "@lancedb/lancedb";
import { planKeys, rowKeys, type DocumentKey, type KeyedValue, type KeyPlan } from "./document-keys.ts";

/** Steps forward before the keys are read whole again: a bound on how long a wrong step could last. */
export const STEPS_BEFORE_FULL_READ = 100;

const FRAGMENT_SHIFT = 32n;

interface Entry {
  version: number;
  /** The plan's where clause and columns: a column added or dropped changes the keys of rows that did not move. */
  shape: string;
  /** The highest fragment id holding a chunk-0 row read; rows written later lie in fragments past it. */
  maxFragment: bigint;
  /** Per source, its key for each value (undefined: it does not hold that value), in the order a scan gives them. */
  keys: Map<string, (number | undefined)[]>;
  steps: number;
}

/** How a read went, for tests and measurements. */
export type LedgerRead = "whole" | "forward";

export class DocumentKeyLedger {
  private last: Entry | null = null;
  /** How the latest read went. */
  lastRead: LedgerRead | null = null;

  /** The keys of these values at the table's version `version` (the table pinned there), one list per value. */
  async read(table: Table, values: KeyedValue[], version: number): Promise<DocumentKey[][]> {
    const plan = await planKeys(table, values);
    if (!plan) return values.map(() => []);
    const shape = `${plan.where}|${Object.entries(plan.projection).join(";")}`;
    const last = this.last;
    const forward = last && last.shape === shape && version >= last.version && last.steps < STEPS_BEFORE_FULL_READ ? await stepForward(table, values, plan, last) : null;
    const entry = forward ?? (await readWhole(table, values, plan));
    this.last = { ...entry, version, shape };
    this.lastRead = forward ? "forward" : "whole";
    return values.map((_, i) => [...entry.keys].flatMap(([source, keys]) => (keys[i] === undefined ? [] : [{ source, key: keys[i]! }])));
  }
}

type Read = Pick<Entry, "maxFragment" | "keys" | "steps">;

async function readWhole(table: Table, values: KeyedValue[], plan: KeyPlan): Promise<Read> {
  const rows = await readRows(table, values, plan, plan.where);
  const keys = new Map<string, (number | undefined)[]>();
  rows.sources.forEach((source, row) => keys.set(source, rows.keys.map((perRow) => perRow[row])));
  return { maxFragment: rows.maxFragment ?? -1n, keys, steps: 0 };
}

/** The last keys with the rows of newer fragments laid over them; null when a count shows rows went otherwise. */
async function stepForward(table: Table, values: KeyedValue[], plan: KeyPlan, last: Entry): Promise<Read | null> {
  const [rows, count] = await Promise.all([
    readRows(table, values, plan, `${plan.where} AND _rowaddr >= ${(last.maxFragment + 1n) << FRAGMENT_SHIFT}`),
    table.countRows(plan.where),
  ]);
  const keys = new Map(last.keys);
  rows.sources.forEach((source, row) => {
    // Deleted first, so the source takes the place a scan gives it: its new fragment comes after the old ones.
    keys.delete(source);
    keys.set(source, rows.keys.map((perRow) => perRow[row]));
  });
  // Every row now is either in an old fragment, so among the last keys, or among those read: equal counts mean none went.
  if (keys.size !== count) return null;
  const maxFragment = rows.maxFragment !== null && rows.maxFragment > last.maxFragment ? rows.maxFragment : last.maxFragment;
  return { maxFragment, keys, steps: last.steps + 1 };
}

async function readRows(table: Table, values: KeyedValue[], plan: KeyPlan, where: string) {
  const arrow = await table.query().where(where).select({ ...plan.projection, row_address: "_rowaddr" }).toArrow();
  let maxFragment: bigint | null = null;
  if (arrow.numRows > 0) {
    for (const address of arrow.getChild("row_address")!.toArray() as BigUint64Array) {
      const fragment = address >> FRAGMENT_SHIFT;
      if (maxFragment === null || fragment > maxFragment) maxFragment = fragment;
    }
  }
  return { ...rowKeys(arrow, values, plan), maxFragment };
}
