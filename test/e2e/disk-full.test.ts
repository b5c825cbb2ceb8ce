/**
 * The disk that holds the index fills during a sync (a real tmpfs, in a
 * mount namespace of the test's own: disk-full-steps.ts). Every write of the
 * index failed with LanceDB's kilobyte of Rust causes, naming neither the
 * disk nor a way out, and the sync went on reading, embedding and failing
 * every remaining file with a warning that blamed the document (found by a
 * fault probe). Now the sync stops at the first failed write with one line
 * naming the full disk and the fix; what was indexed stays whole and
 * readable; once there is room the next sync finishes.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, FIXTURES, TINY_MODEL, tempDir } from "../helpers.ts";

const NAMESPACE = ["unshare", "-m", "--propagation", "private"];

/** Why a tmpfs cannot be mounted in a namespace of our own here (it needs root, for remount), or null. */
function mountUnavailable(): string | null {
  if (process.platform !== "linux") return `mount namespaces are Linux-only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return "remounting a tmpfs larger needs root";
  const probe = Bun.spawnSync([...NAMESPACE, "mount", "-t", "tmpfs", "minirag-probe", tempDir("minirag-mount-probe-")], { stderr: "pipe" });
  return probe.exitCode === 0 ? null : `${NAMESPACE.join(" ")} mount -t tmpfs failed: ${probe.stderr.toString().trim()}`;
}

const unavailable = mountUnavailable();
type Step = { exitCode: number; stdout: string; stderr: string };

describe("the disk that holds the index fills during a sync", () => {
  test.skipIf(unavailable !== null)(
    `the sync stops with one line naming the full disk, what was indexed stays readable, and with room the next sync finishes${unavailable ? ` (skipped: ${unavailable})` : ""}`,
    () => {
      const work = tempDir("minirag-disk-full-");
      const run = Bun.spawnSync([...NAMESPACE, process.execPath, join(import.meta.dir, "disk-full-steps.ts"), work, BINARY, TINY_MODEL, join(FIXTURES, "xquad-en", "docs")], { stdout: "pipe", stderr: "pipe", env: process.env });
      expect(run.stderr.toString()).toBe("");
      expect(run.exitCode).toBe(0);
      const steps = JSON.parse(run.stdout.toString());
      const step = (name: string) => steps[name] as Step;

      expect(step("firstSync").exitCode).toBe(0);
      const full = step("fullSync");
      expect(full.exitCode).toBe(1);
      expect(full.stderr.trim().split("\n")).toEqual([
        "error: The disk the index is written to is full (No space left on device).",
        "Free space on it, or point DB_PATH (or --db-path) at a folder on a disk with room. Nothing indexed is lost (each document is written in one commit); the next sync goes on where this one stopped.",
      ]);
      const status = JSON.parse(step("fullStatus").stdout);
      expect(status.indexError).toBeUndefined();
      expect(status.sourceCount).toBeGreaterThanOrEqual(4);
      for (const read of steps.fullReads as Step[]) expect(read.exitCode, read.stderr).toBe(0);

      const room = step("roomSync");
      expect(room.exitCode, room.stderr).toBe(0);
      expect(JSON.parse(room.stdout).counts.failed).toBe(0);
      expect(JSON.parse(step("roomStatus").stdout).sourceCount).toBe(steps.total);
    },
    120_000,
  );
});
