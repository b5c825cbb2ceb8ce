/**
 * Server mode. stdout carries JSON-RPC frames only, so console output of any
 * library is redirected to stderr before anything else loads.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createApp } from "../app.ts";
import { instructionsAppendFromEnv, loadConfig } from "../config/load-config.ts";
import { AppError } from "../errors.ts";
import { logLine } from "../log.ts";
import type { ToolContext } from "./context.ts";
import { createServer } from "./server.ts";
import { warmUpModel, warmUpTrigger } from "./warm-up.ts";
import { traceStartup } from "../startup-trace.ts";

export async function runStdioServer(): Promise<void> {
  console.log = console.info = console.debug = console.warn = console.error;
  const ctx: ToolContext = {};
  try {
    ctx.app = createApp(loadConfig());
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "CONFIG") throw error;
    ctx.configError = error.message;
    logLine(`minirag-mcp: ${error.message}`);
  }
  const app = ctx.app;
  const warmUp = warmUpTrigger(() => app && warmUpModel(app));
  const server = createServer(ctx, ctx.app?.config.instructionsAppend ?? instructionsAppendFromEnv(), { onToolsListed: warmUp.ready });
  server.oninitialized = warmUp.initialized;
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  traceStartup("stdio connected");
}
