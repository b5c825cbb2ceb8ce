/**
 * A folder the watching user may not read at first (made with mode 000, or
 * set to it), made readable later: it is watched from then on, and status
 * counts only the folders under watch. Root reads every folder, so the server
 * runs as the unprivileged user `nobody` (setpriv), as a user's server does.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BINARY, TINY_MODEL, waitFor, writeTree } from "../helpers.ts";
import { killAll, versionedDoc } from "./sync-procs.ts";
import { waitForFreshIndex, watchEnv } from "./watch-procs.ts";

afterAll(killAll);

const setpriv = Bun.spawnSync(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "true"]);
const canDrop = process.platform === "linux" && process.getuid?.() === 0 && setpriv.exitCode === 0;

/**
 * A scratch folder the user nobody may write in: under /tmp itself, since the test run's own temp folder (TMPDIR,
 * made private by the runner) is one nobody cannot enter. Removed after the test.
 */
const made: string[] = [];
const shared = (prefix: string) => {
  const dir = mkdtempSync(join("/tmp", prefix));
  chmodSync(dir, 0o777);
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The program and the model as nobody can run them: in place where nobody may enter their folders, else a copy (a checkout in a private folder). */
function forNobody(): { binary: string; model: string } {
  const reaches = (path: string) => Bun.spawnSync(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "test", "-r", path]).exitCode === 0;
  if (reaches(BINARY) && reaches(join(TINY_MODEL, "model.onnx"))) return { binary: BINARY, model: TINY_MODEL };
  const copy = shared("minirag-watch-perm-install-");
  cpSync(dirname(BINARY), join(copy, "bin"), { recursive: true });
  cpSync(TINY_MODEL, join(copy, "model"), { recursive: true });
  Bun.spawnSync(["chmod", "-R", "a+rX", copy]);
  return { binary: join(copy, "bin", basename(BINARY)), model: join(copy, "model") };
}

describe("a folder that becomes readable while watched", () => {
  test.skipIf(!canDrop)("is watched from then on: a file in it edited after the chmod is synced, and status counts only watched folders", async () => {
    const root = shared("minirag-watch-perm-");
    writeTree(root, { "a.md": versionedDoc("a", 1) });
    chmodSync(join(root, "a.md"), 0o644);
    // Made here, open to nobody: the test's own reads of the index (as root) would otherwise make the folder first, root's.
    const dbPath = join(shared("minirag-watch-perm-db-"), "lancedb");
    mkdirSync(dbPath);
    chmodSync(dbPath, 0o777);
    const home = shared("minirag-watch-perm-home-");
    const { binary, model } = forNobody();
    const client = new Client({ name: "watch-permissions", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: "setpriv",
        args: ["--reuid=65534", "--regid=65534", "--clear-groups", binary],
        env: watchEnv([root], dbPath, { HOME: home, CACHE_DIR: join(home, "cache"), MODEL_NAME: model }),
        stderr: "pipe",
      }),
    );
    const watch = async () => ((await client.callTool({ name: "status", arguments: {} })) as any).structuredContent.watch;
    try {
      await waitForFreshIndex(dbPath, [root]);
      const locked = join(root, "later");
      const made = new Date().toISOString();
      // Made unreadable to nobody from the first instant (root writes into it all the same).
      mkdirSync(locked, { mode: 0o000 });
      writeFileSync(join(locked, "f.md"), versionedDoc("f", 1));
      chmodSync(join(locked, "f.md"), 0o644);
      await waitFor(async () => {
        const w = await watch();
        return w.state === "watching" && w.pendingChanges === 0 && (w.lastSync?.startedAt ?? "") > made;
      }, 30_000, "a watched sync after the folder was made");
      // Not readable: no watch on it, and status does not count one.
      expect((await watch()).folders).toBe(1);
      chmodSync(locked, 0o755);
      await waitForFreshIndex(dbPath, [root]);
      expect((await watch()).folders).toBe(2);
      // The edit after the chmod reaches the index only through a watch on the folder.
      writeFileSync(join(locked, "f.md"), versionedDoc("f", 2));
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await client.close();
    }
  });

  if (!canDrop) test.skip(`needs Linux, root and setpriv to run the server as nobody (${setpriv.stderr.toString().trim() || process.platform})`, () => {});
});
