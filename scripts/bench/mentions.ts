#!/usr/bin/env bun
/**
 * bun scripts/bench/mentions.ts [--chunks N] [--runs R]
 *
 * What find_mentions costs on an index of N chunks (default 100,000; 10 per
 * document), written straight into LanceDB: real paragraphs (XQuAD ru and
 * en from ../shared/corpus when present, else the committed fixtures) cut
 * into ~600-character chunks, each document's own look-alike signature on
 * chunk 0, no vectors worth the name (find never embeds).
 * - cold: the first query, which reads every chunk's text and normalises it
 *   (what each query would cost re-reading LanceDB without the cache);
 * - warm: each term set R times against the cached text, p50 and max;
 * - refresh: the first query after one document is rewritten (one source
 *   read again, not the table);
 * - a new process (a CLI `find`, a restarted server): its first query, which
 *   starts from the cache file the first process wrote, with nothing changed
 *   since and with one document rewritten since;
 * - the memory the cache holds: its text blocks, and the JS heap before and
 *   after the cold query.
 * Target: a warm full scan of 100k chunks under 1 s. Printed, never asserted.
 */
import { heapStats } from "bun:jsc";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { documentSignature } from "../../src/lookalikes/document-signature.ts";
import { blocksOf } from "../../src/mentions/mention-corpus.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { findMentions, type FindInput } from "../../src/search/find-mentions.ts";
import { chunkSchema, type ChunkRow } from "../../src/store/chunk-row.ts";
import { swapIn } from "../../src/store/table-writes.ts";
import { CORPUS } from "./lib/datasets.ts";
import { REPO, tempDir } from "./lib/setup.ts";
import { fmt, median, mib } from "./lib/stats.ts";

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const total = flag("--chunks", 100_000);
const runs = flag("--runs", 5);
const PER_DOC = 10;
const DIMENSIONS = 32;
const BATCH = 10_000;
const log = (line: string) => process.stderr.write(`[bench mentions] ${line}\n`);

/** Paragraphs of real text, Russian and English. */
function paragraphs(): string[] {
  const dirs = ["xquad-ru/docs", "xquad-en/docs"].map((d) => join(CORPUS, d)).filter(existsSync);
  const files = dirs.length ? dirs.flatMap((d) => readdirSync(d).map((f) => join(d, f))) : ["chunk", "mentions"].flatMap((d) => readdirSync(join(REPO, "test/fixtures", d)).filter((f) => /\.(md|txt)$/.test(f)).map((f) => join(REPO, "test/fixtures", d, f)));
  log(`text from ${dirs.length ? dirs.join(", ") : "the committed fixtures"} (${files.length} files)`);
  return files.flatMap((f) => readFileSync(f, "utf8").split(/\n\s*\n/)).map((p) => p.trim()).filter((p) => p.length > 40);
}

/** ~600-character pieces, cycled: chunk c of the index is pieces[c % pieces.length]. */
function pieces(source: string[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const p of source) {
    current = current ? `${current}\n\n${p}` : p;
    if (current.length >= 600) {
      out.push(current.slice(0, 900));
      current = "";
    }
  }
  return out;
}

/**
 * Document doc's chunks: PER_DOC texts drawn by a generator seeded with doc, so documents differ (two
 * share about one chunk in forty) and look-alikes are as rare as in a real corpus, not one per copy.
 */
function documentRows(doc: number, texts: string[], root: string): ChunkRow[] {
  const source = join(root, `folder-${Math.floor(doc / 100)}`, `doc-${doc}.md`);
  let seed = doc + 1;
  const pick = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return texts[(seed >>> 8) % texts.length]!;
  };
  const chunks = Array.from({ length: PER_DOC }, (_, i) => ({ text: pick(), parentId: `${source}#p${Math.floor(i / 3)}`, contextLines: 0 }));
  const minhash = documentSignature(chunks);
  return chunks.map((c, i) => ({
    id: `${source}#${i}`,
    source,
    source_type: "file",
    title: `doc ${doc}`,
    chunk_index: i,
    parent_id: c.parentId,
    text: c.text,
    vector: new Float32Array(DIMENSIONS),
    scheme: 3,
    content_hash: "bench",
    mtime: 0,
    file_size: c.text.length,
    ingested_at: new Date(0).toISOString(),
    ocr_engine: "",
    context_lines: 0,
    pages: null,
    minhash: i === 0 ? minhash : null,
  }));
}

const root = tempDir("mentions-root");
const dbPath = join(tempDir("mentions-db"), "lancedb");
const texts = pieces(paragraphs());
log(`writing ${total} chunks (${total / PER_DOC} documents, ${texts.length} distinct chunk texts) to ${dbPath}`);
const lance = await loadLanceDb();
const db = await lance.connect(dbPath);
const schema = chunkSchema(DIMENSIONS);
let table = null as Awaited<ReturnType<typeof db.createTable>> | null;
for (let start = 0; start < total; start += BATCH) {
  const rows = Array.from({ length: Math.min(BATCH, total - start) / PER_DOC }, (_, i) => documentRows(start / PER_DOC + i, texts, root)).flat() as unknown as Record<string, unknown>[];
  if (!table) table = await db.createTable("chunks", rows, { schema });
  else await table.add(rows);
}
await table!.optimize();
log("written");

const env = { BASE_DIR: root, DB_PATH: dbPath, CACHE_DIR: tempDir("mentions-cache"), MODEL_NAME: join(REPO, "test/fixtures/models/tiny") };
const config = loadConfig({ env });
const app = createApp(config, { log: () => {} });
const QUERIES: [string, FindInput][] = [
  ["rare word (ru)", { terms: ["нефть"] }],
  ["common prefix (en)", { terms: ["the"] }],
  ["phrase", { terms: ["United States"] }],
  ["absent word", { terms: ["несуществующее"] }],
  ["two terms, all", { terms: ["oil", "1973"] }],
  ["three quoted forms, any", { terms: ['"год"', '"года"', '"году"'], match: "any" }],
  ["one folder (100 documents)", { terms: ["the"], scope: [join(root, "folder-7")] }],
];

const time = async (run: () => Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

// The JS heap, not RSS: freed memory is not handed back to the system at once, so RSS overstates what the cache keeps.
Bun.gc(true);
const heapBefore = heapStats().heapSize;
const cold = await time(() => findMentions(app, QUERIES[0]![1]));
Bun.gc(true);
const heapAfter = heapStats().heapSize;
// The heap figure counts the text blocks' buffers (mentions/mention-corpus.ts) too.
let blockBytes = 0;
for (const block of blocksOf(await app.mentions.documents(await app.store.snapshot()))) blockBytes += block.bytes.length;
log(`cold ${fmt(cold)} ms`);

const lines = [
  `## find_mentions on ${total.toLocaleString("en")} chunks (${(total / PER_DOC).toLocaleString("en")} documents)`,
  "",
  `Cold (read and normalise every chunk, build the cache): ${fmt(cold, 0)} ms; the cache holds about ${fmt(mib(heapAfter - heapBefore), 0)} MiB of JS heap, of it ${fmt(mib(blockBytes), 0)} MiB the text blocks' bytes.`,
  "",
  "| query | matched documents | warm p50 ms | warm max ms |",
  "| --- | --- | --- | --- |",
];
for (const [name, input] of QUERIES) {
  const times: number[] = [];
  let matched = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    matched = (await findMentions(app, input)).matchedDocuments;
    times.push(performance.now() - start);
  }
  lines.push(`| ${name}: ${input.terms.join(" ")} | ${matched} | ${fmt(median(times))} | ${fmt(Math.max(...times))} |`);
  log(lines.at(-1)!);
}

// One document rewritten, as a store write swaps it in (the store's own write path would also build the
// full-text indexes, which LanceDB 0.31 hangs on in a process that has just bulk-written the table).
const rewritten = documentRows(0, texts.slice(1), root).map((r) => ({ ...r, id: `${r.id}@new` }));
await swapIn(table!, rewritten, [rewritten[0]!.source], dbPath);
const refresh = await time(() => findMentions(app, QUERIES[0]![1]));
// The cache file is written SAVE_DELAY_MS after the answer; a find asked meanwhile waits for the write.
const saving = await time(() => app.mentions.saved());
const after = await time(() => findMentions(app, QUERIES[0]![1]));
lines.push("", `After one document is rewritten: first query ${fmt(refresh, 0)} ms (reads the changed source), then ${fmt(after, 0)} ms; the cache file was written ${fmt(saving, 0)} ms after the first answer (250 ms of waiting, then the write, which holds the thread).`);

// A new process: a fresh App over the same index and CACHE_DIR, as a CLI `find` or a restarted server is.
const fromFile = await time(() => findMentions(createApp(config, { log: () => {} }), QUERIES[0]![1]));
const another = documentRows(1, texts.slice(2), root).map((r) => ({ ...r, id: `${r.id}@new` }));
await swapIn(table!, another, [another[0]!.source], dbPath);
const fromFileAndChange = await time(() => findMentions(createApp(config, { log: () => {} }), QUERIES[0]![1]));
lines.push(`A new App in this process, first query: ${fmt(fromFile, 0)} ms from the cache file; ${fmt(fromFileAndChange, 0)} ms with one document rewritten since the file was written (cold without the file: ${fmt(cold, 0)} ms).`);

// A process of its own, as a restarted server or a CLI `find` is (mentions-new-process.ts), once the file holds the latest text.
await app.mentions.saved();
await findMentions(app, QUERIES[0]![1]);
await app.mentions.saved();
const own = Bun.spawnSync(["bun", join(import.meta.dir, "mentions-new-process.ts"), JSON.stringify(env), QUERIES[0]![1].terms[0]!], { stderr: "inherit" });
const { firstMs, warmMs } = JSON.parse(own.stdout.toString()) as { firstMs: number; warmMs: number };
lines.push(`A process of its own (${QUERIES[0]![0]}): first query ${fmt(firstMs, 0)} ms, then ${fmt(warmMs, 0)} ms warm (p50 of 5).`);
console.log(lines.join("\n"));
