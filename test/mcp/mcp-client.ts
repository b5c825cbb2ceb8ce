/** A real MCP client connected to an in-process server over InMemoryTransport. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ToolContext } from "../../src/mcp/context.ts";
import { createServer } from "../../src/mcp/server.ts";
import { waitFor } from "../helpers.ts";

export async function connectInMemory(ctx: ToolContext, append?: string): Promise<Client> {
  const server = createServer(ctx, append);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  // Listing first makes the client validate every result against the tool's outputSchema.
  await client.listTools();
  return client;
}

export interface ToolCall {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text: string }[];
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  return (await client.callTool({ name, arguments: args })) as ToolCall;
}

export function errorText(result: ToolCall): string {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result.structuredContent)}`);
  return result.content[0]!.text;
}

/** Polls sync_status (through any client's tool call) until the job has ended; returns its last status. */
export async function syncEnded(callTool: (name: string, args: Record<string, unknown>) => Promise<{ structuredContent?: Record<string, any> }>, jobId: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const status = (await callTool("sync_status", { jobId })).structuredContent;
      return status && ["succeeded", "failed"].includes(status.state) ? status : null;
    },
    timeoutMs,
    `sync job ${jobId} to end`,
  );
}
