/**
 * A document too large for one commit, rewritten by machine A's sync while
 * machine B reads the chunk total over and over: what team-index tests on
 * each store assert about (B sees the old total or the new one, never a mix).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { LARGE_DOCUMENT_CHUNKS } from "../../src/ingest/store-large-document.ts";
import { runAs } from "./team-fixture.ts";

type Env = Record<string, string>;

/** How long a reader may take to follow the writer's last commit: the marker's one-second cache, with room for a loaded machine. */
const FOLLOW_MS = 5_000;
const sync = (env: Env) => runAs(env, ["sync"]);


/** About 5,400 chunks for the tiny model: past LARGE_DOCUMENT_CHUNKS, so each write of it is staged. */
function writeHugeText(path: string): void {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = Array.from({ length: 3000 }, () => Array.from({ length: 3 + Math.floor(random() * 7) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join(""));
  const paragraph = () => `${Array.from({ length: 40 }, () => words[Math.floor(random() * words.length)]).join(" ")}.\n\n`;
  writeFileSync(path, Array.from({ length: 2000 }, paragraph).join(""));
}

/**
 * A syncs `folder` (its BASE_DIR) with a huge text, then rewrites it longer; B (an
 * App in this process, over the same index) counts the chunks all the while.
 * Returns the totals before and after, and how often B saw each total.
 */
export async function watchStagedRewrite(folder: string, a: Env, b: Env): Promise<{ before: number; after: number; seen: Map<number, number>; ms: number }> {
  const file = join(folder, "huge.txt");
  writeHugeText(file);
  const first = await sync(a);
  if (first.exitCode !== 0) throw new Error(`the first sync failed: ${first.stderr}`);
  const reader = createApp(loadConfig({ env: b, cwd: b.HOME, home: b.HOME }), { log: () => {} });
  const total = async () => (await reader.store.listSources()).reduce((sum, s) => sum + s.chunkCount, 0);
  const before = await total();
  if (before <= LARGE_DOCUMENT_CHUNKS) throw new Error(`the document has ${before} chunks, not past ${LARGE_DOCUMENT_CHUNKS}: it would not be staged`);
  writeFileSync(file, `${readFileSync(file, "utf8")}${"An appended closing paragraph.\n\n".repeat(300)}`);
  const seen = new Map<number, number>();
  const started = performance.now();
  let done = false;
  const second = sync(a).finally(() => (done = true));
  while (!done) {
    const n = await total();
    seen.set(n, (seen.get(n) ?? 0) + 1);
  }
  const { exitCode, stderr } = await second;
  if (exitCode !== 0) throw new Error(`the rewriting sync failed: ${stderr}`);
  // A reader looks the staging marker up at most once a second (store/staging-markers.ts CACHE_MS), so for up to
  // that long after the sync it may still keep to the old version; it reads on, counted as before, until it moves.
  const following = performance.now();
  let after = await total();
  while (after === before && performance.now() - following < FOLLOW_MS) {
    seen.set(after, (seen.get(after) ?? 0) + 1);
    after = await total();
  }
  seen.set(after, (seen.get(after) ?? 0) + 1);
  return { before, after, seen, ms: performance.now() - started };
}
