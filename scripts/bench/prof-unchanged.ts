import { mkdirSync, writeFileSync, readdirSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { scanRoots } from "../../src/scan/scan-roots.ts";
import { runSync } from "../../src/sync/run-sync.ts";
const root = "/tmp/wexp/prof/root", db = "/tmp/wexp/prof/db";
const fresh = !readdirSync("/tmp/wexp/prof").includes("root");
if (fresh) for (let i = 0; i < 5000; i++) { const d = join(root, `topic-${Math.floor(i / 100)}`); if (i % 100 === 0) mkdirSync(d, { recursive: true }); writeFileSync(join(d, `note-${i}.md`), `# Note ${i}\n\nShipment ${i} left the harbour.\n`); }
const app = createApp(loadConfig({ env: { BASE_DIR: root, DB_PATH: db, MODEL_NAME: "/work/wt/live-index/test/fixtures/models/tiny" } }), { log: () => {} });
if (fresh) await runSync(app);
const cpu = async (label: string, fn: () => unknown) => { const c = process.cpuUsage(); const t = performance.now(); await fn(); const d = process.cpuUsage(c); console.log(label.padEnd(20), "wall", (performance.now() - t).toFixed(0), "cpu", ((d.user + d.system) / 1000).toFixed(0)); };
const walk = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => { const p = join(dir, e.name); lstatSync(p); return n + (e.isDirectory() ? walk(p) : 1); }, 0);
for (let r = 0; r < 3; r++) {
  await cpu("walk", () => walk(root));
  await cpu("scan", () => scanRoots([root], SUPPORTED_EXTENSIONS));
  await cpu("listSources", () => app.store.listSources());
  await cpu("runSync", () => runSync(app));
}
