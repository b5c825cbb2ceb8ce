/** What an answer over an empty index advises (src/search/empty-index-notice.ts). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { emptyIndexNotice } from "../../src/search/empty-index-notice.ts";
import { tempDir } from "../helpers.ts";

/** The default layout: the index inside the first root, unless `dbPath` says otherwise. */
const config = (roots: string[], dbPath = join(roots[0]!, ".minirag", "lancedb")) => ({ roots, rootsFrom: "BASE_DIR" as const, homeDir: "/home/ann", dbPath });

describe("an empty index", () => {
  test("with a root that exists and no sync under way: sync", () => {
    expect(emptyIndexNotice(config([tempDir()]))).toBe("The index is empty: nothing has been ingested yet. Run sync_start (or minirag-mcp sync) first.");
  });

  test("while a sync is under way: wait for it, not start one", () => {
    expect(emptyIndexNotice(config([tempDir()]), { syncing: "job" })).toBe("The index is empty: nothing has been ingested yet. A sync is under way: ask again when it ends (sync_status shows how far it has got).");
  });

  test("with no root on disk: the path is the problem, whatever runs, since a sync has nothing to read", () => {
    const gone = join(tempDir(), "unplugged");
    expect(emptyIndexNotice(config([gone]), { syncing: "watch" })).toBe(
      `The index is empty: nothing has been ingested yet. The document folder ${gone} does not exist, so a sync has nothing to read. Check the path (BASE_DIR, BASE_DIRS or --base-dir), or plug in the drive it lies on.`,
    );
    expect(emptyIndexNotice(config([gone, `${gone}-2`]))).toContain(`None of the document folders (${gone}, ${gone}-2) exists`);
    // One root of two on disk, the index elsewhere: the other's sync can run.
    expect(emptyIndexNotice(config([gone, tempDir()], join(tempDir(), "index")))).toContain("Run sync_start");
  });

  test("with the index inside a root that is not there: that root is the problem, since a sync is refused while it is gone", () => {
    const gone = join(tempDir(), "unplugged");
    expect(emptyIndexNotice(config([gone, tempDir()]))).toBe(
      `The index is empty: nothing has been ingested yet. The index lives in ${gone}, which does not exist, so it cannot be read or synced. Plug in the drive it lies on, or point DB_PATH (or --db-path) at a folder that exists.`,
    );
  });
});
