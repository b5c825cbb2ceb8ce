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
const copies: Record<string, unknown>[] = [];
for (let copy = 0; copies.length < target; copy++) {
  for (const r of rows.slice(0, target - copies.length)) {
    const source = join(root, `copy${copy}`, basename(r.source as string));
    copies.push({ ...r, vector: copy === 0 ? r.vector : jitter(r.vector as Float32Array), id: `${source}#${r.chunk_index}`, source, parent_id: `${source}#${String(r.parent_id).split("#").pop()}` });
  }
}
await (await lance.connect(outDb)).createTable("chunks", copies, { schema: await base.schema() });
