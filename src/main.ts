#!/usr/bin/env bun
/**
 * The one entry point. No arguments: the MCP server on stdio. Otherwise the
 * CLI. Both are imported lazily so `--version` and the handshake stay fast.
 */
import { traceStartup } from "./config/startup-trace.ts";
import { keepOrtTelemetryOff } from "./native/ort-telemetry.ts";
import { BUILD_TARGET, VERSION } from "./version.ts";

traceStartup("main");
keepOrtTelemetryOff();

const argv = process.argv.slice(2);
if (argv.length === 0) {
  const { runStdioServer } = await import("./mcp/run-stdio.ts");
  traceStartup("server modules evaluated");
  await runStdioServer();
} else if (argv[0] === "serve") {
  const { serveFlags, SERVE_USAGE } = await import("./mcp/serve-flags.ts");
  const { describeError } = await import("./errors.ts");
  try {
    const flags = serveFlags(argv.slice(1));
    if (flags === "help") process.stdout.write(SERVE_USAGE);
    else await (await import("./mcp/run-stdio.ts")).runStdioServer(flags);
  } catch (error) {
    process.stderr.write(`error: ${describeError(error)}\n`);
    process.exitCode = 1;
  }
} else if (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "version") {
  // "0.1.0 (linux-x64)": the version first, so scripts can cut the first word.
  process.stdout.write(`${VERSION} (${BUILD_TARGET})\n`);
} else {
  const { runCli } = await import("./cli/run-cli.ts");
  traceStartup("cli modules evaluated");
  await runCli(argv);
}
