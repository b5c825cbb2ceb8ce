/** The status report's view of chunks cut by an older chunking scheme (case 59). */
import { describe, expect, test } from "bun:test";
import { CHUNK_SCHEME } from "../src/config/defaults.ts";
import { loadLanceDb } from "../src/native/lancedb.ts";
import { fullStatus } from "../src/status.ts";
import { runSync } from "../src/sync/run-sync.ts";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { createApp } from "../src/app.ts";
import { join } from "node:path";
import { TINY_MODEL, tempDir, testApp, writeTree } from "./helpers.ts";

describe("status and the chunking scheme (case 59)", () => {
  test("a fresh index has no stale chunks and no warning", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nFirst file.", "b.md": "# Beta\n\nSecond file." });
    await runSync(app);
    const status = await fullStatus(app);
    expect(status).toMatchObject({ chunkScheme: CHUNK_SCHEME, staleChunkCount: 0 });
    expect(status.schemeWarning).toBeUndefined();
  });

  test("one chunk from an older scheme is counted, the warning says to re-sync, and a sync clears it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nFirst file.", "b.md": "# Beta\n\nSecond file." });
    await runSync(app);
    // What an index written by the previous release looks like: its rows carry the scheme they were cut with.
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    await table.update({ where: "chunk_index = 0 AND source LIKE '%/a.md'", values: { scheme: String(CHUNK_SCHEME - 1) } });

    const stale = await fullStatus(app);
    expect(stale.staleChunkCount).toBe(1);
    expect(stale.schemeWarning).toContain("re-sync");
    expect(stale.schemeWarning).toContain("1 chunk");

    await runSync(app);
    const fixed = await fullStatus(app);
    expect(fixed.staleChunkCount).toBe(0);
    expect(fixed.schemeWarning).toBeUndefined();
  });
});

describe("status and a model that cannot load", () => {
  const statusWith = async (modelName: string) => {
    const { loadConfig } = await import("../src/config/load-config.ts");
    const { configStatus } = await import("../src/status.ts");
    return configStatus(loadConfig({ env: { BASE_DIR: tempDir(), MODEL_NAME: modelName } }));
  };

  test("an unknown id, a folder that is not there, an empty folder and one without tokenizer.json are each named with the fix", async () => {
    expect((await statusWith("bogus-model")).modelProblem).toStartWith('Unknown model "bogus-model". MODEL_NAME must be a known model id');
    const gone = join(tempDir(), "gone");
    expect((await statusWith(gone)).modelProblem).toStartWith(`Model folder not found: ${gone}. MODEL_NAME must be`);
    const empty = tempDir();
    expect((await statusWith(empty)).modelProblem).toStartWith(`No model.onnx in the model folder ${empty}. MODEL_NAME must be`);
    const half = tempDir();
    copyFileSync(join(TINY_MODEL, "model.onnx"), join(half, "model.onnx"));
    expect((await statusWith(half)).modelProblem).toStartWith(`No tokenizer.json in the model folder ${half}.`);
  });

  test("a whole folder and a known id not downloaded yet are no problem", async () => {
    expect((await statusWith(TINY_MODEL)).modelProblem).toBeUndefined();
    expect((await statusWith("intfloat/multilingual-e5-small")).modelProblem).toBeUndefined();
  });
});

describe("status when one of its figures cannot be read", () => {
  test("keeps the figures read before it and names the error (the failed-files record's folder replaced by a file)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nSome text about rivers and bridges." });
    await runSync(app);
    const failed = join(app.config.dbPath, "failed_files.lance");
    rmSync(failed, { recursive: true, force: true });
    writeFileSync(failed, "not a table folder");
    const report = await fullStatus(createApp(app.config, { log: () => {} }));
    expect(report).toMatchObject({ chunkCount: 1, sourceCount: 1, staleChunkCount: 0 });
    expect(report.indexModel).toBeDefined();
    expect(report.indexError).toBeString();
  });
});
