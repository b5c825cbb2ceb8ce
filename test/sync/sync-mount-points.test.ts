/**
 * The nested-drive rule without mounting anything: the scan reports folders
 * on another device than their parent (an injected stat stands in for
 * st_dev), emptiedFolders keeps such a folder when it is empty while its index
 * is not, and a sync keeps one it remembers from an earlier sync. The real
 * mounts are in test/e2e/nested-drive.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { emptiedFolders, mountPointsToRemember } from "../../src/scan/emptied-folders.ts";
import { scanRoots, type DeviceOf } from "../../src/scan/scan-roots.ts";
import { MOUNT_POINTS_FILE, readMountPoints } from "../../src/store/mount-points.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

/** st_dev as a table: a folder under a listed prefix is on that device, anything else on device 1. */
function devices(table: Record<string, number>): DeviceOf {
  return async (folder) => {
    const prefix = Object.keys(table).filter((p) => folder === p || folder.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
    return prefix ? table[prefix]! : 1;
  };
}

describe("the scan finds folders on a drive of their own", () => {
  test("a folder on another device than its parent is a mount point; its subfolders and plain folders are not", async () => {
    const root = tempDir();
    writeTree(root, { "archive/a.md": "a", "archive/inner/b.md": "b", "plain/c.md": "c" });
    const scan = await scanRoots([root], SUPPORTED_EXTENSIONS, undefined, devices({ [join(root, "archive")]: 2 }));
    expect(scan.mountPoints).toEqual([join(root, "archive")]);
  });

  test("a root on its own device is not listed (roots are kept when emptied anyway), a scope that is a mount point is", async () => {
    const root = tempDir();
    writeTree(root, { "archive/a.md": "a" });
    const deviceOf = devices({ [root]: 5, [join(root, "archive")]: 6 });
    expect((await scanRoots([root], SUPPORTED_EXTENSIONS, undefined, deviceOf)).mountPoints).toEqual([join(root, "archive")]);
    expect((await scanRoots([root], SUPPORTED_EXTENSIONS, [join(root, "archive")], deviceOf)).mountPoints).toEqual([join(root, "archive")]);
  });

  test("an empty mount point is found as well as a full one", async () => {
    const root = tempDir();
    mkdirSync(join(root, "archive"));
    const scan = await scanRoots([root], SUPPORTED_EXTENSIONS, undefined, devices({ [join(root, "archive")]: 2 }));
    expect(scan.mountPoints).toEqual([join(root, "archive")]);
  });
});

describe("which emptied folders keep their index", () => {
  const root = "/docs";
  const indexed = ["/docs/top.md", "/docs/archive/a.md", "/docs/archive/b.md", "/elsewhere/x.md"];

  test.each([
    ["a mount point with nothing seen under it and files indexed", ["/docs/archive"], ["/docs/top.md"], undefined, ["/docs/archive"]],
    ["a mount point with a file seen under it", ["/docs/archive"], ["/docs/top.md", "/docs/archive/b.md"], undefined, []],
    ["a mount point with nothing indexed under it", ["/docs/empty"], ["/docs/top.md"], undefined, []],
    ["a mount point outside the roots (remembered from older roots)", ["/elsewhere"], ["/docs/top.md"], undefined, []],
    ["a mount point outside the sync's scope", ["/docs/archive"], [], ["/docs/other"], []],
    ["a mount point inside an emptied root: the root alone", ["/docs/archive"], [], undefined, ["/docs"]],
  ] as [string, string[], string[], string[] | undefined, string[]][])("%s", (_, mountPoints, seen, scopes, expected) => {
    expect(emptiedFolders([root], mountPoints, seen, indexed, scopes).map((e) => e.folder)).toEqual(expected);
  });

  test("a root emptied is a root; a mount point is not, and one whose folder is gone says so", () => {
    expect(emptiedFolders(["/nowhere-root"], ["/nowhere-root/drive"], [], ["/nowhere-root/drive/a.md"])).toEqual([{ folder: "/nowhere-root", isRoot: true, reason: "it does not exist" }]);
    expect(emptiedFolders(["/"], ["/nowhere-drive"], ["/x.md"], ["/nowhere-drive/a.md"])).toEqual([{ folder: "/nowhere-drive", isRoot: false, reason: "it does not exist" }]);
  });

  test("remembered: those seen mounted and those kept; a scoped sync forgets none it did not look at", () => {
    expect(mountPointsToRemember(["/docs/a", "/docs/b"], ["/docs/c"], ["/docs/a"])).toEqual(["/docs/a", "/docs/c"]);
    expect(mountPointsToRemember(["/docs/a", "/docs/b"], [], [], ["/docs/b"])).toEqual(["/docs/a"]);
  });
});

describe("a sync keeps a nested drive it saw mounted before", () => {
  test("unplugged (an empty folder, then none), it keeps the drive's entries and fails naming it; back, nothing is read again", async () => {
    const root = tempDir("minirag-nested-");
    const drive = join(root, "archive");
    writeTree(root, { "top.md": "top", "archive/a.md": "alpha", "archive/b.md": "beta" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    // What a sync that saw archive/ on its own device leaves beside the index.
    await Bun.write(join(app.config.dbPath, MOUNT_POINTS_FILE), JSON.stringify({ folders: [drive] }));

    renameSync(drive, join(root, "..", "archive-away"));
    mkdirSync(drive);
    const emptied = await runSync(app);
    expect(emptied.counts).toMatchObject({ deleted: 0, failed: 1 });
    expect(emptied.unlistedFolders).toEqual([{ folder: drive, reason: "it is an empty folder", kept: 2 }]);
    expect((await listFiles(app)).files.filter((f) => f.state === "unlisted").map((f) => f.displayPath)).toEqual(["archive/a.md", "archive/b.md"]);

    rmSync(drive, { recursive: true });
    expect((await runSync(app)).unlistedFolders).toEqual([{ folder: drive, reason: "it does not exist", kept: 2 }]);
    expect(readMountPoints(app.config.dbPath)).toEqual([drive]);

    renameSync(join(root, "..", "archive-away"), drive);
    expect((await runSync(app)).counts).toMatchObject({ skipped: 3, ingested: 0, deleted: 0, failed: 0 });
  });

  test("a remembered mount point that is now a plain folder with files is forgotten, and its files delete as usual", async () => {
    const root = tempDir("minirag-nested-");
    const drive = join(root, "archive");
    writeTree(root, { "top.md": "top", "archive/a.md": "alpha" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    await Bun.write(join(app.config.dbPath, MOUNT_POINTS_FILE), JSON.stringify({ folders: [drive] }));
    writeTree(root, { "archive/b.md": "beta" });
    await runSync(app);
    expect(readMountPoints(app.config.dbPath)).toEqual([]);
    rmSync(join(drive, "a.md"));
    rmSync(join(drive, "b.md"));
    expect((await runSync(app)).counts).toMatchObject({ deleted: 2, failed: 0 });
  });
});
