/**
 * The index the find_mentions and look-alike acceptance checks share, built
 * once per run: ../shared/corpus/office, plus the folders of the corpus's
 * fixtures that lookalikes.json pairs with office files (older markitdown
 * test files, the podcast transcripts), synced with the committed tiny model
 * (matching and signatures do not depend on the model).
 */
import { join } from "node:path";
import { createApp, type App } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import type { SyncReport } from "../../src/sync/sync-report.ts";
import { CORPUS } from "../bench/lib/datasets.ts";
import { TINY_MODEL, tempDir } from "../../test/helpers.ts";

export const OFFICE = join(CORPUS, "office");
export const ROOTS = [OFFICE, join(CORPUS, "fixtures/markitdown"), join(CORPUS, "fixtures/vtt/podcast-namespace")];

let built: Promise<{ app: App; report: SyncReport; seconds: number }> | undefined;

export function officeIndex(): Promise<{ app: App; report: SyncReport; seconds: number }> {
  built ??= (async () => {
    const config = loadConfig({ env: { BASE_DIRS: JSON.stringify(ROOTS), DB_PATH: join(tempDir("minirag-accept-mentions-"), "lancedb"), MODEL_NAME: TINY_MODEL } });
    const app = createApp(config, { log: () => {} });
    const start = performance.now();
    const report = await runSync(app);
    return { app, report, seconds: (performance.now() - start) / 1000 };
  })();
  return built;
}
