/**
 * A large document stored in keyword-only mode gets its vectors in pages:
 * its waiting chunks are read, embedded and written a page at a time, so a
 * source of a hundred thousand chunks never sits in memory whole.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import type { Embedder } from "../../src/embed/embedder.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { fillVectors } from "../../src/sync/fill-vectors.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { pendingChunks, writeVectors } from "../../src/store/pending-vectors.ts";
import { brokenModel, TINY_MODEL, tempDir, writeTree } from "../helpers.ts";

test("a waiting source larger than a page is read, embedded and written a page at a time, and every chunk gets its vector", async () => {
  const root = tempDir("minirag-root-");
  const dbPath = join(tempDir("minirag-db-"), "lancedb");
  const make = (model: string) => createApp(loadConfig({ env: { MODEL_NAME: model, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9" } }), { log: () => {} });
  const sections = Array.from({ length: 30 }, (_, i) => `## Pump ${i}\n\nThe pump number ${i} moves coolant through exchanger ${i} at a steady rate.`);
  writeTree(root, { "pumps.md": `# Pumps\n\n${sections.join("\n\n")}`, "small.md": "# Seals\n\nReplace the seals." });
  const offline = make(brokenModel());
  await runSync(offline);
  const online = make(TINY_MODEL);
  const waiting = await online.store.pendingSources();
  expect(waiting.get(join(root, "pumps.md"))).toBeGreaterThan(16);

  const real = (await online.embedder()) as Embedder;
  const passes: number[] = [];
  // The real embedder, counting how many texts each pass hands it.
  const counting = Object.create(real) as Embedder;
  counting.embed = (texts, kind) => {
    passes.push(texts.length);
    return real.embed(texts, kind);
  };
  const report = await fillVectors(online, counting, undefined, 8);
  expect(Math.max(...passes)).toBeLessThanOrEqual(8);
  expect(passes.reduce((a, b) => a + b, 0)).toBe([...waiting.values()].reduce((a, b) => a + b, 0));
  expect(report).toEqual({ embedded: 2, reread: [], truncated: [] });
  expect(await online.store.pendingCount()).toBe(0);
});

test("vectors embedded from a chunk's old text are not written over the row of a newer ingest of that source, embedded or waiting", async () => {
  const root = tempDir("minirag-root-");
  const dbPath = join(tempDir("minirag-db-"), "lancedb");
  const make = (model: string) => createApp(loadConfig({ env: { MODEL_NAME: model, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9" } }), { log: () => {} });
  writeTree(root, { "pumps.md": "# Pumps\n\nThe pump moves coolant." });
  const offline = make(brokenModel());
  const online = make(TINY_MODEL);
  await runSync(offline);
  const table = (await online.store.open())!;
  const read = await pendingChunks(table, [join(root, "pumps.md")]);
  const embedder = (await online.embedder()) as Embedder;
  const stale = await embedder.embed(read.map((c) => c.text), "passage");

  // Meanwhile the file changes and is ingested again, with the model: new rows (ids carry a token of their write), new text, real vectors.
  writeTree(root, { "pumps.md": "# Valves\n\nThe valve stops the flow." });
  await ingestFile(online, join(root, "pumps.md"));
  const fresh = await table.query().where("chunk_index = 0").select(["vector"]).toArray();
  await writeVectors(table, embedder.dimensions, read.map((c, i) => ({ id: c.id, vector: stale[i]! })));
  const after = await table.query().where("chunk_index = 0").select(["vector"]).toArray();
  expect(Array.from(after[0].vector as Iterable<number>)).toEqual(Array.from(fresh[0].vector as Iterable<number>));

  // And a newer keyword-only ingest: its rows wait again, under the same ids, for vectors of their own text.
  writeTree(root, { "pumps.md": "# Seals\n\nThe seal keeps coolant in." });
  await ingestFile(offline, join(root, "pumps.md"));
  await writeVectors(table, embedder.dimensions, read.map((c, i) => ({ id: c.id, vector: stale[i]! })));
  expect(await table.countRows("vector_pending = true")).toBe((await pendingChunks(table, [join(root, "pumps.md")])).length);
  expect(await table.countRows("vector_pending = true")).toBeGreaterThan(0);
});
