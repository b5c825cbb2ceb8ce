/**
 * find_mentions' text kept between processes: the file's own checks, and a
 * second App over a real index (LanceDB, the tiny model) that starts from the
 * file and reads back only what changed since it was written.
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { readCacheBytesNow } from "../../src/cache-file.ts";
import { inBlocks, plainDocument, type PlainDocument } from "../../src/mentions/mention-corpus.ts";
import { mentionCachePath, mentionDocuments, openMentionCache, writeMentionCache, type KeyedDocument } from "../../src/mentions/mention-cache-file.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { VERSION } from "../../src/version.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const plain: { key: string; doc: PlainDocument }[] = [
  { key: "k1", doc: { source: "/r/отчёт.md", title: "Отчёт", titleText: "отчет", seamless: true, chunks: [{ chunkIndex: 0, text: "годовой отчет склада", pages: null, contextLines: 0 }] } },
  { key: "k0", doc: { source: "/r/empty.md", title: "Empty", titleText: "empty", seamless: true, chunks: [{ chunkIndex: 0, text: "", pages: null, contextLines: 1 }] } },
  {
    key: "k2",
    doc: {
      source: "/r/ОТЧЕ\u0308Т.pdf",
      title: "Scan",
      titleText: "scan",
      seamless: false,
      chunks: [
        { chunkIndex: 0, text: "page one", pages: "1", contextLines: 0 },
        { chunkIndex: 1, text: "page two \u00ad", pages: "2-3", contextLines: 2 },
      ],
    },
  },
];

const documents = inBlocks(plain.map((p) => p.doc)).map((doc, i) => ({ key: plain[i]!.key, doc }));
/** The documents a cache file on disk holds, as a process takes them: none when it is absent or refused. */
const fileDocuments = (path: string) => {
  const file = openMentionCache(readCacheBytesNow(path));
  return file ? mentionDocuments(file) : new Map<string, KeyedDocument>();
};
const fileVersion = (path: string) => openMentionCache(readCacheBytesNow(path))?.indexVersion ?? null;
const plainly = (read: Map<string, { key: string; doc: Parameters<typeof plainDocument>[0] }>) => [...read.values()].map(({ key, doc }) => ({ key, doc: plainDocument(doc) }));

describe("the cache file", () => {
  test("gives back every document as written, under its key", async () => {
    const path = join(tempDir("minirag-mentions-file-"), "sub", "index.json");
    await writeMentionCache(path, documents);
    expect(plainly(fileDocuments(path))).toEqual(plain);
  });

  test("an absent, damaged, cut or other version's file gives nothing", async () => {
    const path = join(tempDir("minirag-mentions-file-"), "index.json");
    expect(fileDocuments(path).size).toBe(0);
    await writeMentionCache(path, documents);
    const whole = readFileSync(path, "utf8");
    for (const spoiled of [whole.replace("годовой", "годавой"), whole.slice(0, whole.length - 9), whole.replace(` ${VERSION} `, " 0.0.0-other "), "not a cache\n[]"]) {
      writeFileSync(path, spoiled);
      expect(fileDocuments(path).size).toBe(0);
    }
  });

  test("names the index version its text was read at, or none", async () => {
    const path = join(tempDir("minirag-mentions-file-"), "index.json");
    await writeMentionCache(path, documents, "folder|7|manifest");
    expect(fileVersion(path)).toBe("folder|7|manifest");
    expect(fileDocuments(path).size).toBe(3);
    await writeMentionCache(path, documents);
    expect(fileVersion(path)).toBeNull();
  });

  test("each index has its own file", () => {
    expect(mentionCachePath("/c", "/a/lancedb")).not.toBe(mentionCachePath("/c", "/b/lancedb"));
    expect(mentionCachePath("/c", "s3://bucket/team")).toStartWith("/c/find-mentions/");
  });
});

/** An index of two files, a.md and b.md, whose find_mentions' text one process has built and saved; file: where. */
async function twoFilesFound() {
  const { app: first, root } = await testApp();
  writeTree(root, { "a.md": "# A\n\nAlpha harbour.", "b.md": "# B\n\nBeta marsh." });
  await runSync(first);
  await findMentions(first, { terms: ["harbour"] });
  await first.mentions.saved();
  return { first, file: mentionCachePath(first.config.cacheDir, first.config.dbPath) };
}

describe("a new process over the same index", () => {
  afterEach(() => {
    for (const read of [ChunkStore.prototype.mentionRows, ChunkStore.prototype.sourceKeys]) (read as unknown as { mockRestore?: () => void }).mockRestore?.();
  });

  test("starts from the file and reads only the sources written since; a removed source is gone", async () => {
    const { app: first, root } = await testApp();
    writeTree(root, {
      "harbour.md": "# Harbour\n\nThe pilot boat left the harbour at dawn.",
      "marsh.md": "# Marsh\n\nA marsh harrier hunted over the reeds.",
      "archive.md": "# Archive\n\nLedgers of the harbour master, 1931.",
      "fen.md": "# Fen\n\nSedge and peat.",
      "moor.md": "# Moor\n\nHeather on the hill.",
      "dune.md": "# Dune\n\nMarram grass holds the sand.",
    });
    expect((await runSync(first)).counts.ingested).toBe(6);
    expect((await findMentions(first, { terms: ["harbour"] })).matchedDocuments).toBe(2);
    await first.mentions.saved();

    writeFileSync(join(root, "marsh.md"), "# Marsh\n\nA marsh harrier hunted over the harbour reeds.");
    rmSync(join(root, "archive.md"));
    expect((await runSync(first)).counts).toMatchObject({ ingested: 1, deleted: 1 });

    const reads = spyOn(ChunkStore.prototype, "mentionRows");
    const second = createApp(first.config, { log: () => {} });
    const found = await findMentions(second, { terms: ["harbour"] });
    expect(found.documents.map((d) => d.displayPath).sort()).toEqual(["harbour.md", "marsh.md"]);
    expect(found.searchedDocuments).toBe(5);
    // One read, of the source whose key changed (a change this small is read by source): the rest came from the file.
    expect(reads.mock.calls).toEqual([[[join(root, "marsh.md")]]]);
  });

  test("at the version the file was read at takes the file without reading the sources' keys; a file that names no version is read by keys and saved anew with this one", async () => {
    const { app: first, root } = await testApp();
    writeTree(root, { "harbour.md": "# Harbour\n\nThe pilot boat left the harbour at dawn.", "fen.md": "# Fen\n\nSedge and peat by the harbour." });
    await runSync(first);
    const expected = await findMentions(first, { terms: ["harbour"] });
    await first.mentions.saved();

    const keys = spyOn(ChunkStore.prototype, "sourceKeys");
    const rows = spyOn(ChunkStore.prototype, "mentionRows");
    const second = createApp(first.config, { log: () => {} });
    expect(await findMentions(second, { terms: ["harbour"] })).toEqual(expected);
    expect([keys.mock.calls.length, rows.mock.calls.length]).toEqual([0, 0]);

    // A file written without the version (a live store's text, or a build before versions were kept): keys are read.
    const file = mentionCachePath(first.config.cacheDir, first.config.dbPath);
    await writeMentionCache(file, fileDocuments(file).values());
    expect(fileVersion(file)).toBeNull();
    const third = createApp(first.config, { log: () => {} });
    expect(await findMentions(third, { terms: ["harbour"] })).toEqual(expected);
    expect([keys.mock.calls.length, rows.mock.calls.length]).toEqual([1, 0]);
    await third.mentions.saved();
    expect(fileVersion(file)).toBe((await third.store.snapshot()).durableVersion());
    expect(await findMentions(createApp(first.config, { log: () => {} }), { terms: ["harbour"] })).toEqual(expected);
    expect([keys.mock.calls.length, rows.mock.calls.length]).toEqual([1, 0]);
  });

  test("a new process's find reads the file before it opens the index: the bytes it read then are the ones used", async () => {
    const { first, file } = await twoFilesFound();
    const second = createApp(first.config, { log: () => {} });
    const started = spyOn(second.mentions, "startRead");
    const opened = spyOn(second.store, "snapshot").mockImplementation(async function (this: ChunkStore) {
      opened.mockRestore();
      // The read began before the index opens; once it is done the file may go: the find takes its text from it.
      expect(started).toHaveBeenCalledTimes(1);
      await started.mock.results[0]!.value;
      rmSync(file);
      return this.snapshot();
    });
    const keys = spyOn(ChunkStore.prototype, "sourceKeys");
    const rows = spyOn(ChunkStore.prototype, "mentionRows");
    expect((await findMentions(second, { terms: ["harbour"] })).documents.map((d) => d.displayPath)).toEqual(["a.md"]);
    expect([keys.mock.calls.length, rows.mock.calls.length]).toEqual([0, 0]);
    // Holding text, a process starts no read of its own.
    expect(second.mentions.startRead()).toBeUndefined();
  });

  test("one read of the file, whoever asks: two finds at once and the server's background load share it", async () => {
    const { first, file } = await twoFilesFound();
    const second = createApp(first.config, { log: () => {} });
    const read = second.mentions.startRead();
    expect(second.mentions.startRead()).toBe(read!);
    await read;
    // Gone once read: a load that read the file again would find nothing and read the index.
    rmSync(file);
    const keys = spyOn(ChunkStore.prototype, "sourceKeys");
    const rows = spyOn(ChunkStore.prototype, "mentionRows");
    const store = await second.store.snapshot();
    const [harbour, loaded, marsh] = await Promise.all([findMentions(second, { terms: ["harbour"] }), second.mentions.documents(store), findMentions(second, { terms: ["marsh"] })]);
    expect([harbour.documents.map((d) => d.displayPath), marsh.documents.map((d) => d.displayPath), loaded.length]).toEqual([["a.md"], ["b.md"], 2]);
    expect([keys.mock.calls.length, rows.mock.calls.length]).toEqual([0, 0]);
    // A find that ends before it needs the text lets its read go: the next load starts one of its own.
    const third = createApp(first.config, { log: () => {} });
    const dropped = third.mentions.startRead();
    third.mentions.dropRead();
    expect(third.mentions.startRead()).not.toBe(dropped!);
  });

  test("a find over an empty index lets go of the read it began", async () => {
    const { app } = await testApp();
    await writeMentionCache(mentionCachePath(app.config.cacheDir, app.config.dbPath), documents);
    const started = spyOn(app.mentions, "startRead");
    expect((await findMentions(app, { terms: ["harbour"] })).notice).toContain("The index is empty");
    const begun = started.mock.results[0]!.value;
    started.mockRestore();
    expect(begun).toBeInstanceOf(Promise);
    expect(app.mentions.startRead()).not.toBe(begun);
  });

  test("a file cut short while a process holds its text costs that process nothing (the text was read, not mapped)", async () => {
    const { first, file } = await twoFilesFound();
    const second = createApp(first.config, { log: () => {} });
    expect((await findMentions(second, { terms: ["harbour"] })).matchedDocuments).toBe(1);
    writeFileSync(file, "");
    expect((await findMentions(second, { terms: ["marsh"] })).documents[0]!.firstMatch!.snippet).toContain("Beta marsh");
  });

  test("without a file, or with a spoiled one, it reads the whole index and answers the same", async () => {
    const { first, file } = await twoFilesFound();
    writeFileSync(file, readFileSync(file, "utf8").replace("alpha", "gamma"));

    const reads = spyOn(ChunkStore.prototype, "mentionRows");
    const second = createApp(first.config, { log: () => {} });
    expect((await findMentions(second, { terms: ["alpha"] })).documents.map((d) => d.displayPath)).toEqual(["a.md"]);
    expect(reads.mock.calls).toEqual([[undefined]]);
    // ... and rewrites the file, which the next process then starts from.
    await second.mentions.saved();
    expect(fileDocuments(file).size).toBe(2);
  });
});
