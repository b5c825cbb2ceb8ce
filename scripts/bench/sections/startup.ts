/**
 * Start-up through the compiled binary: spawn to `status` printed, spawn to a
 * `tools/list` answer, and the cold start, spawn to the first query answered
 * (over MCP stdio and in the CLI), with the bench's speed model
 * (lib/setup.ts speedModel: the real-shape e5 folder when it is there).
 *
 * The MCP timings use a raw JSON-RPC pipe rather than the SDK client, whose
 * own work between tools/list and the first call (compiling every tool's
 * output schema, 100-180 ms here) is the client's, not the server's. Each
 * figure is the median of `runs` alternating runs with the caches in
 * CACHE_DIR warm (every start after the first); the first start of all, which
 * writes those caches, is reported once. With MINIRAG_TRACE_STARTUP=1 the
 * server names its steps on stderr; their medians give the breakdown.
 */
import { join } from "node:path";
import { openSession } from "../lib/mcp-driver.ts";
import { corpusCopy, tempDir, timedRun, type SpeedModel } from "../lib/setup.ts";
import { markdownTable as table } from "../lib/markdown-table.ts";
import { fmt, median } from "../lib/stats.ts";

export interface StartupFigures {
  model: string;
  realShape: boolean;
  statusMs: number;
  toolsListMs: number;
  /** The same through the SDK client (its own work included), as the peers are measured. */
  toolsListSdkMs: number;
  /** Spawn to the first query_documents answer over MCP stdio (caches warm). */
  mcpFirstQueryMs: number;
  /** Spawn to `minirag-mcp query` exiting with its answer (caches warm). */
  cliFirstQueryMs: number;
  /** The very first start, which writes the optimised-model and tokenizer caches. */
  firstEverMs: number;
  /** Median time since the process started at which each traced step finished, MCP cold start. */
  steps: [string, number][];
  runs: number;
}

interface RawRun {
  listMs: number;
  queryMs: number;
  steps: Map<string, number>;
}

/** Spawns the server and drives it over a raw pipe: initialize, initialized, tools/list, then (optionally) one query. */
export async function rawMcp(binary: string, env: Record<string, string>, query?: string): Promise<RawRun> {
  const started = performance.now();
  const proc = Bun.spawn([binary], { env: { ...process.env, ...env, MINIRAG_TRACE_STARTUP: "1" } as Record<string, string>, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const waiting = new Map<number, (at: number) => void>();
  const reader = (async () => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      const at = performance.now();
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, newline)) as { id?: number; result?: { isError?: boolean }; error?: unknown };
        buffer = buffer.slice(newline + 1);
        if (message.error || message.result?.isError) throw new Error(`server answered with an error: ${JSON.stringify(message).slice(0, 400)}`);
        if (message.id !== undefined) waiting.get(message.id)?.(at);
      }
    }
  })();
  const send = (message: object) => proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const request = (id: number, method: string, params: object) => {
    const answered = new Promise<number>((resolve) => waiting.set(id, resolve));
    send({ id, method, params });
    proc.stdin.flush();
    return Promise.race([answered, reader.then(() => Number.NaN)]);
  };
  await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
  send({ method: "notifications/initialized" });
  const listMs = (await request(2, "tools/list", {})) - started;
  const queryMs = query ? (await request(3, "tools/call", { name: "query_documents", arguments: { query } })) - started : Number.NaN;
  proc.stdin.end();
  await proc.exited;
  await reader;
  const stderr = await new Response(proc.stderr).text();
  return { listMs, queryMs, steps: traceSteps(stderr) };
}

/** "startup <ms> <step>" lines as step -> ms since the process started. */
function traceSteps(stderr: string): Map<string, number> {
  const steps = new Map<string, number>();
  for (const m of stderr.matchAll(/^startup ([\d.]+) (.+)$/gm)) if (!steps.has(m[2]!)) steps.set(m[2]!, Number(m[1]));
  return steps;
}

/** A small index built with the model the cold start loads (an index binds its model). */
export async function startupIndex(binary: string, files: string[], modelDir: string): Promise<Record<string, string>> {
  const root = corpusCopy(files, "startup");
  const env = { BASE_DIR: root, DB_PATH: join(tempDir("startup-db"), "lancedb"), MODEL_NAME: modelDir, CACHE_DIR: tempDir("startup-cache") };
  const sync = await timedRun([binary, "sync"], env);
  if (sync.exitCode !== 0) throw new Error(`startup index sync failed: ${sync.stderr.slice(-400)}`);
  return env;
}

export async function benchStartup(binary: string, files: string[], model: SpeedModel, runs: number, query: string): Promise<StartupFigures> {
  const env = await startupIndex(binary, files, model.dir);
  // The sync above already wrote the caches; a fresh CACHE_DIR shows the first start of all.
  const firstEverMs = (await rawMcp(binary, { ...env, CACHE_DIR: tempDir("startup-cache-first") }, query)).queryMs;
  const status: number[] = [];
  const list: number[] = [];
  const listSdk: number[] = [];
  const mcp: RawRun[] = [];
  const cli: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await timedRun([binary, "status", "--json"], env);
    if (r.exitCode !== 0) throw new Error(`status failed: ${r.stderr}`);
    status.push(r.ms);
    list.push((await rawMcp(binary, env)).listMs);
    const session = await openSession({ command: binary, args: [], env });
    listSdk.push(session.listMs);
    await session.close();
    mcp.push(await rawMcp(binary, env, query));
    const q = await timedRun([binary, "query", query, "--json"], env);
    if (q.exitCode !== 0) throw new Error(`query failed: ${q.stderr.slice(-400)}`);
    cli.push(q.ms);
  }
  const names = [...(mcp[0]?.steps.keys() ?? [])];
  const steps: [string, number][] = names.map((name) => [name, median(mcp.map((r) => r.steps.get(name) ?? Number.NaN).filter(Number.isFinite))]);
  return {
    model: model.name,
    realShape: model.realShape,
    statusMs: median(status),
    toolsListMs: median(list),
    toolsListSdkMs: median(listSdk),
    mcpFirstQueryMs: median(mcp.map((r) => r.queryMs)),
    cliFirstQueryMs: median(cli),
    firstEverMs,
    steps: steps.sort((a, b) => a[1] - b[1]),
    runs,
  };
}

/** The targets of issue 11 for start-up. */
export const STARTUP_TARGETS = { toolsListMs: 50, coldStartMs: 500, statusMs: 150 };

const verdict = (value: number, target: number) => (value <= target ? "met" : "NOT met");

/** [target, measured, verdict] rows for the report's targets table. */
export function startupTargetRows(f: StartupFigures): string[][] {
  const shape = f.realShape ? "" : " (l12 model: not the real shape)";
  return [
    [`spawn -> status <= ${STARTUP_TARGETS.statusMs} ms`, `${fmt(f.statusMs)} ms`, verdict(f.statusMs, STARTUP_TARGETS.statusMs)],
    [`spawn -> tools/list <= ${STARTUP_TARGETS.toolsListMs} ms`, `${fmt(f.toolsListMs)} ms`, verdict(f.toolsListMs, STARTUP_TARGETS.toolsListMs)],
    [`cold start, MCP stdio (spawn -> first query answered) <= ${STARTUP_TARGETS.coldStartMs} ms${shape}`, `${fmt(f.mcpFirstQueryMs)} ms`, verdict(f.mcpFirstQueryMs, STARTUP_TARGETS.coldStartMs)],
    [`cold start, CLI (spawn -> query printed) <= ${STARTUP_TARGETS.coldStartMs} ms${shape}`, `${fmt(f.cliFirstQueryMs)} ms`, verdict(f.cliFirstQueryMs, STARTUP_TARGETS.coldStartMs)],
  ];
}


/** The report's start-up section: the figures beside their targets, then where the MCP cold start spends its time. */
export function renderStartup(f: StartupFigures): string[] {
  const rows = [
    ["spawn -> `status` printed", fmt(f.statusMs), `<= ${STARTUP_TARGETS.statusMs}`],
    ["spawn -> `tools/list` answered (raw pipe)", fmt(f.toolsListMs), `<= ${STARTUP_TARGETS.toolsListMs}`],
    ["spawn -> `tools/list` answered (SDK client, as the peers)", fmt(f.toolsListSdkMs), ""],
    ["cold start over MCP stdio: spawn -> first `query_documents` answered", fmt(f.mcpFirstQueryMs), `<= ${STARTUP_TARGETS.coldStartMs}`],
    ["cold start in the CLI: spawn -> `query` printed and exited", fmt(f.cliFirstQueryMs), `<= ${STARTUP_TARGETS.coldStartMs}`],
    ["first start of all (writes the optimised-model and tokenizer caches), MCP", fmt(f.firstEverMs), ""],
  ];
  const steps = f.steps.map(([name, at], i) => [name, fmt(at), i === 0 ? fmt(at) : fmt(at - f.steps[i - 1]![1])]);
  return [
    "## Start-up",
    `Model: ${f.model}. Medians of ${f.runs} runs with the caches in CACHE_DIR warm; a 20-document index built with the same model.`,
    table(["figure", "ms", "target"], rows),
    "Where the MCP cold start goes (median ms since the process started at which each step ended; MINIRAG_TRACE_STARTUP=1). The model loads in the background once tools/list is answered, so the query waits for it:",
    table(["step", "at ms", "since previous"], steps),
  ];
}
