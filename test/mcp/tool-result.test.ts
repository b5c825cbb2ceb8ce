/** A tool's failure as the model reads it (src/mcp/tool-result.ts). */
import { expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { toolResult } from "../../src/mcp/tool-result.ts";

const textOf = (result: Awaited<ReturnType<typeof toolResult>>) => (result.content[0] as { text: string }).text;

test("an answer is structured content and the same JSON as text", async () => {
  const result = await toolResult(() => ({ found: 2 }));
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toEqual({ found: 2 });
  expect(JSON.parse(textOf(result))).toEqual({ found: 2 });
});

test("an AppError is its message and its fix", async () => {
  const result = await toolResult(() => {
    throw new AppError("INVALID_ARGUMENT", "topK must be at least 1, got 0", "Pass topK from 1 to 100.");
  });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toBe("topK must be at least 1, got 0\nPass topK from 1 to 100.");
});

test("LanceDB's chain of causes from a store that stopped answering is one line with its fix (found by a probe: 2 kB of Rust debug text)", async () => {
  const raw =
    "lance error: LanceError(IO): Generic S3 error: Error performing list request: Error performing GET http://127.0.0.1:5060/team?list-type=2&prefix=idx1%2Fchunks.lance%2F_versions%2F in 322.130962ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_store.rs:849:92  Caused by: error sending request";
  const result = await toolResult(() => {
    throw new Error(raw);
  });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toStartWith("The object store stopped answering: GET http://127.0.0.1:5060/team?list-type=2&prefix=idx1%2Fchunks.lance%2F_versions%2F failed (error sending request).\n");
  expect(textOf(result)).not.toContain(".rs:");
});
