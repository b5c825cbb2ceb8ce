/** What every tool handler gets: the app, or the configuration error that stopped it. */
import type { App } from "../app.ts";
import { AppError } from "../errors.ts";

export interface ToolContext {
  app?: App;
  configError?: string;
}

/** The app, or the configuration error as the tool's failure. */
export function requireApp(ctx: ToolContext): App {
  if (ctx.app) return ctx.app;
  throw new AppError("CONFIG", ctx.configError ?? "Configuration error", "Fix the server's environment and restart it; the status tool shows the error.");
}
