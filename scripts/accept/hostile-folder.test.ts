/**
 * Acceptance: a folder of hostile files, synced by the compiled binary with
 * the e5 files in ../shared (the real model's memory, which the committed
 * tiny model does not have). The folder: every file of test/fixtures/hostile
 * (truncated, garbage, oversized and deeply nested files of every format),
 * a 1 MB base64 line, and two ordinary notes. The sync must end, account for
 * every file (indexed, or failed with its reason and a fix), and leave the
 * notes findable and the blob readable whole. It prints the time and the
 * process's peak RSS, which must stay under 1 GiB (issue 33, item 12); the
 * latest figures are in docs/performance.md. The peak is the process's own
 * VmHWM, read from /proc while it runs: in the whole acceptance run Bun's
 * resourceUsage() of this process reported 1,564-1,634 MiB where the
 * process's own RSS, sampled every 100 ms, never passed 859 MiB (run alone,
 * the two agree), so that figure is printed beside it, not used.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeHostileFiles } from "../../test/fixtures/hostile/hostile-files.ts";
import { tempDir } from "../../test/helpers.ts";
import { killAll, start } from "../../test/e2e/sync-procs.ts";

const MODEL = resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");

afterAll(killAll);

/** Base64 of pseudo-random bytes, one line: an attachment pasted into a text file. */
function base64Line(bytes: number): string {
  const data = new Uint8Array(bytes);
  let a = 99;
  for (let i = 0; i < bytes; i++) data[i] = (a = (a * 1664525 + 1013904223) >>> 0) >>> 24;
  return Buffer.from(data).toString("base64");
}

/** Follows a running process's VmHWM (its peak RSS so far, which only grows) in bytes; null where there is no /proc. */
function followPeak(pid: number): () => number | null {
  const read = () => {
    try {
      const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (kb) peak = Math.max(peak ?? 0, Number(kb) * 1024);
    } catch {
      // Gone: the last reading stands.
    }
  };
  let peak: number | null = null;
  read();
  const timer = setInterval(read, 50);
  return () => (clearInterval(timer), peak);
}

test("a sync of hostile files and a 1 MB base64 line ends, accounts for every file, and prints its peak memory", async () => {
  if (!existsSync(join(MODEL, "model.onnx"))) throw new Error(`No real model at ${MODEL}: this acceptance check needs ../shared/models/multilingual-e5-small-int8.`);
  const root = tempDir("minirag-accept-hostile-");
  const hostile = await writeHostileFiles(root);
  const blob = base64Line(786_432);
  writeFileSync(join(root, "attachment.txt"), `${blob}\n`);
  writeFileSync(join(root, "field-notes.md"), "# Field notes\n\nA marsh harrier hunted over the reed beds at dusk.\n");
  writeFileSync(join(root, "заметки.md"), "# Заметки\n\nБолотный лунь охотился над тростником в сумерках.\n");
  const files = hostile.length + 3;

  const env = {
    BASE_DIR: root,
    DB_PATH: join(tempDir("minirag-accept-hostile-db-"), "lancedb"),
    CACHE_DIR: tempDir("minirag-accept-hostile-cache-"),
    MODEL_NAME: MODEL,
    RAG_WATCH: "false",
    NO_COLOR: "1",
    HOME: process.env.HOME!,
    PATH: process.env.PATH ?? "",
  };
  const began = performance.now();
  const sync = start(["sync", "--json"], env, 1_700_000);
  const stopFollowing = followPeak(sync.proc.pid);
  const { stdout, stderr, signalCode } = await sync.done;
  const followed = stopFollowing();
  const seconds = (performance.now() - began) / 1000;
  const reported = sync.proc.resourceUsage()!.maxRSS;
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const peak = followed === null ? `${mib(reported)} (Bun's resourceUsage: no /proc here)` : `${mib(followed)} (its VmHWM; Bun's resourceUsage says ${mib(reported)})`;
  console.log(`hostile folder (${files} files), e5: sync ${seconds.toFixed(0)} s, peak RSS ${peak} (target: under 1,024 MiB)`);
  expect(signalCode).toBeNull();
  // Issue 33's ceiling, held where the process's own peak can be read (830-946 MiB in the runs of 2026-12-04 to -06).
  if (followed !== null) expect(followed).toBeLessThan(2 ** 30);

  const report = JSON.parse(stdout) as { counts: { scanned: number; ingested: number; failed: number }; errors: { source: string; error: string }[] };
  expect(report.counts.scanned).toBe(files);
  // Every file is indexed or failed with its reason, and each failure's message carries a fix.
  expect(report.counts.ingested + report.counts.failed).toBe(files);
  expect(report.errors).toHaveLength(report.counts.failed);
  for (const { source, error } of report.errors) {
    expect({ source, named: stderr.includes(source) }).toEqual({ source, named: true });
    expect({ source, fix: error.includes("\n") || /move it out of the roots|Raise|re-export|re-download/i.test(error) }).toEqual({ source, fix: true });
  }

  // The blob is stored whole, though the model read only its head.
  const read = await start(["read", join(root, "attachment.txt"), "--json"], env, 120_000).done;
  expect(read.exitCode).toBe(0);
  expect((JSON.parse(read.stdout) as { text: string }).text).toBe(`${blob}\n`);

  for (const [query, wanted] of [
    ["marsh harrier over reeds", "field-notes.md"],
    ["болотный лунь", "заметки.md"],
  ]) {
    const found = start(["query", query!, "--json"], env, 120_000);
    const { stdout: answer, exitCode } = await found.done;
    expect(exitCode).toBe(0);
    const sources = (JSON.parse(answer) as { results: { source: string }[] }).results.map((r) => r.source);
    expect({ query, found: sources.some((s) => s.endsWith(wanted!)) }).toEqual({ query, found: true });
  }
}, 1_800_000);
