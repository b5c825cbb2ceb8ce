/** The command registry: name -> lazily imported command file. Nothing imports this but run-cli. */
import type { CommandDef } from "citty";

type Lazy = () => Promise<CommandDef<any>>;

export const commands: Record<string, Lazy> = {
  ingest: () => import("./ingest.ts").then((m) => m.default),
  "ingest-url": () => import("./ingest-url.ts").then((m) => m.default),
  "ingest-data": () => import("./ingest-data.ts").then((m) => m.default),
  sync: () => import("./sync.ts").then((m) => m.default),
  query: () => import("./query.ts").then((m) => m.default),
  find: () => import("./find.ts").then((m) => m.default),
  "read-neighbors": () => import("./read-neighbors.ts").then((m) => m.default),
  read: () => import("./read.ts").then((m) => m.default),
  list: () => import("./list.ts").then((m) => m.default),
  status: () => import("./status.ts").then((m) => m.default),
  delete: () => import("./delete.ts").then((m) => m.default),
  classify: () => import("./classify.ts").then((m) => m.default),
  debug: () => import("./debug.ts").then((m) => m.default),
};
