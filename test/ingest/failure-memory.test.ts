/** Remembering failed files when the index cannot take the record (src/ingest/failure-memory.ts). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestFiles } from "../../src/ingest/ingest-files.ts";
import { rememberOutcomes } from "../../src/ingest/failure-memory.ts";
import { testApp, writeTree } from "../helpers.ts";

/** LanceDB's message for a store that stopped answering, as it came (causes and Rust source locations). */
const LANCE_STORE_GONE =
  "lance error: LanceError(IO): Generic S3 error: Error performing PUT http://127.0.0.1:52179/team-docs/cut/failed_files.lance/data/0.lance in 1.2s, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_store.rs:836:22\nCaused by: error sending request\n".repeat(3);

describe("a failure record the store cannot take", () => {
  test("is one warning line naming the store's problem, not LanceDB's chain of causes", async () => {
    const { app, logs } = await testApp();
    app.store.failures.update = async () => {
      throw new Error(LANCE_STORE_GONE);
    };
    const failed = [{ source: "/docs/a.pdf", fileSize: 1, mtime: 1, conditions: "c", error: "broken", failedAt: new Date().toISOString() }];
    await rememberOutcomes(app, failed, []);
    const warnings = logs.filter((l) => l.startsWith("warn: could not record"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toEndWith("The object store stopped answering: PUT http://127.0.0.1:52179/team-docs/cut/failed_files.lance/data/0.lance failed (error sending request).");
    expect(warnings[0]).not.toContain("cargo");
  });

  test("says nothing when the run has already lost the store (each file and the sync say so; found by a probe)", async () => {
    const { app, logs } = await testApp();
    app.store.failures.update = async () => {
      throw new Error(LANCE_STORE_GONE);
    };
    const failed = [{ source: "/docs/a.pdf", fileSize: 1, mtime: 1, conditions: "c", error: "broken", failedAt: new Date().toISOString() }];
    await rememberOutcomes(app, failed, [], [], true);
    expect(logs.filter((l) => l.startsWith("warn:"))).toEqual([]);
    // Lost or not, any other failure to record is still said.
    app.store.failures.update = async () => {
      throw new Error("disk full");
    };
    await rememberOutcomes(app, failed, [], [], true);
    expect(logs.filter((l) => l.startsWith("warn: could not record"))).toHaveLength(1);
  });

  test("ingestFiles tells it so: the group after the store went away fails by name, and no warning about the record follows", async () => {
    const { app, root, logs } = await testApp();
    // The first group closes at 32 chunks: a.md fills it, so b.md is written in a second commit, after the store has gone.
    const long = Array.from({ length: 80 }, (_, i) => `## Part ${i}\n\nPump ${i} moves water through pipe ${i} at its own pace.`).join("\n\n");
    writeTree(root, { "a.md": `# A\n\n${long}\n`, "b.md": "# B\n\nText about valves.\n" });
    const write = app.store.replaceSources.bind(app.store);
    let writes = 0;
    app.store.replaceSources = async (...args: Parameters<typeof write>) => {
      if (writes++ === 0) return write(...args);
      throw new Error(LANCE_STORE_GONE);
    };
    app.store.failures.all = async () => {
      throw new Error(LANCE_STORE_GONE);
    };
    const report = await ingestFiles(app, [join(root, "a.md"), join(root, "b.md")]);
    expect(report.results.map((r) => r.source)).toEqual([join(root, "a.md")]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.error).toStartWith("The object store stopped answering: PUT");
    expect(logs.filter((l) => l.includes("could not record"))).toEqual([]);
  });
});
