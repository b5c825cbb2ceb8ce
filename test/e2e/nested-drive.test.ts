/**
 * A drive mounted on a folder inside a root (a nested drive) that goes away:
 * unmounted (a plain empty folder is left), mounted empty, or with its folder
 * removed. Its folder was read as emptied and its files deleted (`deleted 7`),
 * then embedded again when it returned. Now a folder on another device than
 * its parent, or one a sync saw as such before, that is empty or gone while
 * its index is not keeps its entries, as a root does.
 *
 * The drive is a real tmpfs, mounted in a mount namespace of the test's own
 * (unshare -m, or -rm without root), so no mount outlives the test. Where
 * neither is permitted the test skips, naming why; test/sync/sync-mount-points.test.ts
 * covers the rule with an injected stat.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, TINY_MODEL, tempDir } from "../helpers.ts";

const NAMESPACE = ["unshare", process.getuid?.() === 0 ? "-m" : "-rm", "--propagation", "private"];

/** Why a tmpfs cannot be mounted in a namespace of our own here, or null when it can. */
function mountUnavailable(): string | null {
  if (process.platform !== "linux") return `mount namespaces are Linux-only (this is ${process.platform})`;
  const dir = tempDir("minirag-mount-probe-");
  try {
    const probe = Bun.spawnSync([...NAMESPACE, "mount", "-t", "tmpfs", "minirag-probe", dir], { stderr: "pipe" });
    return probe.exitCode === 0 ? null : `${NAMESPACE.join(" ")} mount -t tmpfs failed: ${probe.stderr.toString().trim()}`;
  } catch (error) {
    return `${NAMESPACE[0]} cannot run: ${(error as Error).message}`;
  }
}

const unavailable = mountUnavailable();
const countsOf = (step: { stdout: string }) => JSON.parse(step.stdout).counts;

describe("a nested drive that goes away", () => {
  test.skipIf(unavailable !== null)(
    `keeps its entries unmounted, mounted empty and with its folder gone, fails naming it, and is skipped whole when it returns${unavailable ? ` (skipped: ${unavailable})` : ""}`,
    () => {
      const work = tempDir("minirag-nested-drive-");
      const run = Bun.spawnSync([...NAMESPACE, process.execPath, join(import.meta.dir, "nested-drive-steps.ts"), work, BINARY, TINY_MODEL], { stdout: "pipe", stderr: "pipe", env: process.env });
      expect(run.stderr.toString()).toBe("");
      expect(run.exitCode).toBe(0);
      const steps = JSON.parse(run.stdout.toString());
      const drive = join(work, "docs", "archive");

      expect(steps.first.exitCode).toBe(0);
      expect(countsOf(steps.first)).toMatchObject({ scanned: 9, ingested: 9 });

      expect(steps.unmounted.exitCode).toBe(1);
      expect(countsOf(steps.unmounted)).toMatchObject({ scanned: 1, skipped: 1, deleted: 1, failed: 1 });
      expect(steps.unmounted.stderr).toContain(`${drive} is an empty folder while its index is not: kept the 7 indexed files under it (archive/scan1.md, archive/scan2.md, archive/scan3.md, and 4 more)`);
      const listing = JSON.parse(steps.unmountedList.stdout);
      expect(listing.unlistedFolders).toEqual([{ folder: drive, reason: "it is an empty folder" }]);
      expect(listing.files.filter((f: { state: string }) => f.state === "unlisted")).toHaveLength(7);

      expect(steps.mountedEmpty.exitCode).toBe(1);
      expect(countsOf(steps.mountedEmpty)).toMatchObject({ deleted: 0, failed: 1 });
      expect(JSON.parse(steps.mountedEmpty.stdout).unlistedFolders).toEqual([{ folder: drive, reason: "it is an empty folder", kept: 7 }]);

      expect(steps.folderGone.exitCode).toBe(1);
      expect(countsOf(steps.folderGone)).toMatchObject({ deleted: 0, failed: 1 });
      expect(JSON.parse(steps.folderGone.stdout).unlistedFolders).toEqual([{ folder: drive, reason: "it does not exist", kept: 7 }]);

      expect(steps.back.stderr).toBe("");
      expect(steps.back.exitCode).toBe(0);
      expect(countsOf(steps.back)).toMatchObject({ scanned: 8, skipped: 8, ingested: 0, deleted: 0, failed: 0 });
    },
  );
});
