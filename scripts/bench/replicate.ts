#!/usr/bin/env bun
/**
 * bun scripts/bench/replicate.ts BASE_DB TARGET ROOT OUT_DB
 *
 * Writes a chunks table of TARGET rows to OUT_DB by copying BASE_DB's rows
 * under new sources (ROOT/copyN/<file>). Each copy's vectors get a small
 * seeded jitter and are made unit length again: exact duplicates would make
 * every nearest-neighbour list a tie and an approximate index's recall
 * meaningless. Indexes are left to the caller.
 */
import { basename, join } from "node:path";
import { loadLanceDb } from "../../src/native/lancedb.ts";

const [baseDb, targetText, root, outDb] = process.argv.slice(2);
if (!baseDb || !targetText || !root || !outDb) {
  console.error("usage: replicate.ts BASE_DB TARGET ROOT OUT_DB");
  process.exit(2);
}
const target = Number(targetText);
const lance = await loadLanceDb();
const base = await (await lance.connect(baseDb)).openTable("chunks");
const rows: Record<string, unknown>[] = (await base.query().toArray()).map((r: Record<string, unknown>) => ({
  ...r,
  vector: Float32Array.from((r.vector as { toArray(): Float32Array }).toArray()),
}));
let seed = 12345;
const noise = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return (seed / 2 ** 32 - 0.5) * 0.02;
};
function jitter(v: Float32Array): Float32Array {
  const out = v.map((x) => x + noise());
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}
// Written in batches: a million rows at once (1.5 kB of vector each, plus text) would hold gigabytes in this process.
const BATCH = 50_000;
const db = await lance.connect(outDb);
const schema = await base.schema();
let out: Awaited<ReturnType<typeof db.createTable>> | null = null;
let batch: Record<string, unknown>[] = [];
const flush = async () => {
  if (batch.length === 0) return;
  if (out) await out.add(batch);
  else out = await db.createTable("chunks", batch, { schema });
  batch = [];
};
let written = 0;
for (let copy = 0; written < target; copy++) {
  for (const r of rows.slice(0, target - written)) {
    const source = join(root, `copy${copy}`, basename(r.source as string));
    batch.push({ ...r, vector: copy === 0 ? r.vector : jitter(r.vector as Float32Array), id: `${source}#${r.chunk_index}`, source, parent_id: `${source}#${String(r.parent_id).split("#").pop()}` });
    written++;
    if (batch.length >= BATCH) await flush();
  }
}
await flush();
