/**
 * The look-alike signatures an App holds (lookalikes/signature-index.ts):
 * one build at a time, and after a write only the written documents read,
 * with answers equal to a build from scratch.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ChunkStore } from "../../src/store/chunk-store.ts";
import type { SignatureBytes } from "../../src/store/signatures.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { REBUILD_PAST, SignatureIndex } from "../../src/lookalikes/signature-index.ts";
import { LOOK_ALIKE_THRESHOLD } from "../../src/lookalikes/look-alikes.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { FIXTURES, testApp, writeTree } from "../helpers.ts";

const HANDBOOK = readFileSync(join(FIXTURES, "chunk/warehouse-handbook.md"), "utf8");
const LIGHTHOUSES = readFileSync(join(FIXTURES, "chunk/lighthouses.md"), "utf8");
const HANDBOOK_V2 = `${HANDBOOK.replace(/Heavy items go on the lowest shelves[^\n]*/, "Heavy items go on the two lowest shelves.")}\n\n## Changes\n\nThe storage rules were tightened.\n`;

const NO_SIGNATURES: SignatureBytes = { sources: [], stored: [], dates: [], keys: [] };

/** Records which sources each read of the store asks for. */
function recordReads(store: ChunkStore): { bytes: (string[] | "all")[]; keys: number } {
  const reads = { bytes: [] as (string[] | "all")[], keys: 0 };
  const bytes = store.signatureBytes.bind(store);
  const keys = store.signatureKeys.bind(store);
  store.signatureBytes = (sources = "all") => {
    reads.bytes.push(sources === "all" ? "all" : [...sources].sort());
    return bytes(sources);
  };
  store.signatureKeys = () => {
    reads.keys++;
    return keys();
  };
  return reads;
}

describe("the signature index", () => {
  test("one build at a time per index: a newer version's build starts once the one under way has ended", async () => {
    const events: string[] = [];
    let finishFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => (finishFirst = resolve));
    let firstStarted = () => {};
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    // Stores of one index at two versions with no signatures: the first build reads them all, the next one
    // their keys (and finds nothing changed); each logs when it starts and ends.
    const logged = async <T>(version: number, held: Promise<void> | undefined, value: T) => {
      events.push(`build ${version} starts`);
      firstStarted();
      await held;
      events.push(`build ${version} ends`);
      return value;
    };
    const store = (version: number, held?: Promise<void>) =>
      ({
        contentVersion: async () => `${version}:1`,
        durableVersion: () => null,
        signatureKeys: () => logged(version, held, []),
        signatureBytes: () => logged(version, held, NO_SIGNATURES),
      }) as unknown as ChunkStore;
    const signatures = new SignatureIndex();
    const first = signatures.at(store(1, firstHeld));
    await started;
    const second = signatures.at(store(2));
    // A turn of the event loop: a second build that did not wait would have started by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(signatures.version()).toBe("2:1");
    expect(events).toEqual(["build 1 starts"]);
    finishFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(["build 1 starts", "build 1 ends", "build 2 starts", "build 2 ends"]);
  });

  test("queries that arrive together share one read, and after a write only the written document is read", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "handbook.md": HANDBOOK, "lighthouses.md": LIGHTHOUSES });
    await runSync(app);
    const reads = recordReads(app.store);
    const [first, second] = await Promise.all([app.signatures.at(app.store), app.signatures.at(app.store)]);
    expect(second).toBe(first);
    expect(first.size).toBe(2);
    expect(reads).toEqual({ bytes: ["all"], keys: 0 });

    await ingestData(app, { source: "pasted/handbook", content: HANDBOOK_V2, format: "markdown" });
    const after = await app.signatures.at(app.store);
    expect(after).not.toBe(first);
    expect(after.size).toBe(3);
    expect(reads).toEqual({ bytes: ["all", ["pasted/handbook"]], keys: 1 });
    const handbook = join(root, "handbook.md");
    // Both ways: from the banded document to the written one, and back.
    expect(after.similarTo(handbook, LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source)).toEqual(["pasted/handbook"]);
    expect(after.similarTo("pasted/handbook", LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source)).toEqual([handbook]);
  });

  test("over two writes in a row the first written document is kept and only the second is read", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "handbook.md": HANDBOOK, "lighthouses.md": LIGHTHOUSES });
    await runSync(app);
    await app.signatures.at(app.store);
    const reads = recordReads(app.store);
    await ingestData(app, { source: "pasted/one", content: HANDBOOK_V2, format: "markdown" });
    await app.signatures.at(app.store);
    await ingestData(app, { source: "pasted/two", content: LIGHTHOUSES, format: "markdown" });
    const view = await app.signatures.at(app.store);
    expect(reads).toEqual({ bytes: [["pasted/one"], ["pasted/two"]], keys: 2 });
    expect([...view.written.keys()].sort()).toEqual(["pasted/one", "pasted/two"]);
    expect(view.similarTo(join(root, "lighthouses.md"), LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source)).toEqual(["pasted/two"]);
    expect(view.similarTo("pasted/one", LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source)).toEqual([join(root, "handbook.md")]);
  });

  test("after deletes and rewrites, every document's look-alikes are those a build from scratch finds", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": HANDBOOK, "b.md": HANDBOOK_V2, "c.md": LIGHTHOUSES, "d.md": LIGHTHOUSES.slice(0, 2000) });
    await runSync(app);
    const kept = await app.signatures.at(app.store);
    expect(kept.similarTo(join(root, "a.md"), LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source)).toEqual([join(root, "b.md")]);
    // b goes, c becomes a copy of the handbook, e is new: a's look-alikes change on every side.
    rmSync(join(root, "b.md"));
    writeTree(root, { "c.md": HANDBOOK, "e.md": HANDBOOK_V2 });
    await runSync(app);
    const updated = await app.signatures.at(app.store);
    const fresh = await new SignatureIndex().at(app.store);
    expect(updated.written.size).toBeGreaterThan(0);
    expect(fresh.written.size).toBe(0);
    expect(updated.size).toBe(fresh.size);
    for (const name of ["a.md", "b.md", "c.md", "d.md", "e.md"]) {
      const source = join(root, name);
      expect(updated.has(source)).toBe(name !== "b.md");
      const sorted = (list: { source: string; overlap: number }[]) => list.map((s) => `${s.source} ${s.overlap}`).sort();
      expect(sorted(updated.similarTo(source, LOOK_ALIKE_THRESHOLD, 10))).toEqual(sorted(fresh.similarTo(source, LOOK_ALIKE_THRESHOLD, 10)));
    }
    expect(updated.similarTo(join(root, "a.md"), LOOK_ALIKE_THRESHOLD, 3).map((s) => s.source).sort()).toEqual([join(root, "c.md"), join(root, "e.md")]);
  });

  test(`past ${REBUILD_PAST} written documents the bands are built again from one read of every signature`, async () => {
    const asked: (string[] | "all")[] = [];
    const store = (version: number, written: number) =>
      ({
        contentVersion: async () => `${version}:1`,
        durableVersion: () => null,
        signatureKeys: async () => Array.from({ length: written }, (_, i) => ({ source: `/d/${i}.md`, key: i })),
        signatureBytes: async (sources: string[] | "all" = "all") => {
          asked.push(sources === "all" ? "all" : [`${sources.length} sources`]);
          return NO_SIGNATURES;
        },
      }) as unknown as ChunkStore;
    const signatures = new SignatureIndex();
    await signatures.at(store(1, 0));
    await signatures.at(store(2, REBUILD_PAST));
    await signatures.at(store(3, REBUILD_PAST + 1));
    expect(asked).toEqual(["all", [`${REBUILD_PAST} sources`], "all"]);
  });

  test("with most of the banded documents gone (a large delete) the bands are built again", async () => {
    const asked: string[] = [];
    const banded = 3 * REBUILD_PAST;
    // Signatures of documents with no words (empty): banded, never similar; the keys are all that matters here.
    const all: SignatureBytes = { sources: [], stored: [], dates: [], keys: [] };
    for (let i = 0; i < banded; i++) Object.values(all).forEach((column, c) => (column as unknown[]).push([`/d/${i}.md`, new Uint8Array(), null, i][c]));
    const store = (version: number, kept: number) =>
      ({
        contentVersion: async () => `${version}:1`,
        durableVersion: () => null,
        signatureKeys: async () => all.sources.slice(0, kept).map((source, i) => ({ source, key: i })),
        signatureBytes: async (sources: string[] | "all" = "all") => {
          asked.push(sources === "all" ? "all" : `${sources.length} sources`);
          return all;
        },
      }) as unknown as ChunkStore;
    const signatures = new SignatureIndex();
    expect((await signatures.at(store(1, banded))).size).toBe(banded);
    // Half gone: masked, nothing read. Past half: built again.
    expect((await signatures.at(store(2, banded / 2))).size).toBe(banded / 2);
    await signatures.at(store(3, banded / 2 - 1));
    expect(asked).toEqual(["all", "all"]);
  });
});
