/**
 * The live index: follows changes in the watched roots and turns them into
 * incremental syncs through the caller's sync (run-sync.ts under the index's
 * lock), so the rules sync has (move detection, folders it cannot see kept,
 * one writer at a time) hold for watching too. At start it catches up with
 * what changed while nothing watched (one sync), then follows events:
 * change-queue.ts decides when, plan-scopes.ts what. Another process holding
 * the lock is waited for, quietly. A root that goes away keeps its index and
 * is looked for every few seconds, and one where events may not arrive (a
 * network share, the kernel's watch limit) is rescanned (root-watches.ts).
 */
import { basename, dirname } from "node:path";
import type { Config } from "../config/load-config.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { AppError, describeErrorInOneLine } from "../errors.ts";
import { isInside } from "../path-inside.ts";
import { loadRootRules, type RootRules } from "../scan/ignore-rules.ts";
import { emptySyncReport, type SyncReport } from "../sync/sync-report.ts";
import { ChangeQueue, QUEUE_TIMES, type QueueTimes } from "./change-queue.ts";
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import { diskEntries, stillWritten } from "./disk-entries.ts";
import { namedPaths, planScopes, type EntryKind } from "./plan-scopes.ts";
import { RootWatches } from "./root-watches.ts";
import type { RootChoice } from "./watch-roots.ts";
import { SHOWN_ERRORS, type WatchedSync, type WatchStatus } from "./watch-status.ts";

/** First wait after a sync failed; doubled up to RETRY_MAX_MS while it keeps failing. */
export const RETRY_MS = 2_000;
export const RETRY_MAX_MS = 300_000;
/** Wait while another process holds the lock: its sync usually ends within seconds (an unchanged sync of 5,000 files takes well under one). */
export const LOCK_RETRY_MS = 1_000;

export interface WatcherDeps {
  config: Pick<Config, "roots" | "dbPath" | "rescanMs">;
  log: (line: string) => void;
  /**
   * One sync of these scopes (undefined: every root), under the index's lock; throws SYNC_BUSY while another holds it.
   * `named`: the changed paths as events named them, whose files' bytes decide whatever their size and mtime
   * (run-sync.ts SyncOptions.named), also where the plan widened them to a folder.
   */
  sync: (scopes: string[] | undefined, named: string[]) => Promise<SyncReport>;
  /** After each watched sync (the server loads the new version's search structures then; the CLI prints it). */
  afterSync?: (record: WatchedSync) => void;
  clock?: Clock;
  times?: QueueTimes;
  /** One recursive watch per root instead of one per folder; default: everywhere but Linux. */
  recursive?: boolean;
}


type Trigger = WatchedSync["trigger"];

export class Watcher {
  private readonly clock: Clock;
  private readonly queue: ChangeQueue;
  private readonly roots: RootWatches;
  private rules: RootRules[] = [];
  /** Whole roots (or everything, "*") to sync next, with what asked for it. */
  private wholeRoots = new Map<string, Trigger>();
  /** Scopes of a sync that did not run (lock held, or it failed), carried into the next. */
  private carried: string[] = [];
  /** The changed paths such a sync named (runSync's `named`), named again to the next, whatever its scopes become. */
  private carriedNamed = new Set<string>();
  /**
   * Folders a sync could not see (listed empty while their index was not, or unreadable), whose indexed files it
   * kept: the next change under one syncs it whole, so files that went while it could not be seen go from the index.
   */
  private keptFolders = new Set<string>();
  private running: Promise<void> | null = null;
  private rerun = false;
  private retryMs = RETRY_MS;
  private cancelRetry: (() => void) | null = null;
  private state: WatchStatus["state"] = "starting";
  private lastSync: WatchedSync | undefined;
  private syncCount = 0;
  private waiting: string | undefined;
  private closed = false;

  constructor(
    private readonly deps: WatcherDeps,
    private readonly choice: RootChoice,
  ) {
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.queue = new ChangeQueue(this.clock, () => this.kick(), deps.times ?? QUEUE_TIMES);
    this.roots = new RootWatches(choice.watched, {
      config: deps.config,
      log: deps.log,
      clock: this.clock,
      recursive: deps.recursive ?? process.platform !== "linux",
      rules: () => this.rules,
      change: (path) => this.changed(path),
      syncRoot: (root, trigger) => this.syncRoot(root, trigger),
    });
  }

  /** Watches every chosen root, then catches up with what changed while nothing watched (one sync, in the background). */
  async start(): Promise<void> {
    this.loadRules();
    await this.roots.start();
    const all = this.choice.skipped.length === 0;
    // With every root chosen the catch-up is a whole sync, which also follows a moved root's files (their old paths lie outside the roots).
    if (all) this.wholeRoots.set("*", "start");
    else for (const root of this.choice.watched) this.wholeRoots.set(root, "start");
    this.kick();
  }

  /** Resolves once no sync runs or is due now (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    this.state = "stopped";
    this.queue.stop();
    this.cancelRetry?.();
    this.roots.close();
  }

  status(): WatchStatus {
    const { roots, fallback } = this.roots.status();
    return {
      enabled: true,
      state: this.state,
      roots,
      ...(this.choice.skipped.length ? { skippedRoots: this.choice.skipped } : {}),
      folders: roots.reduce((n, r) => n + r.folders, 0),
      pendingChanges: this.queue.size + this.carried.length,
      syncs: this.syncCount,
      ...(this.lastSync ? { lastSync: this.lastSync } : {}),
      ...(fallback.length ? { fallback } : {}),
      ...(this.waiting ? { waiting: this.waiting } : {}),
    };
  }

  private loadRules(): void {
    this.rules = [];
    for (const root of this.choice.watched) {
      try {
        this.rules.push(loadRootRules(root));
      } catch {
        // An unreadable rule file: the sync reports it and keeps the root's index; watch as if it had no rules.
      }
    }
  }

  private changed(path: string): void {
    if (this.closed) return;
    // Rules edited: the tree applies them at once, so a folder they now include is watched and one they exclude let go.
    if (basename(path) === ".miniragignore" && this.choice.watched.includes(dirname(path))) {
      this.loadRules();
      this.roots.rulesChanged(dirname(path));
    }
    this.queue.add(path);
  }

  /** A whole root to sync next (a rescan, a root back), unless everything is due anyway. */
  private syncRoot(root: string, trigger: Trigger): void {
    if (!this.wholeRoots.has("*")) this.wholeRoots.set(root, trigger);
    this.kick();
  }

  /** Starts a sync run unless one is under way (it looks again when it ends). */
  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = this.runDue().finally(() => {
      this.running = null;
      if (this.rerun && !this.closed) {
        this.rerun = false;
        this.kick();
      }
    });
  }

  private async runDue(): Promise<void> {
    if (this.cancelRetry) return; // a retry is scheduled: it runs everything then
    await this.roots.settled();
    const taken = this.queue.isDue() ? this.queue.take() : [];
    const changed: string[] = [];
    for (const t of taken) {
      if (!t.hot && stillWritten(t.path)) this.queue.add(t.path);
      else changed.push(t.path);
    }
    const whole = this.wholeRoots;
    this.wholeRoots = new Map();
    const everything = whole.has("*");
    const revisited = [...this.keptFolders].filter((folder) => changed.some((path) => isInside(path, folder)));
    const named = namedPaths([...changed, ...this.carriedNamed]);
    this.carriedNamed.clear();
    let scopes = everything ? [] : planScopes([...changed, ...this.carried, ...whole.keys(), ...revisited], this.planContext());
    scopes = scopes.filter((s) => !this.roots.unreachable(s));
    this.carried = [];
    if (!everything && scopes.length === 0) {
      this.state = "watching";
      return;
    }
    const trigger: Trigger = whole.get("*") ?? (whole.size ? [...whole.values()][0]! : "changes");
    await this.runSync(everything ? undefined : scopes, trigger, revisited, named);
  }

  private async runSync(scopes: string[] | undefined, trigger: Trigger, revisited: string[] = [], named: string[] = []): Promise<void> {
    this.state = "syncing";
    const startedAt = new Date().toISOString();
    let report: SyncReport;
    try {
      report = await this.deps.sync(scopes, named);
    } catch (error) {
      // A scope the sync refused (a path that turned out to lead out of the roots) would be refused again on every
      // retry, holding back every change after it: the retry syncs its whole root instead, which refuses no path.
      const refusedScope = error instanceof AppError && error.code === "PATH_OUTSIDE_ROOTS" && scopes !== undefined;
      this.carry(refusedScope ? this.rootsOf(scopes) : scopes, trigger);
      // Every way a sync fails, its named paths go on to the next (a whole sync's retry, or a refused scope's root, too).
      for (const path of named) this.carriedNamed.add(path);
      if (error instanceof AppError && error.code === "SYNC_BUSY") {
        this.waiting = `${error.message} The changes wait and are synced once it ends.`;
        this.state = "watching";
        this.retryLater(LOCK_RETRY_MS);
        return;
      }
      this.waiting = undefined;
      // One line: the log and the CLI's watch line show it as such (a message and its fix on two lines came out as a literal \n).
      const message = describeErrorInOneLine(error);
      this.deps.log(`watch: a sync of the changes failed (retrying in ${Math.round(this.retryMs / 1000)} s): ${message}`);
      this.record({ startedAt, trigger, scopes, report: emptySyncReport(), error: message });
      this.retryLater();
      return;
    }
    this.waiting = undefined;
    this.retryMs = RETRY_MS;
    // Seen whole now, unless this sync could not see them either.
    for (const folder of revisited) this.keptFolders.delete(folder);
    for (const unlisted of report.unlistedFolders) this.keptFolders.add(unlisted.folder);
    this.record({ startedAt, trigger, scopes, report });
    this.state = "watching";
  }

  private record(run: { startedAt: string; trigger: Trigger; scopes: string[] | undefined; report: SyncReport; error?: string }): void {
    const record: WatchedSync = {
      startedAt: run.startedAt,
      finishedAt: new Date().toISOString(),
      trigger: run.trigger,
      paths: run.scopes?.length ?? 0,
      counts: { ...run.report.counts },
      errors: run.report.errors.slice(0, SHOWN_ERRORS),
      ...(run.error ? { error: run.error } : {}),
    };
    this.lastSync = record;
    this.syncCount++;
    this.state = "watching";
    this.deps.afterSync?.(record);
  }

  /** The watched roots the scopes lie in. */
  private rootsOf(scopes: string[]): string[] {
    return [...new Set(scopes.flatMap((scope) => this.choice.watched.filter((root) => isInside(scope, root))))];
  }

  /** A sync that did not run: its scopes (or whole roots) wait for the retry. */
  private carry(scopes: string[] | undefined, trigger: Trigger): void {
    if (scopes === undefined) this.wholeRoots.set("*", trigger);
    else this.carried.push(...scopes);
  }

  private retryLater(wait = this.retryMs): void {
    if (wait === this.retryMs) this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.cancelRetry = this.clock.after(wait, () => {
      this.cancelRetry = null;
      this.kick();
    });
  }

  private planContext() {
    const onDisk = diskEntries();
    const entry = (path: string): EntryKind => {
      const root = this.roots.isReachableRoot(path);
      return root === null ? onDisk(path) : root ? "folder" : "missing";
    };
    return {
      roots: this.choice.watched,
      dbPath: this.deps.config.dbPath,
      rules: this.rules,
      extensions: SUPPORTED_EXTENSIONS,
      entry,
      wasFolder: (path: string) => this.roots.wasFolder(path),
      linksTo: (real: string) => this.roots.linksTo(real),
      targetOf: (link: string) => this.roots.targetOf(link),
    };
  }
}
