/** Drives any MCP server over stdio with the SDK's client: start-up, warm query latency, peak RSS. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { peakRss } from "./setup.ts";

export interface ServerSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface Session {
  client: Client;
  pid: number;
  listMs: number;
  close(): Promise<number>;
}

export async function openSession(spec: ServerSpec): Promise<Session> {
  const start = performance.now();
  const transport = new StdioClientTransport({ command: spec.command, args: spec.args, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...spec.env }, cwd: spec.cwd, stderr: "ignore" });
  const client = new Client({ name: "minirag-bench", version: "0" });
  await client.connect(transport);
  await client.listTools();
  const listMs = performance.now() - start;
  const pid = transport.pid ?? -1;
  return {
    client,
    pid,
    listMs,
    async close() {
      const rss = peakRss(pid);
      await client.close();
      return rss;
    },
  };
}

/** Latency of each call, in ms; throws on a tool error so a broken peer cannot pass as fast. */
export async function timeQueries(client: Client, tool: string, argsFor: (query: string) => Record<string, unknown>, queries: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    const result = await client.callTool({ name: tool, arguments: argsFor(q) }, undefined, { timeout: 120_000 });
    times.push(performance.now() - start);
    if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  }
  return times;
}
