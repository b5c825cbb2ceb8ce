/**
 * The server loads the model, and an existing index's search structures, in
 * the background once the handshake is over, never before tools/list is
 * answered, and the model never when it would have to be downloaded;
 * `status` in the CLI loads nothing. Seen through the start-up trace
 * (MINIRAG_TRACE_STARTUP=1) of the real server run from source.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findMentions } from "../../src/search/find-mentions.ts";
import { warmSearch } from "../../src/search/warm-search.ts";
import { syncJobs, type ToolContext } from "../../src/mcp/context.ts";
import { deleteFileTool } from "../../src/mcp/tools/delete-file.ts";
import { ingestFileTool } from "../../src/mcp/tools/ingest-file.ts";
import type { ToolExtra } from "../../src/mcp/define-tool.ts";
import { lockIndex } from "../../src/sync/run-sync.ts";
import type { SyncJobs } from "../../src/sync/sync-jobs.ts";
import { WARM_UP_DELAY_MS, searchRewarmer, warmUpTrigger } from "../../src/mcp/warm-up.ts";
import { fakeClock } from "../fake-clock.ts";
import { MAIN, TINY_MODEL, failure, runCli, tempDir, testApp, waitFor, writeTree } from "../helpers.ts";

const MODEL_STEPS = ["onnxruntime loaded", "tokenizer built", "model ready"];

function env(modelName: string): Record<string, string> {
  const root = tempDir("minirag-warmup-");
  writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443." });
  // RAG_WATCH off: the live index's catch-up sync at start loads (or downloads) the model too, which is its own test's
  // subject (test/e2e/watch-start.test.ts); these watch the background load alone.
  return { ...(process.env as Record<string, string>), BASE_DIR: root, DB_PATH: join(tempDir("minirag-warmup-db-"), "db"), MODEL_NAME: modelName, MINIRAG_TRACE_STARTUP: "1", RAG_WATCH: "false" };
}

/**
 * Runs the server over a raw pipe: initialize, initialized, tools/list; then
 * waits for the trace step `until` (at most 60 s) and closes.
 * Returns the trace steps in order.
 */
async function serve(environment: Record<string, string>, until: string): Promise<{ steps: string[]; stderr: string; tools: number }> {
  const proc = Bun.spawn([process.execPath, MAIN], { env: environment, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const send = (message: object) => {
    proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    proc.stdin.flush();
  };
  let stderr = "";
  // Read to the end, so steps logged while the server closes are kept.
  const reading = (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const stdout = new Response(proc.stdout).text();
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } } });
  send({ method: "notifications/initialized" });
  send({ id: 2, method: "tools/list", params: {} });
  try {
    await waitFor(() => stderr.includes(` ${until}\n`), 60_000, `the trace step "${until}"`);
  } finally {
    proc.stdin.end();
    await proc.exited;
    await reading;
  }
  const list = (await stdout).split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 2);
  const steps = [...stderr.matchAll(/^startup [\d.]+ (.+)$/gm)].map((m) => m[1]!);
  return { steps, stderr, tools: list?.result?.tools?.length ?? 0 };
}

/** A server's app over one file, its first watched sync done and the version it left loaded. */
async function afterFirstWatchedSync() {
  const { app, root } = await testApp();
  writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
  const ctx: ToolContext = { app };
  const jobs = syncJobs(ctx);
  await jobs.syncWatched(undefined);
  await ctx.rewarm!.idle();
  return { app, root, ctx, jobs };
}

/** After a second watched sync that changed the index, its version's load stopped at the signatures until gate opens: questions are held. */
async function heldDuringLoad() {
  const { app, root, ctx, jobs } = await afterFirstWatchedSync();
  const gate = Promise.withResolvers<void>();
  const at = app.signatures.at.bind(app.signatures);
  app.signatures.at = async (store) => (await gate.promise, at(store));
  writeTree(root, { "b.md": "# B\n\nThe quokka relay forwards every parcel." });
  await jobs.syncWatched(undefined);
  return { app, root, ctx, jobs, gate, latest: (await app.store.snapshot({ latest: true })).pinnedAt! };
}

describe("when the load starts", () => {
  test("a tools/list still being answered holds the start past the delay after initialized; its answer starts it", () => {
    const clock = fakeClock();
    let starts = 0;
    const trigger = warmUpTrigger(() => starts++, clock);
    trigger.initialized();
    trigger.listing();
    clock.advance(10 * WARM_UP_DELAY_MS);
    expect(starts).toBe(0);
    trigger.ready();
    // Not inside the answer's own turn: once it is written.
    expect(starts).toBe(0);
    clock.advance(0);
    expect(starts).toBe(1);
  });

  test("with no tools/list the delay after initialized starts it, once", () => {
    const clock = fakeClock();
    let starts = 0;
    const trigger = warmUpTrigger(() => starts++, clock);
    trigger.initialized();
    clock.advance(WARM_UP_DELAY_MS - 1);
    expect(starts).toBe(0);
    clock.advance(1);
    expect(starts).toBe(1);
    trigger.ready();
    trigger.initialized();
    clock.advance(10 * WARM_UP_DELAY_MS);
    expect(starts).toBe(1);
  });
});

describe("loading the model in the background", () => {
  test("starts after tools/list is answered and finishes without any query", async () => {
    const { steps, tools } = await serve(env(TINY_MODEL), "model warmed up");
    expect(tools).toBe(12);
    expect(steps).toContain("tools/list");
    expect(steps).toContain("model warmed up");
    for (const step of MODEL_STEPS) expect(steps.indexOf(step)).toBeGreaterThan(steps.indexOf("tools/list"));
  });

  test("opens an existing index beside the model and loads its search structures, then asks one question of its own, before any query", async () => {
    const environment = env(TINY_MODEL);
    expect(runCli(["sync"], { env: environment }).exitCode).toBe(0);
    const { steps } = await serve(environment, "warm-up ended");
    expect(steps).toContain("index opened");
    expect(steps.indexOf("index opened")).toBeGreaterThan(steps.indexOf("tools/list"));
    expect(steps.indexOf("search warmed up")).toBeGreaterThan(steps.indexOf("index opened"));
    expect(steps.indexOf("query warmed up")).toBeGreaterThan(Math.max(steps.indexOf("search warmed up"), steps.indexOf("model warmed up")));
    expect(steps.some((s) => s.endsWith(" answered") || s.endsWith(" failed"))).toBe(false);
  });

  test("without an index there is nothing to warm but the model", async () => {
    const { steps } = await serve(env(TINY_MODEL), "warm-up ended");
    expect(steps).toContain("model warmed up");
    expect(steps.filter((s) => s.startsWith("index") || s.startsWith("search") || s.startsWith("query"))).toEqual([]);
  });

  test("does not start for a model that is not downloaded yet", async () => {
    const { steps, stderr, tools } = await serve(env("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"), "warm-up ended");
    expect(tools).toBe(12);
    expect(steps).toContain("tools/list");
    expect(steps.filter((s) => s.startsWith("model warm"))).toEqual([]);
    expect(stderr).not.toContain("download");
  });
});

describe("status", () => {
  test("the CLI's status loads no model", () => {
    const environment = env(TINY_MODEL);
    const r = runCli(["status", "--json"], { env: environment });
    expect(r.exitCode).toBe(0);
    const steps = [...r.stderr.matchAll(/^startup [\d.]+ (.+)$/gm)].map((m) => m[1]!);
    expect(steps).toContain("cli modules evaluated");
    for (const step of MODEL_STEPS) expect(steps).not.toContain(step);
  });
});

describe("after writes", () => {
  test("runs one load at a time: calls during a load make exactly one more, and a failed load is logged, not thrown", async () => {
    const runs: (() => void)[] = [];
    const logs: string[] = [];
    let fail = false;
    const rewarm = searchRewarmer(
      () => new Promise<void>((resolve, reject) => runs.push(() => (fail ? reject(new Error("disk gone")) : resolve()))),
      (line) => logs.push(line),
    );
    rewarm.start();
    rewarm.start();
    rewarm.start();
    expect(runs.length).toBe(1);
    runs[0]!();
    await waitFor(() => runs.length === 2, 10_000, "the one more load the calls during the first asked for");
    fail = true;
    runs[1]!();
    await rewarm.idle();
    expect(runs.length).toBe(2);
    expect(logs).toEqual(["loading the index's search structures after a write failed (the next query loads them): disk gone"]);
    rewarm.start();
    expect(runs.length).toBe(3);
  });

  test("soon() loads once writes pause: calls within the quiet time make one load, after the last of them", async () => {
    const clock = fakeClock(0);
    const loads: number[] = [];
    const rewarm = searchRewarmer(async () => void loads.push(clock.now()), () => {}, 400, clock);
    rewarm.soon();
    clock.advance(50);
    rewarm.soon();
    clock.advance(50);
    rewarm.soon();
    clock.advance(399);
    expect(loads).toEqual([]);
    clock.advance(1);
    await rewarm.idle();
    expect(loads).toEqual([500]);
    rewarm.soon();
    clock.advance(400);
    await rewarm.idle();
    expect(loads).toEqual([500, 900]);
  });

  test("ingest_file and delete_file leave the new version's look-alike signatures built, or building, before any query", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
    const ctx: ToolContext = { app };
    const builtForLatest = async () => {
      await ctx.rewarm!.idle();
      expect(app.signatures.version()).toBe((await app.store.contentVersion())!);
    };
    await ingestFileTool.run({ filePath: join(root, "a.md") }, ctx, {} as ToolExtra);
    await builtForLatest();
    writeTree(root, { "b.md": "# B\n\nThe relay listens on port 9000 and never retries." });
    await ingestFileTool.run({ filePath: join(root, "b.md") }, ctx, {} as ToolExtra);
    await deleteFileTool.run({ filePath: join(root, "a.md") }, ctx, {} as ToolExtra);
    await builtForLatest();
  });

  test("once find_mentions has been used, a write's new text is read for it in the background, before the next find", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
    const ctx: ToolContext = { app };
    await ingestFileTool.run({ filePath: join(root, "a.md") }, ctx, {} as ToolExtra);
    await ctx.rewarm!.idle();
    // Not before its first use.
    expect(app.mentions.version()).toBeUndefined();
    await findMentions(app, { terms: ["agent"] });
    writeTree(root, { "b.md": "# B\n\nThe relay listens on port 9000 and never retries." });
    await ingestFileTool.run({ filePath: join(root, "b.md") }, ctx, {} as ToolExtra);
    await ctx.rewarm!.idle();
    expect(app.mentions.version()).toBe((await app.store.contentVersion())!);
  });

  test("an index find_mentions was used on has its text loaded in the background at the next start, before any find", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
    await ingestFileTool.run({ filePath: join(root, "a.md") }, { app }, {} as ToolExtra);
    // Never used: a restart loads nothing.
    const unused = (await testApp({ DB_PATH: app.config.dbPath }, [root])).app;
    await warmSearch(unused);
    expect(unused.mentions.version()).toBeUndefined();
    await findMentions(app, { terms: ["agent"] });
    await app.mentions.saved();
    // A second App over the same index stands for a restart: it has never read the index, only the cache file.
    const restarted = (await testApp({ DB_PATH: app.config.dbPath }, [root])).app;
    expect(restarted.mentions.version()).toBeUndefined();
    await warmSearch(restarted);
    expect(restarted.mentions.version()).toBe((await restarted.store.contentVersion())!);
  });

  test("a write while a sync job runs loads nothing until the job has ended", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
    const atEnd: (() => void)[] = [];
    const job = { busy: true, whenIdle: (run: () => void) => void atEnd.push(run) };
    const ctx: ToolContext = { app, jobs: job as unknown as SyncJobs };
    await ingestFileTool.run({ filePath: join(root, "a.md") }, ctx, {} as ToolExtra);
    await ctx.rewarm!.idle();
    expect(app.signatures.version()).toBeUndefined();
    expect(atEnd).toHaveLength(1);
    job.busy = false;
    atEnd[0]!();
    await ctx.rewarm!.idle();
    expect(app.signatures.version()).toBe((await app.store.contentVersion())!);
  });

  test("a watched sync keeps questions on the version before it, and lets them go once the version it leaves is loaded", async () => {
    const { app, root, ctx, jobs } = await afterFirstWatchedSync();
    const before = (await app.store.snapshot()).pinnedAt!;
    // What the hold was set to, and how far the load had got when it was let go.
    const hold = app.store.queryHold;
    const heldAt: number[] = [];
    const loadedAtRelease: (string | undefined)[] = [];
    const [setHold, letGo] = [hold.hold.bind(hold), hold.releaseLoaded.bind(hold)];
    hold.hold = (version, ms) => (heldAt.push(version), setHold(version, ms));
    hold.releaseLoaded = (started) => (loadedAtRelease.push(app.signatures.version()), letGo(started));

    writeTree(root, { "b.md": "# B\n\nThe quokka relay forwards every parcel." });
    await jobs.syncWatched(undefined);
    await ctx.rewarm!.idle();
    expect(heldAt).toEqual([before]);
    expect(loadedAtRelease).toEqual([(await app.store.contentVersion())!]);
    const found = await (await app.store.snapshot()).keywordSearch("quokka", 5);
    expect(found.map((h) => h.source)).toEqual([join(root, "b.md")]);
  });

  test("a second watched sync during the first one's load keeps questions back until the load after it", async () => {
    const { app, root, ctx, jobs } = await afterFirstWatchedSync();
    // Each load waits at the signatures until let through, so the second sync runs while the first load is under way.
    const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
    const entered: number[] = [];
    const at = app.signatures.at.bind(app.signatures);
    app.signatures.at = async (store) => {
      const n = entered.push(entered.length) - 1;
      await gates[n]?.promise;
      return at(store);
    };
    writeTree(root, { "b.md": "# B\n\nThe quokka relay forwards every parcel." });
    await jobs.syncWatched(undefined);
    const afterFirst = (await app.store.snapshot({ latest: true })).pinnedAt!;
    await waitFor(() => entered.length === 1, 10_000, "the first sync's load to reach the signatures");
    writeTree(root, { "c.md": "# C\n\nThe marsh harrier hunts at dusk." });
    await jobs.syncWatched(undefined);
    const latest = (await app.store.snapshot({ latest: true })).pinnedAt!;
    expect(latest).toBeGreaterThan(afterFirst);
    gates[0]!.resolve();
    await waitFor(() => entered.length === 2, 10_000, "the load after the second sync to start");
    // The first load has ended; the second sync's version is not loaded yet, so questions are still kept back.
    expect(app.store.queryHold.versionFor(latest)).toBeLessThan(latest);
    gates[1]!.resolve();
    await ctx.rewarm!.idle();
    expect(app.store.queryHold.versionFor(latest)).toBe(latest);
    expect(app.signatures.version()).toBe((await app.store.contentVersion())!);
  });

  test("a watched sync that changes nothing leaves an earlier sync's hold in force", async () => {
    const { app, ctx, jobs, gate, latest } = await heldDuringLoad();
    expect((await jobs.syncWatched(undefined)).counts.ingested).toBe(0);
    expect(app.store.queryHold.versionFor(latest)).toBeLessThan(latest);
    gate.resolve();
    await ctx.rewarm!.idle();
    expect(app.store.queryHold.versionFor(latest)).toBe(latest);
  });

  test("a load due while a third watched sync runs waits for it, and loads the second sync's version though the third changes nothing", async () => {
    const { app, root, ctx, jobs, gate } = await heldDuringLoad();
    // A second sync that changes the index while the first one's version is loading: its load is due after that one.
    writeTree(root, { "c.md": "# C\n\nThe marsh harrier hunts at dusk." });
    await jobs.syncWatched(undefined);
    const latest = (await app.store.snapshot({ latest: true })).pinnedAt!;
    // A third sync, kept running (before it takes its hold) while the first load ends and the second's is due.
    const third = Promise.withResolvers<void>();
    const holdQueries = app.store.holdQueries.bind(app.store);
    app.store.holdQueries = async () => (await third.promise, holdQueries());
    const thirdSync = jobs.syncWatched(undefined);
    expect(jobs.busy).toBe(true);
    gate.resolve();
    await ctx.rewarm!.idle();
    third.resolve();
    expect((await thirdSync).counts.ingested).toBe(0);
    await ctx.rewarm!.idle();
    // Without a question: the second sync's version is loaded, and questions read it.
    expect(app.signatures.version()).toBe((await app.store.contentVersion())!);
    expect(app.store.queryHold.versionFor(latest)).toBe(latest);
  });

  test("a watched sync that fails (another server holds the lock) leaves an earlier sync's hold to that sync's load", async () => {
    const { app, ctx, jobs, gate, latest } = await heldDuringLoad();
    const unlock = await lockIndex(app);
    try {
      expect((await failure(jobs.syncWatched(undefined))).code).toBe("SYNC_BUSY");
    } finally {
      await unlock();
    }
    expect(app.store.queryHold.versionFor(latest)).toBeLessThan(latest);
    gate.resolve();
    await ctx.rewarm!.idle();
    expect(app.store.queryHold.versionFor(latest)).toBe(latest);
  });

  test("any other write lets held questions go at once: a client reads back what it just ingested", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds.", "b.md": "# B\n\nThe quokka relay forwards every parcel." });
    const ctx: ToolContext = { app };
    await ingestFileTool.run({ filePath: join(root, "a.md") }, ctx, {} as ToolExtra);
    await ctx.rewarm!.idle();
    await app.store.holdQueries();
    await ingestFileTool.run({ filePath: join(root, "b.md") }, ctx, {} as ToolExtra);
    const view = await app.store.snapshot();
    expect(view.pinnedAt).toBe((await app.store.snapshot({ latest: true })).pinnedAt);
    expect((await view.keywordSearch("quokka", 5)).map((h) => h.source)).toEqual([join(root, "b.md")]);
    await ctx.rewarm!.idle();
  });

  test("the server's sync job leaves the new version's look-alike signatures built, or building, before any query", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443 and retries every ten seconds." });
    const ctx: ToolContext = { app };
    const jobs = syncJobs(ctx);
    for (const files of [{}, { "b.md": "# B\n\nThe relay listens on port 9000 and never retries." }] as Record<string, string>[]) {
      writeTree(root, files);
      const job = await jobs.start();
      await waitFor(() => job.state !== "pending" && job.state !== "running", 60_000, "the sync job to end");
      const current = await app.store.contentVersion();
      await waitFor(() => app.signatures.version() === current, 10_000, "the new version's signatures to be built, or building");
    }
  });
});
