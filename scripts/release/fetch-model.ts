#!/usr/bin/env bun
/**
 * bun scripts/release/fetch-model.ts <cache dir> [executable]: fills a
 * CACHE_DIR with the default embedding model by letting the built host
 * binary download it (pinned revision, every file checked by sha256), for
 * bundle-offline.ts --model-dir. Needs Hugging Face, so it runs in release
 * CI; this project's build machine cannot reach it.
 */
import { resolve } from "node:path";
import { DEFAULT_MODEL } from "../../src/config/defaults.ts";
import { hostTarget } from "./targets.ts";

const [cacheDir, exe = resolve(import.meta.dir, "../../dist", hostTarget(), "minirag-mcp")] = process.argv.slice(2);
if (!cacheDir) {
  console.error("usage: bun scripts/release/fetch-model.ts <cache dir> [executable]");
  process.exit(2);
}
// MODEL_NAME named: with it unset an index in the working folder would choose the model (store/model-choice.ts).
const proc = Bun.spawnSync([exe, "debug", "embed", "warm up"], { env: { ...process.env, CACHE_DIR: resolve(cacheDir), MODEL_NAME: DEFAULT_MODEL }, stdout: "inherit", stderr: "inherit" });
process.exit(proc.exitCode ?? 1);
