#!/usr/bin/env bun
/**
 * bun scripts/bench/object-storage-row.ts ENV_JSON QUERIES_JSON
 *
 * One row of the object-storage bench (sections/object-storage.ts) in a
 * process of its own, as a reader on its own machine is: an App over the
 * index ENV_JSON names, the model loaded first (not the store's cost), the
 * first query timed, then warm queries. Run in the bench's own process, each
 * row's App kept loading the index in the background after it was measured
 * (look-alike signatures, document vectors, each read from moto's one thread
 * or from the copy on the same two cores) while the next row ran: a new
 * reader's first query with 20 ms a request measured 5.1 s that way and
 * 2.1 s alone. Prints {"coldMs", "copyMs"?, "times"} on stdout; the App's
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
await app.embedder();
let start = performance.now();
await queryDocuments(app, { query: queries[0]!, topK: 10 });
const coldMs = performance.now() - start;
// The first query started the local copy (store/object-mirror.ts) and waited for it a while; warm queries are timed once it holds the table.
const copy = app.store.localCopy;
await copy?.settled();
const copyMs = copy && env.RAG_LOCAL_COPY !== "false" ? performance.now() - start : undefined;
for (const q of queries.slice(1, 3)) await queryDocuments(app, { query: q, topK: 10 });
const times: number[] = [];
for (const q of queries) {
  start = performance.now();
  await queryDocuments(app, { query: q, topK: 10 });
  times.push(performance.now() - start);
}
process.stdout.write(JSON.stringify({ coldMs, copyMs, times }));
// The App's background loads would keep the process alive; the row is measured.
process.exit(0);
