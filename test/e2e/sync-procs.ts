/**
 * Shared parts of the sync fault tests: the compiled binary as real
 * processes (every one tracked, so afterAll can kill what a failed test left
 * running), documents whose every paragraph carries a version marker, and a
 * check of the chunks table read with LanceDB directly.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, TINY_MODEL } from "../helpers.ts";

export interface Proc {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves when the process ends, with what it wrote. */
  done: Promise<{ exitCode: number | null; signalCode: NodeJS.Signals | number | null; stdout: string; stderr: string }>;
}

const live = new Set<Bun.Subprocess>();

/**
 * The environment the binary sees: roots, index and the committed tiny model, nothing from the developer's shell.
 * Servers do not watch: these tests start every sync themselves and count who ran; the live index has its own
 * (watch-*.test.ts, watchEnv).
 */
export function binaryEnv(roots: string[], dbPath: string): Record<string, string> {
  return { BASE_DIRS: JSON.stringify(roots), DB_PATH: dbPath, MODEL_NAME: TINY_MODEL, HOME: process.env.HOME!, PATH: process.env.PATH ?? "", NO_COLOR: "1", RAG_WATCH: "false" };
}

/** Starts the binary; it is killed after timeoutMs (a hang must fail the test, not the suite). */
export function start(args: string[], env: Record<string, string>, timeoutMs = 60_000): Proc {
  const proc = Bun.spawn([BINARY, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  live.add(proc);
  const timer = setTimeout(() => proc.kill(9), timeoutMs);
  const done = (async () => {
    const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    clearTimeout(timer);
    live.delete(proc);
    return { exitCode: proc.exitCode, signalCode: proc.signalCode, stdout, stderr };
  })();
  return { proc, done };
}

/** Runs the binary to the end. */
export function run(args: string[], env: Record<string, string>, timeoutMs?: number) {
  return start(args, env, timeoutMs).done;
}

/** For afterAll: kills every process a test started and did not see end. */
export async function killAll(): Promise<void> {
  const left = [...live];
  for (const p of left) p.kill(9);
  await Promise.all(left.map((p) => p.exited));
}

export type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: { type: string; text: string }[] };

/** The binary as an MCP server over stdio, driven by the SDK's client; close() ends the process. stderr() is what it logged so far. */
export async function mcpServer(env: Record<string, string>): Promise<{ client: Client; call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>; stderr: () => string }> {
  const client = new Client({ name: "sync-faults", version: "0" });
  const transport = new StdioClientTransport({ command: BINARY, args: [], env, stderr: "pipe" });
  const logged: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => logged.push(chunk.toString("utf8")));
  await client.connect(transport);
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  return { client, call, stderr: () => logged.join("") };
}

/** A seeded generator (mulberry32), so a failing run can be replayed with its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const PARAGRAPHS = 12;

/** The version marker written into every paragraph: fixed width, so every version of a file chunks alike. */
export function marker(version: number): string {
  return `[ver${String(version).padStart(3, "0")}]`;
}

/** A document whose every paragraph names its file and version, so any chunk tells which write it came from. */
export function versionedDoc(name: string, version: number): string {
  const m = marker(version);
  const lines = [`# ${name}`, ""];
  for (let p = 1; p <= PARAGRAPHS; p++) {
    lines.push(`${m} ${name} paragraph ${String(p).padStart(2, "0")}: the harbour crane lifts blue containers onto the night ferry ${m}.`, "");
  }
  return lines.join("\n");
}

/** Writes name.md for each name at the version, returning their paths. */
export function writeVersion(dir: string, names: string[], version: number): string[] {
  return names.map((name) => {
    const path = join(dir, `${name}.md`);
    writeFileSync(path, versionedDoc(name, version));
    return path;
  });
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The versions named in a text (sorted, once each). */
export function versionsIn(text: string): number[] {
  return [...new Set([...text.matchAll(/\[ver(\d{3})\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

export interface ChunkRowLite {
  source: string;
  chunk_index: number;
  text: string;
  content_hash: string;
}

/** Every row of the chunks table, read with LanceDB in this process (no table yet: none). */
export async function readRows(dbPath: string): Promise<Map<string, ChunkRowLite[]>> {
  const lance = await import("@lancedb/lancedb");
  const db = await lance.connect(dbPath);
  const bySource = new Map<string, ChunkRowLite[]>();
  try {
    if (!(await db.tableNames()).includes("chunks")) return bySource;
    const table = await db.openTable("chunks");
    const rows = (await table.query().select(["source", "chunk_index", "text", "content_hash"]).toArray()) as ChunkRowLite[];
    for (const r of rows) {
      const row = { source: r.source, chunk_index: r.chunk_index, text: r.text, content_hash: r.content_hash };
      bySource.set(r.source, [...(bySource.get(r.source) ?? []), row]);
    }
    table.close();
  } finally {
    db.close();
  }
  return bySource;
}

/**
 * What is wrong with one source's rows, or null when they are one whole
 * write: chunks 0..n-1 once each and n of them, one content hash (that of the version the
 * markers name, whose file is `bytesOf(version)`) and one version throughout.
 * Returns the version found.
 */
export function wholeSet(rows: ChunkRowLite[], bytesOf: (version: number) => string, chunkCount: number): { version: number } | { problem: string } {
  const indexes = rows.map((r) => r.chunk_index).sort((a, b) => a - b);
  if (indexes.some((i, k) => i !== k)) return { problem: `chunk indexes ${indexes.join(",")} are not 0..${rows.length - 1} once each` };
  if (rows.length !== chunkCount) return { problem: `${rows.length} chunks where a whole write has ${chunkCount}` };
  const versions = versionsIn(rows.map((r) => r.text).join("\n"));
  if (versions.length !== 1) return { problem: `chunks of versions ${versions.join(", ")} are mixed` };
  const version = versions[0]!;
  const hashes = new Set(rows.map((r) => r.content_hash));
  if (hashes.size !== 1) return { problem: `${hashes.size} content hashes in one source` };
  if (!hashes.has(sha256(bytesOf(version)))) return { problem: `the content hash is not that of version ${version}` };
  return { version };
}
