/**
 * Server mode. stdout carries JSON-RPC frames only, so console output of any
 * library is redirected to stderr before anything else loads.
 *
 * The handshake comes first: the app (and with it every tool's
 * implementation) is imported once tools/list is answered, or on the first
 * tool call, and the model then loads in the background (warm-up.ts).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { existsSync } from "node:fs";
import { DEFAULT_MAX_FILE_SIZE } from "../config/defaults.ts";
import { instructionsAppendFromEnv, loadConfig, type Config, type ConfigFlags } from "../config/load-config.ts";
import { AppError } from "../errors.ts";
import { logLine } from "../log.ts";
import { traceStartup } from "../config/startup-trace.ts";
import type { ToolContext } from "./context.ts";
import { configErrorText } from "../status.ts";
import { createServer } from "./server.ts";
import { gatedStdin } from "./stdin-gate.ts";
import { chooseWatchedRoots } from "../watch/watch-roots.ts";
import { warmUpModel, warmUpTrigger } from "./warm-up.ts";

/** A configuration error becomes ctx.configError (the status tool shows it); any other error is thrown. */
function keepConfigError(ctx: ToolContext, error: unknown): void {
  if (!(error instanceof AppError) || error.code !== "CONFIG") throw error;
  ctx.configError = configErrorText(error);
  logLine(`minirag-mcp: ${ctx.configError}`);
}

/** flags: from `minirag-mcp serve` (--base-dir, --no-watch, ...); none when started with no arguments. */
export async function runStdioServer(flags: ConfigFlags = {}): Promise<void> {
  console.log = console.info = console.debug = console.warn = console.error;
  const ctx: ToolContext = {};
  let config: Config | undefined;
  try {
    config = loadConfig({ flags });
  } catch (error) {
    keepConfigError(ctx, error);
  }
  let appLoading: Promise<void> | undefined;
  let clientGone = false;
  const loadApp = () =>
    (appLoading ??= (async () => {
      if (!config) return;
      const { createApp } = await import("../app.ts");
      try {
        ctx.app = createApp(config, { fillLocalCopy: true, modelCacheLater: true });
      } catch (error) {
        keepConfigError(ctx, error);
      }
      traceStartup("app ready");
    })());
  // After the handshake: the model and search structures load, and the live index catches up and starts watching.
  const warmUp = warmUpTrigger(
    () =>
      void loadApp().then(async () => {
        if (!ctx.app) return;
        warmUpModel(ctx.app);
        if (ctx.app.config.watch && !clientGone) (await import("./live-index.ts")).startLiveIndex(ctx);
      }),
  );
  const server = createServer(ctx, config?.instructionsAppend ?? instructionsAppendFromEnv(), { onToolsListRequested: warmUp.listing, onToolsListed: warmUp.ready, ready: loadApp, watching: config ? config.watch && chooseWatchedRoots(config, existsSync(config.dbPath)).watched.length > 0 : false });
  server.oninitialized = warmUp.initialized;
  // Lines the SDK's transport would drop without an answer are answered at the gate (stdin-gate.ts), and so is a
  // line too long to read: the transport's own 10 MiB cap closed the server without a word, so the gate holds the cap.
  const maxFileSize = config?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  const gate = gatedStdin(process.stdin, {
    answer: (error) => void transport.send(error),
    log: logLine,
    // ingest_data content of MAX_FILE_SIZE, even with every character escaped to two, and room for the rest of the call.
    maxLineBytes: 2 * maxFileSize + 1024 * 1024,
    tooLongHint: `ingest_data takes up to MAX_FILE_SIZE (${maxFileSize} bytes) of content; put larger content in a file under a root and use ingest_file.`,
  });
  const transport: StdioServerTransport = new StdioServerTransport(gate, process.stdout, { maxBufferSize: Number.MAX_SAFE_INTEGER });
  transport.onclose = () => process.exit(0);
  // The server ends when the event loop drains after the client closes stdin (work under way, a sync job, finishes
  // first); the live index's watches and timers would keep it alive, so they stop then.
  process.stdin.once("end", () => {
    clientGone = true;
    ctx.watcher?.close();
  });
  await server.connect(transport);
  traceStartup("stdio connected");
}
