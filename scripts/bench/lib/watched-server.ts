/**
 * What the live-index bench (sections/freshness.ts) does around a watching
 * server: its tool calls and watch status, waiting for it to settle, its CPU
 * and memory from /proc, an index's contents compared with another's, and
 * the corpus laid out as a git work tree.
 */
import { linkSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ChunkStore } from "../../../src/store/chunk-store.ts";
import type { Session } from "./mcp-driver.ts";

export async function call(session: Session, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await session.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as { isError?: boolean; structuredContent?: Record<string, any>; content: unknown };
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result.structuredContent!;
}

export const watchOf = async (session: Session) => (await call(session, "status", {})).watch as Record<string, any>;

/** Polls fn every `everyMs` until it returns a value, up to timeoutMs. */
export async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string, everyMs = 20): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`bench: waited ${timeoutMs} ms for ${what}`);
    await Bun.sleep(everyMs);
  }
}

/** Waits until the server's watcher has nothing waiting and no sync ran for quietMs. */
export async function settled(session: Session, quietMs = 3000): Promise<Record<string, any>> {
  let last = "";
  let since = performance.now();
  return until(
    async () => {
      const watch = await watchOf(session);
      const key = `${watch.syncs}:${watch.pendingChanges}:${watch.state}`;
      if (key !== last) {
        last = key;
        since = performance.now();
      }
      return watch.pendingChanges === 0 && watch.state === "watching" && watch.syncs > 0 && performance.now() - since > quietMs ? watch : null;
    },
    1_800_000,
    "the watcher to settle",
    100,
  );
}

/** CPU seconds (user + system) of a live process, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** source -> chunk texts in order, read through the store. */
export async function contents(dbPath: string): Promise<Map<string, string[]>> {
  const rows = await new ChunkStore(dbPath).mentionRows();
  const by = new Map<string, { i: number; t: string }[]>();
  for (const r of rows) by.set(r.source, [...(by.get(r.source) ?? []), { i: r.chunkIndex, t: r.text }]);
  return new Map([...by].map(([s, cs]) => [s, cs.sort((a, b) => a.i - b.i).map((c) => c.t)]));
}

export function differences(actual: Map<string, string[]>, expected: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [source, texts] of expected) {
    const got = actual.get(source);
    if (!got) out.push(`missing ${source}`);
    else if (got.join("\u0000") !== texts.join("\u0000")) out.push(`differs ${source}`);
  }
  for (const source of actual.keys()) if (!expected.has(source)) out.push(`extra ${source}`);
  return out;
}

/** Lays docs out in folders of 100 under root, hard-linked to the corpus: an edit replaces a file (a rename over it), never writes into one. */
export function layOut(docs: string[], root: string): string[] {
  return docs.map((doc, i) => {
    const dir = join(root, `topic-${String(Math.floor(i / 100)).padStart(3, "0")}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const path = join(dir, basename(doc));
    linkSync(doc, path);
    return path;
  });
}

export function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}
