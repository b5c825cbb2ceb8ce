/**
 * The live index: follows changes in the watched roots and turns them into
 * incremental syncs through the caller's sync (run-sync.ts under the index's
 * lock), so the rules sync has (move detection, folders it cannot see kept,
 * one writer at a time) hold for watching too. At start it catches up with
 * what changed while nothing watched (one sync), then follows events:
 * change-queue.ts decides when, plan-scopes.ts what. Another process holding
 * the lock is waited for, quietly. A root that goes away keeps its index and
 * is looked for every ROOT_CHECK_MS; one where events may not arrive (a
 * network share, the kernel's watch limit) is rescanned every RAG_RESCAN_INTERVAL.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Config } from "../config/load-config.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { AppError, describeError } from "../errors.ts";
import { loadRootRules, type RootRules } from "../scan/ignore-rules.ts";
import { emptySyncReport, type SyncReport } from "../sync/run-sync.ts";
import { ChangeQueue, QUEUE_TIMES, type QueueTimes } from "./change-queue.ts";
import { SYSTEM_CLOCK, type Clock } from "./clock.ts";
import { inotifyWatchLimit, remoteFileSystem } from "./events-reach.ts";
import { planScopes, type EntryKind } from "./plan-scopes.ts";
import { checkRoot } from "./root-check.ts";
import { TreeWatch } from "./tree-watch.ts";
import type { RootChoice } from "./watch-roots.ts";
import { SHOWN_ERRORS, type WatchedRootStatus, type WatchedSync, type WatchStatus } from "./watch-status.ts";

/** How often each root is looked at: gone, back, or replaced by another folder (a drive mounted again). */
export const ROOT_CHECK_MS = 5_000;
/** A file modified more recently than this is still being written: it waits for another quiet period. */
export const SETTLE_MS = 500;
/** First wait after a sync failed; doubled up to RETRY_MAX_MS while it keeps failing. */
export const RETRY_MS = 2_000;
export const RETRY_MAX_MS = 300_000;
/** Wait while another process holds the lock: its sync usually ends within seconds (an unchanged sync of 5,000 files takes well under one). */
export const LOCK_RETRY_MS = 1_000;

export interface WatcherDeps {
  config: Pick<Config, "roots" | "dbPath" | "rescanMs">;
  log: (line: string) => void;
  /** One sync of these scopes (undefined: every root), under the index's lock; throws SYNC_BUSY while another holds it. */
  sync: (scopes: string[] | undefined) => Promise<SyncReport>;
  /** After each watched sync (the server loads the new version's search structures then; the CLI prints it). */
  afterSync?: (record: WatchedSync) => void;
  clock?: Clock;
  times?: QueueTimes;
  /** One recursive watch per root instead of one per folder; default: everywhere but Linux. */
  recursive?: boolean;
}

interface RootEntry {
  root: string;
  tree: TreeWatch | null;
  identity: string | null;
  /** Why events may not all arrive (rescans run), or why the root is unreachable. */
  rescanReason?: string;
  unreachable?: string;
  stopRescan?: () => void;
}

type Trigger = WatchedSync["trigger"];

export class Watcher {
  private readonly clock: Clock;
  private readonly queue: ChangeQueue;
  private readonly entries: Map<string, RootEntry>;
  private rules: RootRules[] = [];
  /** Whole roots (or everything, "*") to sync next, with what asked for it. */
  private wholeRoots = new Map<string, Trigger>();
  /** Scopes of a sync that did not run (lock held, or it failed), carried into the next. */
  private carried: string[] = [];
  private running: Promise<void> | null = null;
  private rerun = false;
  private retryMs = RETRY_MS;
  private cancelRetry: (() => void) | null = null;
  private cancelRootCheck: (() => void) | null = null;
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
    this.entries = new Map(choice.watched.map((root) => [root, { root, tree: null, identity: null }]));
  }

  /** Watches every chosen root, then catches up with what changed while nothing watched (one sync, in the background). */
  async start(): Promise<void> {
    this.loadRules();
    for (const entry of this.entries.values()) await this.watchRoot(entry);
    const all = this.choice.skipped.length === 0;
    // With every root chosen the catch-up is a whole sync, which also follows a moved root's files (their old paths lie outside the roots).
    if (all) this.wholeRoots.set("*", "start");
    else for (const root of this.entries.keys()) this.wholeRoots.set(root, "start");
    this.scheduleRootCheck();
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
    this.cancelRootCheck?.();
    for (const entry of this.entries.values()) {
      entry.tree?.close();
      entry.stopRescan?.();
    }
  }

  status(): WatchStatus {
    const roots: WatchedRootStatus[] = [...this.entries.values()].map((e) => ({
      root: e.root,
      mode: e.unreachable ? "unreachable" : !e.tree ? "rescan" : e.rescanReason ? "events+rescan" : "events",
      folders: e.tree?.folderCount ?? 0,
      ...((e.unreachable ?? e.rescanReason) ? { reason: e.unreachable ?? e.rescanReason } : {}),
    }));
    const fallback = [...this.entries.values()].flatMap((e) =>
      e.unreachable
        ? [`${e.root} ${e.unreachable}: everything indexed under it is kept, and watching resumes by itself when it is back`]
        : e.rescanReason
          ? [`${e.root}: ${e.rescanReason}`]
          : [],
    );
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
    for (const root of this.entries.keys()) {
      try {
        this.rules.push(loadRootRules(root));
      } catch {
        // An unreadable rule file: the sync reports it and keeps the root's index; watch as if it had no rules.
      }
    }
  }

  private async watchRoot(entry: RootEntry): Promise<void> {
    const check = checkRoot(entry.root);
    if (!check.ok) {
      entry.unreachable = check.reason;
      entry.identity = null;
      return;
    }
    entry.unreachable = undefined;
    entry.identity = check.identity;
    const remote = remoteFileSystem(entry.root);
    if (remote) this.startRescans(entry, `it is on a ${remote} file system, where changes made by another machine send no events: rescanning every ${this.deps.config.rescanMs / 1000} s`);
    const tree = new TreeWatch(
      { root: entry.root, dbPath: this.deps.config.dbPath, rules: () => this.rules, recursive: this.deps.recursive ?? process.platform !== "linux" },
      { change: (path) => this.changed(path), refused: (error, folder) => this.refused(entry, error, folder) },
    );
    entry.tree = tree;
    await tree.start();
  }

  private changed(path: string): void {
    if (this.closed) return;
    // Rules edited: the trees learn them at once, so a folder they now include is watched (and one they exclude is not entered again).
    if (basename(path) === ".miniragignore" && this.entries.has(dirname(path))) this.loadRules();
    this.queue.add(path);
  }

  /** The kernel refused a watch: the root's events can no longer be trusted, so its watches go and it is rescanned instead. */
  private refused(entry: RootEntry, error: NodeJS.ErrnoException, folder: string): void {
    if (this.closed || entry.stopRescan) return;
    const limit = inotifyWatchLimit();
    const why =
      error.code === "ENOSPC"
        ? `inotify watch limit ${limit ?? "(unknown)"} reached: rescanning every ${this.deps.config.rescanMs / 1000} s; raise fs.inotify.max_user_watches to watch`
        : `the system refused to watch ${folder} (${describeError(error)}): rescanning every ${this.deps.config.rescanMs / 1000} s`;
    this.deps.log(`watch: ${entry.root}: ${why}`);
    entry.tree?.close();
    entry.tree = null;
    this.startRescans(entry, why);
    // Changes under folders that got no watch were missed: one sync of the root now.
    this.wholeRoots.set(entry.root, "rescan");
    this.kick();
  }

  private startRescans(entry: RootEntry, reason: string): void {
    entry.rescanReason = reason;
    entry.stopRescan?.();
    const next = () => {
      entry.stopRescan = this.clock.after(this.deps.config.rescanMs, () => {
        if (!entry.unreachable && !this.wholeRoots.has("*")) this.wholeRoots.set(entry.root, "rescan");
        this.kick();
        next();
      });
    };
    next();
  }

  private scheduleRootCheck(): void {
    this.cancelRootCheck = this.clock.after(ROOT_CHECK_MS, () => {
      void this.checkRoots().finally(() => {
        if (!this.closed) this.scheduleRootCheck();
      });
    });
  }

  /** A root gone is left alone (its index kept); a root back, or replaced by another folder, is watched again and synced. */
  private async checkRoots(): Promise<void> {
    for (const entry of this.entries.values()) {
      const check = checkRoot(entry.root);
      if (!check.ok) {
        if (!entry.unreachable) this.deps.log(`watch: ${entry.root} ${check.reason}; everything indexed under it is kept`);
        entry.unreachable = check.reason;
        entry.identity = null;
        entry.tree?.close();
        entry.tree = null;
        continue;
      }
      if (check.identity === entry.identity) continue;
      this.deps.log(`watch: ${entry.root} is ${entry.unreachable ? "back" : "another folder now (mounted again?)"}; syncing it`);
      entry.tree?.close();
      entry.tree = null;
      await this.watchRoot(entry);
      this.wholeRoots.set(entry.root, "root back");
      this.kick();
    }
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
    for (const entry of this.entries.values()) await entry.tree?.settled();
    const taken = this.queue.isDue() ? this.queue.take() : [];
    const changed: string[] = [];
    for (const t of taken) {
      if (!t.hot && stillWritten(t.path)) this.queue.add(t.path);
      else changed.push(t.path);
    }
    const whole = this.wholeRoots;
    this.wholeRoots = new Map();
    const everything = whole.has("*");
    let scopes = everything ? [] : planScopes([...changed, ...this.carried, ...whole.keys()], this.planContext());
    scopes = scopes.filter((s) => !this.underUnreachable(s));
    this.carried = [];
    if (!everything && scopes.length === 0) {
      this.state = "watching";
      return;
    }
    const trigger: Trigger = whole.get("*") ?? (whole.size ? [...whole.values()][0]! : "changes");
    await this.runSync(everything ? undefined : scopes, trigger);
  }

  private async runSync(scopes: string[] | undefined, trigger: Trigger): Promise<void> {
    this.state = "syncing";
    const startedAt = new Date().toISOString();
    let report: SyncReport;
    try {
      report = await this.deps.sync(scopes);
    } catch (error) {
      this.carry(scopes, trigger);
      if (error instanceof AppError && error.code === "SYNC_BUSY") {
        this.waiting = `${error.message} The changes wait and are synced once it ends.`;
        this.state = "watching";
        this.retryLater(LOCK_RETRY_MS);
        return;
      }
      this.waiting = undefined;
      const message = describeError(error);
      this.deps.log(`watch: a sync of the changes failed (retrying in ${Math.round(this.retryMs / 1000)} s): ${message}`);
      this.record({ startedAt, trigger, scopes, report: emptySyncReport(), error: message });
      this.retryLater();
      return;
    }
    this.waiting = undefined;
    this.retryMs = RETRY_MS;
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

  private underUnreachable(scope: string): boolean {
    for (const entry of this.entries.values()) if (entry.unreachable && (scope === entry.root || scope.startsWith(`${entry.root}/`))) return true;
    return false;
  }

  private planContext() {
    const listings = new Map<string, Set<string> | null>();
    const listed = (dir: string) => {
      if (!listings.has(dir)) {
        try {
          listings.set(dir, new Set(readdirSync(dir)));
        } catch {
          listings.set(dir, null);
        }
      }
      return listings.get(dir);
    };
    const entry = (path: string): EntryKind => {
      // The exact name must be listed: on a case-insensitive disk lstat finds "Notes.md" after a rename to "notes.md".
      if (this.entries.has(path)) return checkRoot(path).ok ? "folder" : "missing";
      if (!listed(dirname(path))?.has(basename(path))) return "missing";
      return entryKind(path);
    };
    return {
      roots: [...this.entries.keys()],
      dbPath: this.deps.config.dbPath,
      rules: this.rules,
      extensions: SUPPORTED_EXTENSIONS,
      entry,
      wasFolder: (path: string) => [...this.entries.values()].some((e) => e.tree?.wasFolder(path)),
      linksTo: (real: string) => [...this.entries.values()].flatMap((e) => e.tree?.linksTo(real) ?? []),
      targetOf: (link: string) => [...this.entries.values()].map((e) => e.tree?.targetOf(link)).find((t) => t) ?? null,
    };
  }
}

function entryKind(path: string): EntryKind {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return "missing";
  }
  if (info.isDirectory()) return "folder";
  if (info.isFile()) return "file";
  if (!info.isSymbolicLink()) return "other";
  try {
    const target = statSync(path);
    return target.isFile() ? "link-to-file" : target.isDirectory() ? "link-to-folder" : "other";
  } catch {
    return "other"; // a broken link or a loop: the scan names it
  }
}

/** A file whose modification time is within SETTLE_MS of now is still being written (a time in the future tells nothing). */
function stillWritten(path: string): boolean {
  try {
    const s = lstatSync(path);
    const age = Date.now() - s.mtimeMs;
    return s.isFile() && age >= 0 && age < SETTLE_MS;
  } catch {
    return false;
  }
}
