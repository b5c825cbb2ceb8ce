/**
 * Background sync jobs for the MCP server: start returns a job id at once and
 * the sync runs without blocking other calls. Only the latest job is kept; its
 * counts fill in while it runs.
 */
import { randomUUID } from "node:crypto";
import type { App } from "../app.ts";
import { AppError, describeError } from "../errors.ts";
import { emptySyncReport, lockIndex, syncLocked, type SyncReport } from "./run-sync.ts";
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

  /** afterJob: called once each job has ended, whatever its outcome (the server loads the new version's search structures then: mcp/warm-up.ts). */
  constructor(
    private readonly app: App,
    private readonly afterJob?: () => void,
  ) {}

  /** Whether a job of this server is under way. */
  get busy(): boolean {
    return this.running;
  }

  /** Starts a job (refused while one runs here or in another process); the returned record is live. */
  start(scope?: string, onProgress?: ProgressListener): SyncJob {
    if (this.running) throw new AppError("SYNC_BUSY", "A sync job is already running", "Poll sync_status with its jobId until it finishes.");
    const release = lockIndex(this.app);
    this.running = true;
    const job: SyncJob = { jobId: randomUUID().replace(/-/g, ""), state: "pending", startedAt: new Date().toISOString(), finishedAt: null, error: null, ...emptySyncReport() };
    this.latest = job;
    queueMicrotask(() => void this.run(job, release, scope, onProgress));
    return job;
  }

  private async run(job: SyncJob, release: ReleaseLock, scope: string | undefined, onProgress?: ProgressListener): Promise<void> {
    job.state = "running";
    let outcome: JobState = "succeeded";
    try {
      // An MCP client hears of each file (progress must grow with every notification, so pages and chunks are not sent).
      const events = onProgress && ((event: IngestEvent) => event.kind === "file" && onProgress(event.index, event.total, event.path));
      await syncLocked(this.app, { scope, events, report: job });
    } catch (error) {
      outcome = "failed";
      job.error = describeError(error);
      this.app.log(`sync job ${job.jobId} failed: ${job.error}`);
    }
    // Finish and unlock before publishing the terminal state, so start -> poll -> start is never refused.
    job.finishedAt = new Date().toISOString();
    release();
    this.running = false;
    job.state = outcome;
    // A failed job may still have committed some files, so the index may have moved either way.
    this.afterJob?.();
  }

  status(jobId: string): SyncJob {
    if (!this.latest || this.latest.jobId !== jobId) {
      throw new AppError("SYNC_JOB_UNKNOWN", `Unknown sync job '${jobId}' (only the latest job is retained)`, "Start a new one with sync_start.");
    }
    return this.latest;
  }
}
