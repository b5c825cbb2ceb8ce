import { describe, expect, test } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { manifestTags, replacedInStore } from "../../src/store/copy-history.ts";
import { tempDir } from "../helpers.ts";

const manifest = (n: number, etag: string, size = 10) => ({ key: `chunks.lance/_versions/${n}.manifest`, size, etag });

describe("whether a local copy is still of the table in the store", () => {
  test("by the store's tags of the manifests it took: another tag under a name it took is another table; names it never took and other files do not count", () => {
    const copied = manifestTags([manifest(1, "a"), manifest(2, "b"), { key: "chunks.lance/data/x.lance", size: 5, etag: "d" }]);
    expect(copied).toEqual({ "chunks.lance/_versions/1.manifest": "a", "chunks.lance/_versions/2.manifest": "b" });
    expect(replacedInStore([manifest(1, "a"), manifest(2, "b"), manifest(3, "c")], copied, tempDir())).toBe(false);
    expect(replacedInStore([manifest(1, "a"), manifest(2, "other")], copied, tempDir())).toBe(true);
    expect(replacedInStore([{ key: "chunks.lance/data/x.lance", size: 5, etag: "other" }], copied, tempDir())).toBe(false);
    // Just after a replacement was found: nothing taken yet, nothing to compare.
    expect(replacedInStore([manifest(1, "new")], {}, tempDir())).toBe(false);
  });

  test("a copy made before tags were kept compares the sizes of the manifests on its disk", () => {
    const folder = tempDir();
    mkdirSync(join(folder, "chunks.lance", "_versions"), { recursive: true });
    writeFileSync(join(folder, "chunks.lance", "_versions", "1.manifest"), "0123456789");
    expect(replacedInStore([manifest(1, "any", 10)], undefined, folder)).toBe(false);
    expect(replacedInStore([manifest(1, "any", 11)], undefined, folder)).toBe(true);
    expect(replacedInStore([manifest(2, "any", 11)], undefined, folder)).toBe(false);
  });
});
