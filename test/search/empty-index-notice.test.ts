/** What an answer over an empty index advises (src/search/empty-index-notice.ts). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { emptyIndexNotice } from "../../src/search/empty-index-notice.ts";
import { tempDir } from "../helpers.ts";

const config = (roots: string[]) => ({ roots, rootsFrom: "BASE_DIR" as const, homeDir: "/home/ann" });

describe("an empty index", () => {
  test("with a root that exists and no sync under way: sync", () => {
    expect(emptyIndexNotice(config([tempDir()]))).toBe("The index is empty: nothing has been ingested yet. Run sync_start (or minirag-mcp sync) first.");
  });

  test("while a sync is under way: wait for it, not start one", () => {
    expect(emptyIndexNotice(config([tempDir()]), true)).toBe("The index is empty: nothing has been ingested yet. A sync is under way: ask again when it ends (sync_status shows how far it has got).");
  });

  test("with no root on disk: the path is the problem, whatever runs, since a sync has nothing to read", () => {
    const gone = join(tempDir(), "unplugged");
    expect(emptyIndexNotice(config([gone]), true)).toBe(
      `The index is empty: nothing has been ingested yet. The document folder ${gone} does not exist, so a sync has nothing to read. Check the path (BASE_DIR, BASE_DIRS or --base-dir), or plug in the drive it lies on.`,
    );
    expect(emptyIndexNotice(config([gone, `${gone}-2`]))).toContain(`None of the document folders (${gone}, ${gone}-2) exists`);
    // One root of two on disk: the other's sync can run.
    expect(emptyIndexNotice(config([gone, tempDir()]))).toContain("Run sync_start");
  });
});
