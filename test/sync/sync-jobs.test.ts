import { describe, expect, test } from "bun:test";
import { lockIndex } from "../../src/sync/run-sync.ts";
import { SyncJobs, type SyncJob } from "../../src/sync/sync-jobs.ts";
import { failure, testApp, waitFor, writeTree } from "../helpers.ts";

function finished(jobs: SyncJobs, jobId: string): Promise<SyncJob> {
  return waitFor(
    () => {
      const job = jobs.status(jobId);
      return job.state === "succeeded" || job.state === "failed" ? job : null;
    },
    60_000,
    `sync job ${jobId} to end`,
  );
}

describe("sync jobs", () => {
  test("counts fill in while the job runs, not only at the end", async () => {
    const { app, root } = await testApp();
    const files = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`doc-${String(i).padStart(3, "0")}.md`, `# Doc ${i}\n\n${"Words about pumps and valves. ".repeat(30)}`]));
    writeTree(root, files);
    const jobs = new SyncJobs(app);
    const seen: { scanned: number; ingested: number }[] = [];
    let job: SyncJob | undefined;
    job = await jobs.start(undefined, () => job && seen.push({ scanned: job.counts.scanned, ingested: job.counts.ingested }));
    const done = await finished(jobs, job.jobId);
    expect(done.state).toBe("succeeded");
    expect(done.counts).toMatchObject({ scanned: 120, ingested: 120 });
    expect(seen[0]!.scanned).toBe(120);
    expect(seen.some((s) => s.ingested > 0 && s.ingested < 120)).toBe(true);
  });

  test("a second job while one runs is refused at once; after it finishes a new one starts", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha" });
    const jobs = new SyncJobs(app);
    const first = await jobs.start();
    expect((await failure(() => jobs.start())).message).toBe("A sync job is already running");
    await finished(jobs, first.jobId);
    const second = await jobs.start();
    expect((await finished(jobs, second.jobId)).counts).toMatchObject({ skipped: 1 });
    expect((await failure(() => jobs.status(first.jobId))).message).toBe(`Unknown sync job '${first.jobId}' (only the latest job is retained)`);
  });

  test("a job refused by another process's lock says who holds it, and no job record is made", async () => {
    const { app } = await testApp();
    const { acquireSyncLock } = await import("../../src/sync/sync-lock.ts");
    const release = acquireSyncLock(app.config.dbPath, () => {});
    const jobs = new SyncJobs(app);
    const error = await failure(() => jobs.start());
    expect(error.message).toStartWith(`Another sync is already running on ${app.config.dbPath}: process ${process.pid}`);
    release();
    const job = await jobs.start();
    expect(job.state).toBe("pending");
    expect((await finished(jobs, job.jobId)).state).toBe("succeeded");
  });
});

describe("after a job", () => {
  test("a job says once it has ended that it changed the index, whether it succeeded or failed", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha" });
    const seen: string[] = [];
    let job: SyncJob;
    app.onIndexChanged((when) => seen.push(`${job.state} ${when}`));
    const jobs = new SyncJobs(app);
    job = await jobs.start();
    await finished(jobs, job.jobId);
    job = await jobs.start();
    await finished(jobs, job.jobId);
    expect(seen).toEqual(["succeeded now", "succeeded now"]);
    // The index cannot be read mid-job (as on a disk error): the job fails.
    app.store.listSources = () => Promise.reject(new Error("read error"));
    job = await jobs.start();
    expect((await finished(jobs, job.jobId)).state).toBe("failed");
    expect(seen).toEqual(["succeeded now", "succeeded now", "failed now"]);
  });
});

describe("jobs and the watcher's syncs in one server", () => {
  test("a job started during a watched sync stays pending and runs right after it; a watched sync waits for a running job", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha" });
    const { runSync } = await import("../../src/sync/run-sync.ts");
    const jobs = new SyncJobs(app);
    const order: string[] = [];
    const { promise: hold, resolve: release } = Promise.withResolvers<void>();
    const watched = jobs.whenFree(async () => {
      const report = await runSync(app);
      order.push("watched sync ran");
      await hold;
      return report;
    });
    expect(jobs.busy).toBe(true);
    // Not refused as busy (the watcher holds the lock in this process): it waits its turn.
    const job = await jobs.start();
    expect(job.state).toBe("pending");
    await waitFor(() => order.length === 1, 30_000, "the watched sync to have run and be holding");
    expect(jobs.status(job.jobId).state).toBe("pending");
    release();
    await watched;
    const done = await finished(jobs, job.jobId);
    order.push(`job ${done.state}`);
    expect(order).toEqual(["watched sync ran", "job succeeded"]);
    // The other way round: a watched sync asked for while a job runs starts after the job's end.
    const second = await jobs.start();
    await jobs.whenFree(async () => order.push(`watched sync after a job in state ${jobs.status(second.jobId).state}`));
    expect(order.at(-1)).toBe("watched sync after a job in state succeeded");
  });

  test("whenIdle runs at once with nothing under way, else once after the watched sync or job that runs, its hold settled", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha" });
    const jobs = new SyncJobs(app);
    const ran: string[] = [];
    jobs.whenIdle(() => ran.push("idle"));
    expect(ran).toEqual(["idle"]);
    // A table to hold questions on.
    await jobs.syncWatched(undefined);
    writeTree(root, { "b.md": "beta" });

    const gate = Promise.withResolvers<void>();
    const holdQueries = app.store.holdQueries.bind(app.store);
    app.store.holdQueries = async () => (await gate.promise, holdQueries());
    const watched = jobs.syncWatched(undefined);
    jobs.whenIdle(() => ran.push(`after the watched sync, busy ${jobs.busy}, holding ${app.store.queryHold.live()}`));
    gate.resolve();
    await watched;
    // The sync took a hold and changed the index: the hold stays for the server's load, and whenIdle ran after that.
    expect(ran).toEqual(["idle", "after the watched sync, busy false, holding true"]);

    writeTree(root, { "c.md": "gamma" });
    const job = await jobs.start();
    jobs.whenIdle(() => ran.push(`after the job in state ${jobs.status(job.jobId).state}`));
    await finished(jobs, job.jobId);
    expect(ran.at(-1)).toBe("after the job in state succeeded");
    expect(ran).toHaveLength(3);
  });

  test("whenIdle runs when a job is refused the lock it was waiting for (another process syncs)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha" });
    const jobs = new SyncJobs(app);
    const unlock = await lockIndex(app);
    const ran: string[] = [];
    try {
      const refused = jobs.start();
      expect(jobs.busy).toBe(true);
      jobs.whenIdle(() => ran.push(`busy ${jobs.busy}`));
      expect((await failure(refused)).code).toBe("SYNC_BUSY");
    } finally {
      await unlock();
    }
    expect(ran).toEqual(["busy false"]);
  });
});

describe("converter warnings", () => {
  test("a file indexed with a caveat is named in the job's warnings, not only in the server log", async () => {
    const { app, root } = await testApp();
    // Mostly ASCII with two bytes that are not UTF-8 and no character of Windows-1252 (a lone "é" would read as Latin-1):
    // indexed, with a warning.
    const text = new TextEncoder().encode(`${"Plain English text about pumps. ".repeat(20)}`);
    const bytes = new Uint8Array([...text, 0x81, 0x20, 0x8d, 0x0a]);
    writeTree(root, { "notes.txt": bytes });
    const jobs = new SyncJobs(app);
    const job = await finished(jobs, (await jobs.start()).jobId);
    expect(job.counts).toMatchObject({ ingested: 1, failed: 0 });
    expect(job.warnings).toHaveLength(1);
    expect(job.warnings[0]!.source).toContain("notes.txt");
    expect(job.warnings[0]!.warning).toContain("not valid UTF-8");
  });
});
