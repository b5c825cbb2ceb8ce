/**
 * Worker entry points are found by their path under src/: the file itself
 * from source, the entry at the root of the compiled binary's virtual file
 * system otherwise ($bunfs on POSIX, ~BUN on Windows), wherever the calling
 * module was bundled.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { workerEntryUrl } from "../../src/native/worker-url.ts";

describe("worker entry URLs", () => {
  test("from source: the entry's own file under src/, which exists", () => {
    for (const entry of ["embed/embed-worker.ts", "convert/convert-worker.ts", "ocr/tesseract-worker.ts"]) {
      const url = workerEntryUrl(entry);
      expect(url).toEndWith(`/src/${entry}`);
      expect(existsSync(fileURLToPath(url))).toBe(true);
    }
  });

  test("in a compiled binary: the entry at the root of the virtual file system, from a module in a chunk", () => {
    expect(workerEntryUrl("embed/embed-worker.ts", "file:///$bunfs/root/chunk-abc123.js")).toBe("file:///$bunfs/root/embed/embed-worker.ts");
    expect(workerEntryUrl("embed/embed-worker.ts", "/$bunfs/root/minirag-mcp")).toBe("/$bunfs/root/embed/embed-worker.ts");
    expect(workerEntryUrl("ocr/tesseract-worker.ts", "file:///B:/~BUN/root/chunk-abc123.js")).toBe("file:///B:/~BUN/root/ocr/tesseract-worker.ts");
  });
});
