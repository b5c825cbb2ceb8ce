#!/usr/bin/env bun
/**
 * bun scripts/bench/scale-index.ts DB scalar|vector
 *
 * Builds one part of a replicated index's indexes in its own process, so the
 * bench can time it and read its peak RSS: "scalar" the BM25 and btree
 * indexes plus compaction (what a sync's end does), "vector" the vector index the
 * store builds past ANN_THRESHOLD. Prints {"ms": ...} on stdout.
 */
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { ensureIndexes, PRUNE_OLDER_THAN_MS } from "../../src/store/table-upkeep.ts";
import { ANN_THRESHOLD, ensureVectorIndex } from "../../src/store/vector-index.ts";

const [dbPath, part] = process.argv.slice(2);
if (!dbPath || (part !== "scalar" && part !== "vector")) {
  console.error("usage: scale-index.ts DB scalar|vector");
  process.exit(2);
}
const lance = await loadLanceDb();
const table = await (await lance.connect(dbPath)).openTable("chunks");
const start = performance.now();
if (part === "scalar") {
  if (!(await ensureIndexes(table))) throw new Error("an index could not be built");
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - PRUNE_OLDER_THAN_MS) });
} else {
  await ensureVectorIndex(table, ANN_THRESHOLD);
}
process.stdout.write(JSON.stringify({ ms: performance.now() - start }));
