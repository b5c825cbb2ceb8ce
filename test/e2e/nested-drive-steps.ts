/**
 * The nested-drive scenario of nested-drive.test.ts, run inside a mount
 * namespace of its own (unshare -m), so its tmpfs mounts never outlive it or
 * show outside. A drive is a tmpfs mounted on <root>/archive; the compiled
 * binary syncs with the index in its default place, <root>/.minirag/lancedb.
 * Prints one JSON object: each step's sync (or list) output by name.
 *
 * Usage: bun nested-drive-steps.ts <work folder> <binary> <model folder>
 */
import { cpSync, mkdirSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeVersion } from "./sync-procs.ts";
import { binaryRunner, sh } from "./namespace-steps.ts";

const [work, binary, model] = process.argv.slice(2) as [string, string, string];
const root = join(work, "docs");
const drive = join(root, "archive");
const backup = join(work, "backup");
const env = { BASE_DIR: root, MODEL_NAME: model, HOME: process.env.HOME ?? work, PATH: process.env.PATH ?? "", NO_COLOR: "1" };
const DRIVE_FILES = Array.from({ length: 7 }, (_, i) => `scan${i + 1}`);

const binaryRun = binaryRunner(binary, env);

const plugIn = () => sh(["mount", "-t", "tmpfs", "-o", "size=16m", "minirag-drive", drive]);
const unplug = () => sh(["umount", drive]);

const steps: Record<string, ReturnType<typeof binaryRun>> = {};
mkdirSync(drive, { recursive: true });
mkdirSync(join(root, "drafts"));
writeVersion(root, ["notes"], 1);
writeVersion(join(root, "drafts"), ["draft"], 1);
plugIn();
try {
  writeVersion(drive, DRIVE_FILES, 1);
  cpSync(drive, backup, { recursive: true, preserveTimestamps: true });
  steps.first = binaryRun(["sync", "--json"]);

  // Unmounted: a plain empty folder on the root's own device, as an fstab mount point is with its disk away.
  // A plain folder emptied at the same time is an ordinary deletion.
  unplug();
  rmSync(join(root, "drafts", "draft.md"));
  steps.unmounted = binaryRun(["sync", "--json"]);
  steps.unmountedList = binaryRun(["list", "--json"]);

  // Mounted but empty: another device than its parent (an automounter whose share did not come up).
  plugIn();
  steps.mountedEmpty = binaryRun(["sync", "--json"]);
  unplug();

  // The folder gone with its drive, as a desktop removes /media/<user>/<label>.
  rmdirSync(drive);
  steps.folderGone = binaryRun(["sync", "--json"]);

  mkdirSync(drive);
  plugIn();
  for (const name of readdirSync(backup)) cpSync(join(backup, name), join(drive, name), { preserveTimestamps: true });
  steps.back = binaryRun(["sync", "--json"]);
} finally {
  Bun.spawnSync(["umount", drive]);
}
console.log(JSON.stringify(steps));
