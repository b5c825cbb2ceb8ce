/** Remembering failed files when the index cannot take the record (src/ingest/failure-memory.ts). */
import { describe, expect, test } from "bun:test";
import { rememberOutcomes } from "../../src/ingest/failure-memory.ts";
import { testApp } from "../helpers.ts";

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
});
