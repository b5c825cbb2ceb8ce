/**
 * The documents' texts as blocks of bytes (mention-corpus.ts): a count reads only the documents it is given,
 * however much else their blocks hold, and the index gathers its documents into one block again once refreshes
 * have left much text nobody uses (real LanceDB, the tiny model).
 */
import { describe, expect, spyOn, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countMentions } from "../../src/mentions/count-mentions.ts";
import { blocksOf, compacted, inBlocks, plainDocument, type MentionDocument, type PlainDocument } from "../../src/mentions/mention-corpus.ts";
import { parseTerms } from "../../src/mentions/terms.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

const plain = (source: string, ...texts: string[]): PlainDocument => ({ source, title: source, titleText: source, seamless: true, chunks: texts.map((text, chunkIndex) => ({ chunkIndex, text, pages: null, contextLines: 0 })) });

describe("blocks", () => {
  test("a count reads only the documents it is given, though their block holds others", () => {
    const [harbour, marsh, old] = inBlocks([plain("/harbour", "the pilot boat", "a pilot's log"), plain("/marsh", "a marsh pilot"), plain("/old", "pilot pilot pilot")]);
    const counts = countMentions([harbour!, marsh!], parseTerms(["pilot"]), "all");
    expect(counts.documents.map((d) => [d.doc.source, d.matchedChunks])).toEqual([["/harbour", 2], ["/marsh", 1]]);
    expect(counts.matchedChunks).toBe(3);
    expect(counts.documents.map((d) => d.firstChunk!.chunkIndex)).toEqual([0, 0]);
    expect(blocksOf([harbour!, marsh!, old!]).size).toBe(1);
  });

  test("documents from several blocks are counted together, and compacting them changes no answer", () => {
    const first = inBlocks([plain("/a", "акт сверки", "копия акта"), plain("/b", "контакт")]);
    const second = inBlocks([plain("/c", "", "акты и акт")]);
    const docs = [...first, ...second];
    const before = countMentions(docs, parseTerms(["акт"]), "all");
    const packed = compacted(docs);
    expect(blocksOf(packed).size).toBe(1);
    expect(packed.map(plainDocument)).toEqual(docs.map(plainDocument));
    const after = countMentions(packed, parseTerms(["акт"]), "all");
    expect(after.documents.map((d) => [d.doc.source, d.matchedChunks, d.firstChunk!.chunkIndex])).toEqual([["/a", 2, 0], ["/c", 1, 1]]);
    expect(after.documents.map((d) => [d.doc.source, d.matchedChunks, d.firstChunk!.chunkIndex])).toEqual(before.documents.map((d) => [d.doc.source, d.matchedChunks, d.firstChunk!.chunkIndex]));
    expect(after.forms).toEqual(before.forms);
  });
});

describe("an index past one block's limit", () => {
  test("is laid out in several blocks, built or compacted, and counted as in one", () => {
    const docs = ["акт сверки", "копия акта", "контакт", "акты и акт", "the report"].map((text, d) => plain(`/d/${d}`, text, `${text} ещё`));
    const one = inBlocks(docs);
    const several = inBlocks(docs, 30);
    expect(blocksOf(several).size).toBeGreaterThan(2);
    expect(blocksOf(compacted(one, 30)).size).toBe(blocksOf(several).size);
    const summary = (found: MentionDocument[]) => countMentions(found, parseTerms(["акт"]), "all").documents.map((d) => [d.doc.source, d.matchedChunks]);
    expect(summary(several)).toEqual(summary(one));
    expect(summary(compacted(one, 30))).toEqual(summary(one));
  });
});

describe("a narrow scope", () => {
  test("searched where its documents lie gives what its documents alone in a block of their own give", () => {
    const words = ["акт", "акта", "актуально", "контакт", "report", "reporting", "harbour", "pilot's", "𝐓ext", "2024"];
    let seed = 11;
    const pick = () => words[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % words.length]!;
    const plainDocs = Array.from({ length: 200 }, (_, d) => plain(`/d/${d}`, ...Array.from({ length: 1 + (d % 4) }, () => Array.from({ length: 6 }, pick).join(" "))));
    const all = inBlocks(plainDocs);
    const summary = (counts: ReturnType<typeof countMentions>) => ({ docs: counts.documents.map((d) => [d.doc.source, d.matchedChunks, d.firstChunk?.chunkIndex]), forms: counts.forms, chunks: counts.matchedChunks });
    for (const [from, size] of [[0, 1], [57, 3], [120, 20], [199, 1]] as const) {
      const scope = all.slice(from, from + size);
      const alone = inBlocks(scope.map(plainDocument));
      for (const [terms, mode] of [[["акт"], "all"], [["акт", "report"], "all"], [["pilot", "контакт"], "any"], [['"акта"'], "all"], [["𝐓"], "any"]] as const) {
        expect(summary(countMentions(scope, parseTerms([...terms]), mode))).toEqual(summary(countMentions(alone, parseTerms([...terms]), mode)));
      }
    }
  });
});

describe("the index's blocks", () => {
  test("a refresh adds the changed document's block; once most text is unused, one block again", async () => {
    const { app, root } = await testApp();
    writeTree(root, Object.fromEntries(["one", "two", "three", "four"].map((name) => [`${name}.md`, `# ${name}\n\nThe harbour of ${name}, with its pilot boats.`])));
    await runSync(app);
    expect((await findMentions(app, { terms: ["harbour"] })).matchedDocuments).toBe(4);
    const blocks = async () => blocksOf(await app.mentions.documents(await app.store.snapshot()));
    expect((await blocks()).size).toBe(1);

    writeFileSync(join(root, "one.md"), "# one\n\nThe harbour of one, rebuilt.");
    await runSync(app);
    expect((await findMentions(app, { terms: ["rebuilt"] })).matchedDocuments).toBe(1);
    expect((await blocks()).size).toBe(2);

    for (const name of ["two", "three"]) rmSync(join(root, `${name}.md`));
    await runSync(app);
    expect((await findMentions(app, { terms: ["harbour"] })).documents.map((d) => d.displayPath).sort()).toEqual(["four.md", "one.md"]);
    const [block, ...others] = await blocks();
    expect(others).toEqual([]);
    const docs = await app.mentions.documents(await app.store.snapshot());
    expect(block!.bytes.length).toBe(docs.flatMap((d) => d.chunks).reduce((sum, c) => sum + block!.slotBytes(c.slot).length, 0));
  });
});

describe("the version questions are kept on (store/query-hold.ts)", () => {
  test("the text of the version before stays beside the latest: finds on either read nothing again", async () => {
    const { app, root } = await testApp();
    // Five documents besides the one that changes: the refresh adds a block, too little unused text to compact.
    writeTree(root, { "a.md": "# A\n\nThe harbour pilot.", "b.md": "# B\n\nThe marsh harrier.", ...Object.fromEntries(["c", "d", "e", "f"].map((n) => [`${n}.md`, `# ${n}\n\nThe fen and the moor.`])) });
    await runSync(app);
    await findMentions(app, { terms: ["harbour"] });
    await app.store.holdQueries();
    writeFileSync(join(root, "b.md"), "# B\n\nThe harbour harrier.");
    await runSync(app);
    // The server's background load reads the latest version's text while questions stay on the held one.
    await app.mentions.documents(await app.store.snapshot({ latest: true }));
    const reads = spyOn(ChunkStore.prototype, "mentionRows");
    try {
      expect((await findMentions(app, { terms: ["harbour"] })).matchedDocuments).toBe(1);
      app.store.queryHold.release();
      expect((await findMentions(app, { terms: ["harbour"] })).matchedDocuments).toBe(2);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });
});
