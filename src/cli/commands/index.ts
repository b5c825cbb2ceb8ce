/** The command registry: name -> lazily imported command file. Nothing imports this but run-cli. */
import type { CommandDef } from "citty";

type Lazy = () => Promise<CommandDef<any>>;

export const commands: Record<string, Lazy> = {
  status: () => import("./status.ts").then((m) => m.default),
  debug: () => import("./debug.ts").then((m) => m.default),
};
