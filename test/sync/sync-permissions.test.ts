/**
 * Permission errors need a user the kernel holds to them: root reads
 * everything, so when the suite runs as root the CLI runs as nobody
 * (setpriv), and as itself otherwise. nobody may not be able to enter the
 * checkout (a clone under a 0700 folder such as mktemp -d makes), so it runs
 * the compiled binary from an open folder: the binary, its lib/ and the tiny
 * model hard-linked (or copied) there.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, linkSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";

const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];

function openDir(): string {
  const dir = tempDir("minirag-perm-");
  chmodSync(dir, 0o777);
  return dir;
}

/** The tree under `from` again under `to`, files hard-linked where the file system allows and copied where not. */
function openCopy(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o755 });
  for (const entry of readdirSync(from)) {
    const [source, target] = [join(from, entry), join(to, entry)];
    if (statSync(source).isDirectory()) openCopy(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

let exe: string[];
let model: string;
let cwd: string;
beforeAll(() => {
  cwd = openDir();
  openCopy(dirname(BINARY), join(cwd, "install"));
  exe = [...asUser, join(cwd, "install", basename(BINARY))];
  model = join(cwd, "tiny-model");
  openCopy(TINY_MODEL, model);
});

describe("permission errors", () => {
  test("a link to a file in a folder that can be entered but not listed is indexed under the link's path: the walk never lists the file itself", () => {
    const root = openDir();
    const home = openDir();
    const db = join(openDir(), "db");
    writeTree(root, { "locked/target.md": "# Target\n\nwombat burrow", "open/other.md": "other" });
    symlinkSync(join(root, "locked/target.md"), join(root, "open/link.md"));
    chmodSync(join(root, "locked"), 0o311);
    const env = { BASE_DIR: root, DB_PATH: db, MODEL_NAME: model, HOME: home };
    const sync = runCli(["sync", "--json"], { exe, env, cwd });
    expect(JSON.parse(sync.stdout).counts).toMatchObject({ ingested: 2 });
    // The folder it cannot list held nothing indexed: no failure, but said.
    expect(sync.stderr).toContain(`warn: ${join(root, "locked")}: could not be listed (permission denied), so nothing under it was indexed.`);
    const found = JSON.parse(runCli(["find", "wombat", "--json"], { exe, env, cwd }).stdout);
    expect(found.documents.map((d: { displayPath: string }) => d.displayPath)).toEqual(["open/link.md"]);
    chmodSync(join(root, "locked"), 0o755);
  });

  test("an unreadable subfolder and unreadable files keep their entries; new unreadable files are counted with a plain message", () => {
    const root = openDir();
    const home = openDir();
    const db = join(openDir(), "db");
    writeTree(root, { "a.md": "alpha", "private/b.md": "beta", "open.md": "open" });
    chmodSync(join(root, "private"), 0o777);
    const env = { BASE_DIR: root, DB_PATH: db, MODEL_NAME: model, HOME: home };
    const sync = () => runCli(["sync", "--json"], { exe, env, cwd });

    const first = sync();
    expect(first.stderr).not.toContain("warn:");
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout).counts).toMatchObject({ ingested: 3 });

    writeTree(root, { "a.md": "alpha, edited", "new.md": "new" });
    chmodSync(join(root, "a.md"), 0o000);
    chmodSync(join(root, "new.md"), 0o000);
    chmodSync(join(root, "private"), 0o000);
    const second = sync();
    const report = JSON.parse(second.stdout);
    expect(report.counts).toMatchObject({ ingested: 0, deleted: 0, unreadable: 2, failed: 1, skipped: 1 });
    expect(second.exitCode).toBe(1);
    expect(report.unlistedFolders).toEqual([{ folder: join(root, "private"), reason: "permission denied", kept: 1 }]);
    const messages = report.errors.map((e: { error: string }) => e.error).join("\n");
    expect(messages).toContain(`${join(root, "a.md")} cannot be read: permission denied. Give this user read access to it, then sync again`);
    expect(messages).toContain(`${join(root, "new.md")} cannot be read: permission denied.`);
    expect(messages).not.toContain("EACCES");

    const list = runCli(["list", "--json"], { exe, env, cwd });
    const states = Object.fromEntries(JSON.parse(list.stdout).files.map((f: { displayPath: string; state: string }) => [f.displayPath, f.state]));
    chmodSync(join(root, "private"), 0o755);
    expect(states).toEqual({ "a.md": "unreadable", "new.md": "not_ingested", "private/b.md": "unlisted", "open.md": "ingested" });
  });

  test("a read-only DB_PATH fails a sync once, with one line that names the folder and the fix", () => {
    const root = openDir();
    const dbParent = openDir();
    mkdirSync(join(dbParent, "db"));
    chmodSync(join(dbParent, "db"), 0o555);
    writeTree(root, { "a.md": "alpha" });
    const r = runCli(["sync"], { exe, cwd, env: { BASE_DIR: root, DB_PATH: join(dbParent, "db"), MODEL_NAME: model, HOME: openDir() } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`error: DB_PATH is read-only: ${join(dbParent, "db")} cannot be written`);
    expect(r.stderr).not.toContain("lance");
  });

  test("an index made read-only after it was built: reads answer, and sync and delete each fail with the one line naming the folder and the fix", () => {
    const root = openDir();
    const db = join(openDir(), "db");
    writeTree(root, { "a.md": "# A\n\nalpha harbour" });
    const env = { BASE_DIR: root, DB_PATH: db, MODEL_NAME: model, HOME: openDir() };
    expect(runCli(["sync"], { exe, cwd, env }).exitCode).toBe(0);
    Bun.spawnSync(["chmod", "-R", "a-w", db]);
    try {
      expect(JSON.parse(runCli(["find", "harbour", "--json"], { exe, cwd, env }).stdout).matchedDocuments).toBe(1);
      for (const args of [["delete", join(root, "a.md")], ["sync"]]) {
        const r = runCli(args, { exe, cwd, env });
        expect(r.exitCode, args.join(" ")).toBe(1);
        expect(r.stderr).toContain(`error: DB_PATH is read-only: ${db} cannot be written`);
        expect(r.stderr).not.toContain("lance");
      }
    } finally {
      Bun.spawnSync(["chmod", "-R", "u+w", db]);
    }
  });

  test.skipIf(asUser.length === 0)("an index another account synced (its data files 0600): reads and status name the file and the fix, and status does not say queries still work [needs root, to read as nobody]", () => {
    const root = openDir();
    const db = join(openDir(), "db");
    writeTree(root, { "a.md": "# A\n\nalpha harbour" });
    const env = { BASE_DIR: root, DB_PATH: db, MODEL_NAME: model, HOME: openDir() };
    // Built by this process's own user (root, where the suite runs as root), read as nobody.
    expect(runCli(["sync"], { exe: exe.slice(asUser.length), cwd, env }).exitCode).toBe(0);
    Bun.spawnSync(["chmod", "755", db]);
    const find = runCli(["find", "harbour"], { exe, cwd, env });
    expect(find.exitCode).toBe(1);
    expect(find.stderr).toContain("error: This user may not use the index's files (permission denied: ");
    const status = JSON.parse(runCli(["status", "--json"], { exe, cwd, env }).stdout);
    expect(status.indexError).toContain("give this user access to DB_PATH");
    expect(JSON.stringify(status)).not.toContain("Queries of an existing index still work");
  });

  test("a root that does not let this user in, with the index inside it: every command names that folder and the fix, none calls the index empty, and all answer again once it is readable", () => {
    const root = openDir();
    const home = openDir();
    writeTree(root, { "a.md": "# A\n\nwombat burrow" });
    const env = { BASE_DIR: root, MODEL_NAME: model, HOME: home };
    const run = (args: string[]) => runCli(args, { exe, env, cwd });
    expect(run(["sync"]).exitCode).toBe(0);
    const gate = `${root} does not let this user in`;
    chmodSync(root, 0o000);
    try {
      expect(JSON.parse(run(["status", "--json"]).stdout).indexError).toContain(`The index at ${join(root, ".minirag", "lancedb")} cannot be read: ${gate} (EACCES).`);
      for (const args of [["query", "wombat"], ["find", "wombat"], ["list"], ["sync"]]) {
        const r = run(args);
        expect(r.exitCode, args.join(" ")).toBe(1);
        expect(r.stderr).toContain(gate);
        expect(r.stderr).toContain(`Give this user read and search (x) permission on ${root}`);
        expect(`${r.stdout}${r.stderr}`).not.toMatch(/index is empty|read-only/);
      }
    } finally {
      chmodSync(root, 0o777);
    }
    expect(JSON.parse(run(["find", "wombat", "--json"]).stdout).matchedDocuments).toBe(1);
  });

  test("a root that does not let this user in, with the index elsewhere: the listing and the sync name the root (not a .miniragignore that is not there) and keep its entries", () => {
    const root = openDir();
    const home = openDir();
    writeTree(root, { "a.md": "# A\n\nwombat burrow" });
    const env = { BASE_DIR: root, DB_PATH: join(openDir(), "db"), MODEL_NAME: model, HOME: home };
    const run = (args: string[]) => runCli(args, { exe, env, cwd });
    expect(run(["sync"]).exitCode).toBe(0);
    chmodSync(root, 0o000);
    try {
      for (const args of [["list"], ["sync"]]) {
        const r = run(args);
        expect(r.stderr).toContain(`The document root ${root} does not let this user in (EACCES), so it was not scanned and nothing indexed under it was touched. Give this user read and search (x) permission on ${root}`);
        expect(r.stderr).not.toContain(".miniragignore");
      }
      expect(JSON.parse(run(["find", "wombat", "--json"]).stdout).matchedDocuments).toBe(1);
    } finally {
      chmodSync(root, 0o777);
    }
  });
});
