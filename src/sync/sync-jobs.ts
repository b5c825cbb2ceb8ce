/**
 * Background sync jobs for the MCP server: start returns a job id at once and
 * the sync runs without blocking other calls. Only the latest job is kept; its
 * counts fill in while it runs.
 */
import { randomUUID } from "node:crypto";
import type { App } from "../app.ts";
import { AppError, describeError } from "../errors.ts";
import type { HoldTaken } from "../store/query-hold.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { lockIndex, runSync, syncLocked } from "./run-sync.ts";
import { changedIndex, emptySyncReport, type SyncReport } from "./sync-report.ts";
import type { ReleaseLock } from "./sync-lock.ts";
import type { IngestEvent } from "../ingest/ingest-progress.ts";

export type JobState = "pending" | "running" | "succeeded" | "failed";

export interface SyncJob extends SyncReport {
  jobId: string;
  state: JobState;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export type ProgressListener = (done: number, total: number, message: string) => void;

export class SyncJobs {
  private latest: SyncJob | null = null;
  private running = false;
  /** A job under way here, until its end (a watched sync waits for it). */
  private jobDone: Promise<void> | null = null;
  /** A watched sync under way here (watch/watcher.ts): it holds the lock, so a job started meanwhile waits for it. */
  private watched: Promise<unknown> | null = null;
  /** What whenIdle keeps for the end of the job or watched sync under way. */
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly app: App) {}

  /** Whether a job, or a watched sync, of this server is under way. */
  get busy(): boolean {
    return this.running || this.watched !== null;
  }

  /**
   * Runs `run` once no job or watched sync of this server is under way: at
   * once when none is, else after the end of the last one, its own
   * bookkeeping (the hold it took, the change it announced) done.
   */
  whenIdle(run: () => void): void {
    if (this.busy) this.idleWaiters.push(run);
    else run();
  }

  private wakeIfIdle(): void {
    if (!this.busy) for (const run of this.idleWaiters.splice(0)) run();
  }

  /**
   * Starts a job (refused while one runs here or another process syncs); the
   * returned record is live. While this server's watcher syncs, the job stays
   * pending and runs right after it.
   */
  async start(scope?: string, onProgress?: ProgressListener): Promise<SyncJob> {
    if (this.running) throw new AppError("SYNC_BUSY", "A sync job is already running", "Poll sync_status with its jobId until it finishes.");
    const before = this.watched;
    // Marked running before the lock is awaited (a lease on object storage is a request), so a second start meanwhile is refused here.
    this.running = true;
    let release: ReleaseLock | null = null;
    try {
      release = before ? null : await lockIndex(this.app);
    } catch (error) {
      this.running = false;
      // A load that fell due while the lock was asked for (a lease request on object storage) runs now.
      this.wakeIfIdle();
      throw error;
    }
    const job: SyncJob = { jobId: randomUUID().replace(/-/g, ""), state: "pending", startedAt: new Date().toISOString(), finishedAt: null, error: null, ...emptySyncReport() };
    this.latest = job;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.jobDone = promise;
    // After the caller has its record (state pending): start awaits the lock, so a microtask would already be running.
    setImmediate(async () => {
      try {
        await this.run(job, release ?? (await this.lockAfter(before!, job)), scope, onProgress);
      } finally {
        this.jobDone = null;
        resolve();
      }
    });
    return job;
  }

  /**
   * Runs a watched sync of this server (watch/watcher.ts) once no job runs
   * here; a job started meanwhile waits for it. The sync takes the lock itself.
   */
  async whenFree<T>(sync: () => Promise<T>): Promise<T> {
    while (this.jobDone) await this.jobDone;
    const run = sync();
    this.watched = run;
    try {
      return await run;
    } finally {
      this.watched = null;
    }
  }

  /**
   * A watched sync of this server (watch/watcher.ts) through whenFree; a
   * change it made is said (App.indexChanged) once it has ended, when no
   * longer busy, so the server loads the version it left.
   */
  async syncWatched(scopes: string[] | undefined, named: string[] = []): Promise<SyncReport> {
    const hold = this.app.store.queryHold;
    let taken: HoldTaken = null;
    try {
      const report = await this.whenFree(async () => {
        // Questions stay on the version before this sync until the server has loaded the one it leaves (store/query-hold.ts).
        // Without a readable table there is nothing to hold, and the sync itself says what is wrong.
        taken = await this.app.store.holdQueries().catch(() => null);
        return runSync(this.app, { scopes, named, keepOutsideRoots: true });
      }).catch((error: unknown) => {
        // A failed sync (another server holds the lock) leaves an earlier sync's hold to that sync's load.
        hold.takeBack(taken);
        throw error;
      });
      if (changedIndex(report.counts)) this.app.indexChanged("watched");
      else hold.takeBack(taken);
      return report;
    } finally {
      this.wakeIfIdle();
    }
  }

  /** The lock for a job that waited for a watched sync; null when another process took it meanwhile (the job then fails saying so). */
  private async lockAfter(watched: Promise<unknown>, job: SyncJob): Promise<ReleaseLock | null> {
    await watched.catch(() => {});
    try {
      return await lockIndex(this.app);
    } catch (error) {
      job.error = describeError(error);
      return null;
    }
  }

  private async run(job: SyncJob, release: ReleaseLock | null, scope: string | undefined, onProgress?: ProgressListener): Promise<void> {
    if (!release) {
      await this.finish(job, "failed", () => {});
      return;
    }
    job.state = "running";
    let outcome: JobState = "succeeded";
    try {
      // An MCP client hears of each file (progress must grow with every notification, so pages and chunks are not sent).
      const events = onProgress && ((event: IngestEvent) => event.kind === "file" && onProgress(event.index, event.total, event.path));
      await syncLocked(this.app, { scope, events, report: job });
    } catch (error) {
      outcome = "failed";
      job.error = describeError(storageFailure(error) ?? error);
      this.app.log(`sync job ${job.jobId} failed: ${job.error}`);
    }
    await this.finish(job, outcome, release);
  }

  private async finish(job: SyncJob, outcome: JobState, release: ReleaseLock): Promise<void> {
    // Finish and unlock before publishing the terminal state, so start -> poll -> start is never refused.
    job.finishedAt = new Date().toISOString();
    await release();
    this.running = false;
    job.state = outcome;
    // Said once the job has ended, whatever its outcome: a failed job may still have committed some files.
    this.app.indexChanged("now");
    this.wakeIfIdle();
  }

  status(jobId: string): SyncJob {
    if (!this.latest || this.latest.jobId !== jobId) {
      throw new AppError("SYNC_JOB_UNKNOWN", `Unknown sync job '${jobId}' (only the latest job is retained)`, "Start a new one with sync_start.");
    }
    return this.latest;
  }
}
