/**
 * The names of the sources a sync cannot rebuild: ingest-data and ingest-url
 * items, which have no file on disk. When a data file of the index is lost,
 * its chunks are gone and so are their source names; a file comes back with
 * the next sync, but a lost data or url item could not even be named. So the
 * index keeps their names apart from the rows: one key per source in the
 * metadata of the `source` column. Like the model record (index-identity.ts)
 * it lives in the Lance manifest, so it survives the loss of any data file
 * and travels with the table wherever DB_PATH points.
 *
 * A name is recorded before its rows are written and forgotten before they
 * are deleted, each its own small commit: a crash between the two leaves a
 * name without rows (reported as lost, which an ingest that never finished
 * is) or rows without a name, which the next sync records. A recorded name
 * with no rows is a lost source until it is ingested again or deleted.
 */
import type { Table } from "@lancedb/lancedb";
import type { SourceType } from "./chunk-row.ts";
import type { SourceSummary } from "./source-summary.ts";

const KEY_PREFIX = "minirag.source:";
const COLUMN = "source";
/** Two writers updating the column's metadata at once conflict in Lance (neither merges); the loser retries. */
const ATTEMPTS = 20;

type SchemaLike = { fields: { name: string; metadata: Map<string, string> }[] };

/** Recorded data and url sources, name -> type. */
export function recordedSources(schema: SchemaLike): Map<string, SourceType> {
  const recorded = new Map<string, SourceType>();
  for (const [key, value] of schema.fields.find((f) => f.name === COLUMN)?.metadata ?? []) {
    if (key.startsWith(KEY_PREFIX)) recorded.set(key.slice(KEY_PREFIX.length), value as SourceType);
  }
  return recorded;
}

/** Records the data and url sources among `sources` that are not recorded yet (file sources are rebuilt from disk). */
export async function recordSources(table: Table, sources: { source: string; type: SourceType }[]): Promise<void> {
  const recorded = recordedSources(await table.schema());
  const missing = sources.filter((s) => s.type !== "file" && recorded.get(s.source) !== s.type);
  if (missing.length) await updateCatalog(table, Object.fromEntries(missing.map((s) => [KEY_PREFIX + s.source, s.type])));
}

/** Forgets recorded sources (a delete); names not recorded are left alone. */
export async function forgetSources(table: Table, sources: string[]): Promise<boolean> {
  const recorded = recordedSources(await table.schema());
  const known = sources.filter((s) => recorded.has(s));
  if (known.length) await updateCatalog(table, Object.fromEntries(known.map((s) => [KEY_PREFIX + s, null])));
  return known.length > 0;
}

async function updateCatalog(table: Table, metadata: Record<string, string | null>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await table.updateFieldMetadata([{ path: COLUMN, metadata }]);
      return;
    } catch (error) {
      if (attempt >= ATTEMPTS || !/incompatible transaction|conflict/i.test((error as Error).message)) throw error;
      await Bun.sleep(5 + Math.random() * 20 * attempt);
      // A handle opened without read consistency would retry against the version it lost to.
      await table.checkoutLatest();
    }
  }
}

/** A data or url source the index lost chunks of, which no sync can bring back. */
export interface LostSource {
  source: string;
  sourceType: SourceType;
  problem: string;
}

/** Recorded sources with no chunks left, and data or url sources whose chunks are not whole, with the fix. */
export function lostSources(recorded: Map<string, SourceType>, sources: SourceSummary[]): LostSource[] {
  const present = new Map(sources.map((s) => [s.source, s]));
  const lost: LostSource[] = [];
  const fix = (type: SourceType) => `ingest it again (${type === "url" ? "ingest_url or ingest-url" : "ingest_data or ingest-data"} with the same source), or delete it to stop this notice`;
  for (const [source, type] of recorded) {
    if (!present.has(source)) lost.push({ source, sourceType: type, problem: `every chunk was lost with a damaged data file of the index: ${fix(type)}.` });
  }
  for (const s of sources) {
    if (s.sourceType !== "file" && s.damaged) lost.push({ source: s.source, sourceType: s.sourceType, problem: `some of its chunks are missing (${s.chunkCount} left): ${fix(s.sourceType)}.` });
  }
  return lost.sort((a, b) => (a.source < b.source ? -1 : 1));
}
