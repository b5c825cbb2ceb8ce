#!/usr/bin/env bun
/**
 * bun scripts/bench/object-storage-row.ts ENV_JSON QUERIES_JSON
 *
 * One row of the object-storage bench (sections/object-storage.ts) in a
 * process of its own, as a reader on its own machine is: an App over the
 * index ENV_JSON names opened (timed: the store's cost), the model loaded
 * (not timed: not the store's cost; a local copy starts at the opening and
 * runs beside it, as in a server), the first query timed, then warm queries.
 * Until 2026-12-05 the model loaded first, and its load opened the index,
 * which hid a 10 s check for lost files from a new reader's figure. Run in
 * the bench's own process, each
 * row's App kept loading the index in the background after it was measured
 * (look-alike signatures, document vectors, each read from moto's one thread
 * or from the copy on the same two cores) while the next row ran: a new
 * reader's first query with 20 ms a request measured 5.1 s that way and
 * 2.1 s alone. Prints {"openMs", "modelMs" (the model's load after it),
 * "coldMs" (the opening and the first query, without the model's load, beside
 * which the copy ran), "copyMs"? (when this process's copy ended, from the
 * opening), "times"} on stdout; the App's
 * warnings (a local copy that failed) go to stderr, which the bench logs.
 */
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";

const [envText, queriesText] = process.argv.slice(2);
if (!envText || !queriesText) {
  console.error("usage: object-storage-row.ts ENV_JSON QUERIES_JSON");
  process.exit(2);
}
const env = JSON.parse(envText) as Record<string, string>;
const queries = JSON.parse(queriesText) as string[];

const app = createApp(loadConfig({ env: { ...env, RAG_WATCH: "false" } }), { log: (line) => line.startsWith("warn:") && console.error(line), fillLocalCopy: true });
// Opening the index is the store's cost (on object storage: its version, the check for lost data files), so it is
// timed; the model's load after it is not. The model's own load used to open the index, which hid 10 s of it.
const opening = performance.now();
const openedAt = Date.now();
await app.store.hasTable();
const openMs = performance.now() - opening;
let start = performance.now();
await app.embedder();
const modelMs = performance.now() - start;
start = performance.now();
await queryDocuments(app, { query: queries[0]!, topK: 10 });
const coldMs = openMs + performance.now() - start;
// The opening started the local copy (store/object-mirror.ts) and the first query waited for it a while; warm queries are timed once it holds the table.
const copy = app.store.localCopy;
await copy?.settled();
const copyMs = copy?.lastCopyEndedAt ? copy.lastCopyEndedAt - openedAt : undefined;
for (const q of queries.slice(1, 3)) await queryDocuments(app, { query: q, topK: 10 });
const times: number[] = [];
for (const q of queries) {
  start = performance.now();
  await queryDocuments(app, { query: q, topK: 10 });
  times.push(performance.now() - start);
}
process.stdout.write(JSON.stringify({ openMs, modelMs, coldMs, copyMs, times }));
// The App's background loads would keep the process alive; the row is measured.
process.exit(0);
