/** Whether a watched root is still the same folder (src/watch/root-check.ts). */
import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkRoot } from "../../src/watch/root-check.ts";
import { tempDir } from "../helpers.ts";

describe("checkRoot", () => {
  test("a root deleted and made again at once is another folder, even where the disk gives it the same inode number", () => {
    const root = join(tempDir(), "docs");
    mkdirSync(root);
    const first = checkRoot(root);
    const inode = statSync(root).ino;
    let again = first;
    // ext4 hands the freed number straight back (the probe that found this saw it every time); tried a few times so
    // the same-number case is met where the disk does that, and the other case is checked anyway.
    for (let i = 0; i < 5; i++) {
      rmSync(root, { recursive: true });
      mkdirSync(root);
      again = checkRoot(root);
      if (statSync(root).ino === inode) break;
    }
    expect(first.ok && again.ok).toBe(true);
    expect(again).not.toEqual(first);
  });

  test("the same folder keeps its identity while files come and go in it", () => {
    const root = tempDir();
    const before = checkRoot(root);
    writeFileSync(join(root, "a.md"), "x");
    rmSync(join(root, "a.md"));
    expect(checkRoot(root)).toEqual(before);
  });

  test("a root that is gone, or a file, is named as such", () => {
    expect(checkRoot(join(tempDir(), "gone"))).toEqual({ ok: false, reason: "it does not exist" });
    const file = join(tempDir(), "f");
    writeFileSync(file, "x");
    expect(checkRoot(file)).toEqual({ ok: false, reason: "it is not a folder" });
  });
});
