/** Start-up: spawn to status printed, spawn to a tools/list answer, and the first query after start (which loads the model). */
import { openSession, timeQueries } from "../lib/mcp-driver.ts";
import { timedRun } from "../lib/setup.ts";
import { median } from "../lib/stats.ts";

export interface StartupFigures {
  statusMs: number;
  toolsListMs: number;
  firstQueryMs: number;
}

export async function benchStartup(binary: string, root: string, dbPath: string, modelDir: string, runs: number): Promise<StartupFigures> {
  const env = { BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: modelDir };
  const status: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await timedRun([binary, "status", "--json"], env);
    if (r.exitCode !== 0) throw new Error(`status failed: ${r.stderr}`);
    status.push(r.ms);
    const s = await openSession({ command: binary, args: [], env });
    list.push(s.listMs);
    await s.close();
  }
  const started = performance.now();
  const session = await openSession({ command: binary, args: [], env });
  await timeQueries(session.client, "query_documents", (query) => ({ query }), ["first query after start"]);
  const firstQueryMs = performance.now() - started;
  await session.close();
  return { statusMs: median(status), toolsListMs: median(list), firstQueryMs };
}
