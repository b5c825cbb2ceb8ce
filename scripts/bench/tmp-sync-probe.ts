import { readdirSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { speedModel } from "./lib/setup.ts";
const work = "/tmp/fresh-probe";
const app = createApp(loadConfig({ env: { BASE_DIR: join(work, "root"), DB_PATH: join(work, "db", "lancedb"), MODEL_NAME: speedModel().dir } }), { log: () => {} });
const walk = (d: string): number => readdirSync(d, { withFileTypes: true }).reduce((n, e) => { const p = join(d, e.name); lstatSync(p); return n + (e.isDirectory() ? walk(p) : 1); }, 0);
await runSync(app);
const ws: number[] = [], ss: number[] = [];
for (let r = 0; r < 7; r++) { let s = performance.now(); walk(join(work, "root")); ws.push(performance.now() - s); s = performance.now(); await runSync(app); ss.push(performance.now() - s); }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!.toFixed(1);
console.log("walk", med(ws), "sync", med(ss), ws.map((x) => x.toFixed(0)).join(","), ss.map((x) => x.toFixed(0)).join(","));
if (process.env.PROF) { Bun.gc(true); const s = performance.now(); for (let i = 0; i < 20; i++) await runSync(app); console.log("20 syncs", (performance.now() - s).toFixed(0)); }
