/**
 * Look-alike signatures kept between processes: the file's own checks, and
 * Apps over a real index (LanceDB, the tiny model) where a second App at the
 * same version reads no signature from the table and finds the same
 * look-alikes, and one after a write reads the table again.
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp, type App } from "../../src/app.ts";
import { readSignatureCache, signatureCachePath, writeSignatureCache, type StoredSignatures } from "../../src/lookalikes/signature-cache-file.ts";
import { PERMUTATIONS } from "../../src/lookalikes/minhash.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { VERSION } from "../../src/version.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const slots = (seed: number) => Uint32Array.from({ length: PERMUTATIONS }, (_, i) => (seed * 2654435761 + i * 40503) >>> 0);
const stored: StoredSignatures = {
  sources: ["/r/отчёт.md", "/r/empty.md", "/r/b.md"],
  dates: ["2026-08-01", null, null],
  keys: [11, 12, 13],
  signatures: [slots(1), new Uint32Array(0), slots(2)],
};
const plainly = (s: StoredSignatures | null) => s && { ...s, signatures: s.signatures.map((x) => [...x]) };

describe("the signature file", () => {
  test("gives back every signature of the version it was written at, an empty one included", async () => {
    const path = join(tempDir("minirag-signatures-"), "sub", "index.signatures");
    await writeSignatureCache(path, "dev:ino|7|manifest", stored);
    expect(plainly(readSignatureCache(path, "dev:ino|7|manifest"))).toEqual(plainly(stored));
  });

  test("gives nothing for another index version, or when absent, damaged, cut short or another program's", async () => {
    const path = join(tempDir("minirag-signatures-"), "index.signatures");
    expect(readSignatureCache(path, "v")).toBeNull();
    await writeSignatureCache(path, "v", stored);
    expect(readSignatureCache(path, "w")).toBeNull();
    const whole = readFileSync(path);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 5]! ^= 1;
    const otherProgram = Buffer.from(whole.toString("latin1").replace(` ${VERSION} `, " 0.0.0-other "), "latin1");
    for (const spoiled of [flipped, whole.subarray(0, whole.length - 4), otherProgram, Buffer.from("not a cache\n[]")]) {
      writeFileSync(path, spoiled);
      expect(readSignatureCache(path, "v")).toBeNull();
    }
  });

  test("each index has its own file", () => {
    expect(signatureCachePath("/c", "/a/lancedb")).not.toBe(signatureCachePath("/c", "/b/lancedb"));
    expect(signatureCachePath("/c", "s3://bucket/team")).toStartWith("/c/look-alikes/");
  });
});

/** Every document's look-alikes as the App's signatures give them at the index's latest version. */
async function lookAlikes(app: App): Promise<Record<string, string[]>> {
  const store = await app.store.snapshot();
  const view = await app.signatures.at(store);
  const out: Record<string, string[]> = {};
  for (const source of (await store.listSources()).map((s) => s.source).sort()) out[source] = view.similarTo(source, 0.3, 10).map((s) => s.source);
  return out;
}

describe("a new process over the same index", () => {
  afterEach(() => {
    (ChunkStore.prototype.signatureBytes as unknown as { mockRestore?: () => void }).mockRestore?.();
  });

  test("at the version the file was written at reads no signature from the table and finds the same look-alikes; after a write it reads the table; an update is kept too", async () => {
    const { app: first, root } = await testApp();
    const memo = "Quarterly report on the pumping station: the two pumps ran for 2,000 hours and the valves were replaced in May.";
    writeTree(root, { "a.md": `# Report\n\n${memo}`, "b.md": `# Report copy\n\n${memo} Signed by the engineer.`, "c.md": "# Fen\n\nSedge and peat under a grey sky." });
    await runSync(first);
    const expected = await lookAlikes(first);
    expect(expected[join(root, "a.md")]).toEqual([join(root, "b.md")]);
    await first.signatures.saved();

    const reads = spyOn(ChunkStore.prototype, "signatureBytes");
    const second = createApp(first.config, { log: () => {} });
    expect(await lookAlikes(second)).toEqual(expected);
    expect(reads.mock.calls).toEqual([]);

    writeFileSync(join(root, "c.md"), `# Fen copy\n\n${memo}`);
    await runSync(first);
    const third = createApp(first.config, { log: () => {} });
    const after = await lookAlikes(third);
    expect(after[join(root, "c.md")]).toEqual(expect.arrayContaining([join(root, "a.md")]));
    expect(reads.mock.calls).toEqual([[]]);
    expect(after).toEqual(await lookAlikes(first));

    // A process that brought its signatures up to date after a write (reading only what changed) keeps them too.
    writeFileSync(join(root, "c.md"), "# Fen\n\nSedge and peat under a grey sky, again.");
    await runSync(first);
    const updated = await lookAlikes(first);
    await first.signatures.saved();
    reads.mockClear();
    expect(await lookAlikes(createApp(first.config, { log: () => {} }))).toEqual(updated);
    expect(reads.mock.calls).toEqual([]);
  });

  test("a file written at the version but spoiled since is not used: the table is read and the look-alikes are the same", async () => {
    const { app: first, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nAlpha harbour pilot boat at dawn, the tide turning.", "b.md": "# B\n\nAlpha harbour pilot boat at dawn, the tide turning late." });
    await runSync(first);
    const expected = await lookAlikes(first);
    await first.signatures.saved();
    const file = signatureCachePath(first.config.cacheDir, first.config.dbPath);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(file, bytes);

    const reads = spyOn(ChunkStore.prototype, "signatureBytes");
    expect(await lookAlikes(createApp(first.config, { log: () => {} }))).toEqual(expected);
    expect(reads.mock.calls).toEqual([[]]);
  });
});
