/**
 * The disk-full scenario of disk-full.test.ts, run inside a mount namespace of
 * its own (unshare -m), so its tmpfs never outlives it or shows outside. The
 * index lives on a small tmpfs: a first sync fits, a second of many more
 * files fills it, the disk grows (remount) and a third sync finishes.
 * Prints one JSON object: each step's output by name.
 *
 * Usage: bun disk-full-steps.ts <work folder> <binary> <model folder> <fixture docs folder>
 */
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { binaryRunner, sh } from "./namespace-steps.ts";

const [work, binary, model, fixtures] = process.argv.slice(2) as [string, string, string, string];
const root = join(work, "docs");
const disk = join(work, "disk");
const env = { BASE_DIR: root, DB_PATH: join(disk, "lancedb"), MODEL_NAME: model, HOME: work, CACHE_DIR: join(work, "cache"), RAG_WATCH: "false", PATH: process.env.PATH ?? "", NO_COLOR: "1" };

const binaryRun = binaryRunner(binary, env);

const names = readdirSync(fixtures).filter((f) => f.endsWith(".md")).sort();
const first = names.slice(0, 4);
mkdirSync(root, { recursive: true });
mkdirSync(disk, { recursive: true });
for (const name of first) cpSync(join(fixtures, name), join(root, name));
// 400 KiB holds the first four documents' index, not six copies of all of them.
sh(["mount", "-t", "tmpfs", "-o", "size=400k", "minirag-disk", disk]);
const steps: Record<string, unknown> = { first: first };
steps.firstSync = binaryRun(["sync"]);
for (let copy = 1; copy <= 6; copy++) for (const name of names) cpSync(join(fixtures, name), join(root, `copy${copy}-${name}`));
steps.fullSync = binaryRun(["sync"]);
steps.fullStatus = binaryRun(["status", "--json"]);
steps.fullReads = first.map((name) => binaryRun(["read", join(root, name)]));
sh(["mount", "-o", "remount,size=64m", disk]);
steps.roomSync = binaryRun(["sync", "--json"]);
steps.roomStatus = binaryRun(["status", "--json"]);
steps.total = readdirSync(root).length;
console.log(JSON.stringify(steps));
