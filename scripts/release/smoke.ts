#!/usr/bin/env bun
/**
 * bun scripts/release/smoke.ts <executable | release .tar.gz | .zip> [--model ID-OR-PATH]
 *
 * What a user's MCP client does first, against a built or installed binary:
 * spawn it over stdio, initialize, list the tools, ask status, sync a few
 * small documents with the tiny test model and query them. Release CI runs it
 * on every native target; the install acceptance test runs it on the
 * installed binary, with and without a network. Exits 1 on any failure.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: { text?: string }[] };

export interface SmokeResult {
  version: string;
  buildTarget: string;
  modelSource: string;
  tools: number;
  /** Documents the index holds after the sync: its own sync_start or the server's catch-up sync may have ingested them. */
  indexed: number;
  topSource: string;
  ms: number;
}

const DOCS: Record<string, string> = {
  "guide/setup.md": "# Setup\n\nInstall the agent, then run the check.\n\n## Ports\n\nThe agent listens on port 7443 for health checks.",
  "notes/faq.txt": "Restart the agent after every upgrade. Logs rotate weekly.",
  "notes/budget.html": "<html><head><title>Budget</title></head><body><h1>Budget 2026</h1><p>Travel costs rose by a third.</p></body></html>",
};

/** Runs the session; throws with the server's stderr when a step fails. */
export async function smoke(exe: string, model: string, extraEnv: Record<string, string> = {}): Promise<SmokeResult> {
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), "minirag-smoke-"));
  // The documents go where the caller's config points BASE_DIR, if it does.
  const docs = extraEnv.BASE_DIR ?? join(work, "docs");
  for (const [path, text] of Object.entries(DOCS)) {
    mkdirSync(join(docs, path, ".."), { recursive: true });
    writeFileSync(join(docs, path), text);
  }
  // Its own HOME and cache: nothing from this machine's user may help it.
  const env = { BASE_DIR: docs, MODEL_NAME: model, HOME: join(work, "home"), CACHE_DIR: join(work, "cache"), ...extraEnv };
  const transport = new StdioClientTransport({ command: exe, args: [], env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "minirag-smoke", version: "1" });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(" ")}`);
    return result.structuredContent!;
  };
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    for (const needed of ["status", "sync_start", "sync_status", "query_documents"]) {
      if (!tools.some((t) => t.name === needed)) throw new Error(`tools/list lacks ${needed}`);
    }
    const status = await call("status");
    const { jobId } = await call("sync_start");
    let job: Record<string, any> = {};
    const deadline = Date.now() + 120_000;
    while (!["succeeded", "failed"].includes(job.state) && Date.now() < deadline) {
      await Bun.sleep(50);
      job = await call("sync_status", { jobId });
    }
    // The server's own catch-up sync (the live index) may have indexed them first: then the job finds them unchanged.
    if (job.state !== "succeeded" || job.counts?.ingested + job.counts?.skipped !== Object.keys(DOCS).length) throw new Error(`sync ended ${JSON.stringify(job)}`);
    const after = await call("status");
    const found = await call("query_documents", { query: "which port does the agent listen on", topK: 3 });
    const topSource: string = found.sources?.[0]?.displayPath ?? "";
    if (!found.results?.length || !found.sources.some((s: { displayPath: string }) => s.displayPath === "guide/setup.md")) {
      throw new Error(`query_documents did not find guide/setup.md: ${JSON.stringify(found.sources)}`);
    }
    return {
      version: status.version,
      buildTarget: status.buildTarget,
      modelSource: status.modelSource,
      tools: tools.length,
      indexed: after.sourceCount ?? 0,
      topSource,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- server stderr ---\n${stderr}`);
  } finally {
    await client.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The executable inside a release archive, unpacked into a temp folder as a user would. */
function unpackArchive(archive: string): string {
  const dir = mkdtempSync(join(tmpdir(), "minirag-smoke-archive-"));
  // Windows' own tar.exe (bsdtar) reads zips too, where Git Bash's GNU tar would not; elsewhere unzip does.
  const tar = process.platform === "win32" ? join(process.env.SystemRoot ?? "C:\\Windows", "System32", "tar.exe") : "tar";
  const cmd = archive.endsWith(".zip") && process.platform !== "win32" ? ["unzip", "-q", archive, "-d", dir] : [tar, "-xf", archive, "-C", dir];
  if (Bun.spawnSync(cmd, { stderr: "inherit" }).exitCode !== 0) throw new Error(`could not unpack ${archive}`);
  const name = basename(archive).replace(/(-offline)?\.(tar\.gz|zip)$/, "");
  return join(dir, name, name.includes("windows") ? "minirag-mcp.exe" : "minirag-mcp");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { model: { type: "string" } } });
  if (!positionals[0]) {
    console.error("usage: bun scripts/release/smoke.ts <executable | release .tar.gz | .zip> [--model ID-OR-PATH]");
    process.exit(2);
  }
  const model = values.model ?? resolve(import.meta.dir, "../../test/fixtures/models/tiny");
  try {
    const given = resolve(positionals[0]);
    const exe = /\.(tar\.gz|zip)$/.test(given) ? unpackArchive(given) : given;
    const result = await smoke(exe, model);
    console.log(`smoke ok: ${JSON.stringify(result)}`);
  } catch (error) {
    console.error(`smoke failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
