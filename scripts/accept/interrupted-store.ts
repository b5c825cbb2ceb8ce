/**
 * The store stopped in the middle of a sync and started again, on any store
 * reached through a TCP proxy (tcp-proxy.ts) that stands in for it: the sync
 * fails with one clear line, everything indexed before stays listed, and the
 * next sync completes, with every document's new text found. Shared by the
 * team-index tests of each store.
 */
import { expect } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../test/helpers.ts";
import { leaseOf } from "./killed-syncs.ts";
import type { TcpProxy } from "./tcp-proxy.ts";
import { runAs, TEAM_FILES } from "./team-fixture.ts";

type Env = Record<string, string>;
type Listed = { files: { source: string; chunkCount: number }[] };

/** env: a machine whose store endpoint is `endpoint`, served through proxy; docs: its library, whose Markdown files get an edit. */
export async function interruptAndResume(env: Env, proxy: TcpProxy, endpoint: string, docs: string): Promise<void> {
  const listed = async () => (JSON.parse((await runAs(env, ["list", "--json"])).stdout) as Listed).files.map((f) => f.source);
  const first = await runAs(env, ["sync"]);
  expect(first.exitCode, first.stderr).toBe(0);
  const before = await listed();
  expect(before).toHaveLength(TEAM_FILES);
  const edited = readdirSync(docs).filter((n) => n.endsWith(".md"));
  for (const f of edited) writeFileSync(join(docs, f), `${readFileSync(join(docs, f), "utf8")}\nAn edit that changes every document.\n`);
  const proc = Bun.spawn([BINARY, "sync"], { env, cwd: env.HOME, stdout: "pipe", stderr: "pipe" });
  const deadline = Date.now() + 60_000;
  while (!(await leaseOf(env))) {
    if (Date.now() > deadline) throw new Error("waited 60 s for the sync's lease");
    await Bun.sleep(50);
  }
  proxy.stop();
  const [stderr, exitCode] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(exitCode).toBe(1);
  const error = stderr.split("\n").filter((l) => l.startsWith("error: "));
  expect(error).toHaveLength(1);
  // Cut during one of LanceDB's requests, or during one of ours (the staging marker's look-up before each write).
  expect(error[0]).toMatch(new RegExp(`^error: The object store (stopped answering: |at ${endpoint} cannot be reached \\()`));
  expect(stderr).not.toContain("LanceError");
  // The store's failure is said once per file and by the sync, not again as a failure to record files that failed to convert.
  expect(stderr).not.toContain("could not record which files failed");
  proxy.start();
  expect(new Set(await listed())).toEqual(new Set(before));
  const next = await runAs(env, ["sync"]);
  expect(next.exitCode, next.stderr).toBe(0);
  expect(JSON.parse((await runAs(env, ["status", "--json"])).stdout).sourceCount).toBe(TEAM_FILES);
  const found = JSON.parse((await runAs(env, ["find", "edit that changes every document", "--json"])).stdout);
  expect(found.matchedDocuments).toBe(edited.length);
}
