#!/usr/bin/env bun
/**
 * bun scripts/bench/mentions-new-process.ts ENV_JSON TERM
 *
 * A new process's find_mentions over an index whose text is in the cache
 * file (mentions.ts runs it): an App opened from nothing, its first find
 * timed (opening the table, reading the file, the look-alike signatures,
 * JIT-cold code), then warm finds. In the bench's own process a new App
 * shares the process's warm code and LanceDB's caches, so its first find
 * looked faster than a restarted server's or a CLI `find`'s.
 * Prints {"firstMs", "warmMs"} on stdout.
 */
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { median } from "./lib/stats.ts";

const [envText, term] = process.argv.slice(2);
if (!envText || !term) {
  console.error("usage: mentions-new-process.ts ENV_JSON TERM");
  process.exit(2);
}
const app = createApp(loadConfig({ env: { ...(JSON.parse(envText) as Record<string, string>), RAG_WATCH: "false" } }), { log: () => {} });
const time = async () => {
  const start = performance.now();
  await findMentions(app, { terms: [term] });
  return performance.now() - start;
};
const firstMs = await time();
const warm: number[] = [];
for (let i = 0; i < 5; i++) warm.push(await time());
console.log(JSON.stringify({ firstMs, warmMs: median(warm) }));
