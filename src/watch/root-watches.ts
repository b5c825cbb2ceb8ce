/**
 * The watched roots, each with its tree of watches (tree-watch.ts) and its
 * state: watched, rescanned because its events may not all arrive (a network
 * file system, the kernel's watch limit), or unreachable (gone, not a folder,
 * no permission: its index is kept). Each root is looked at every
 * ROOT_CHECK_MS, so one that comes back, or is replaced by another folder (a
 * drive mounted again), is watched again and synced whole.
 */
import type { Config } from "../config/load-config.ts";
import { describeError } from "../errors.ts";
import type { RootRules } from "../scan/ignore-rules.ts";
import { isInside } from "../scan/containment.ts";
import type { Clock } from "../clock.ts";
import { inotifyWatchLimit, remoteFileSystem } from "./events-reach.ts";
import { checkRoot } from "./root-check.ts";
import { TreeWatch } from "./tree-watch.ts";
import type { WatchedRootStatus } from "./watch-status.ts";

/** How often each root is looked at: gone, back, or replaced by another folder. */
export const ROOT_CHECK_MS = 5_000;

export interface RootWatchesDeps {
  config: Pick<Config, "dbPath" | "rescanMs">;
  log: (line: string) => void;
  clock: Clock;
  /** One recursive watch per root instead of one per folder. */
  recursive: boolean;
  rules: () => RootRules[];
  /** A path changed under a root. */
  change: (path: string) => void;
  /** A root must be synced whole: its rescan came due, or it came back. */
  syncRoot: (root: string, trigger: "rescan" | "root back") => void;
}

interface RootEntry {
  root: string;
  tree: TreeWatch | null;
  /** The folder's device and inode when it was watched. */
  identity: string | null;
  /** Why events may not all arrive (rescans run). */
  rescanReason?: string;
  /** Why the root cannot be watched now. */
  unreachable?: string;
  stopRescan?: () => void;
}

export class RootWatches {
  readonly entries: Map<string, RootEntry>;
  private cancelCheck: (() => void) | null = null;
  private closed = false;

  constructor(
    roots: string[],
    private readonly deps: RootWatchesDeps,
  ) {
    this.entries = new Map(roots.map((root) => [root, { root, tree: null, identity: null }]));
  }

  /** Watches every root, then looks at them every ROOT_CHECK_MS. */
  async start(): Promise<void> {
    for (const entry of this.entries.values()) await this.watch(entry);
    this.scheduleCheck();
  }

  close(): void {
    this.closed = true;
    this.cancelCheck?.();
    for (const entry of this.entries.values()) {
      entry.tree?.close();
      entry.stopRescan?.();
    }
  }

  /** The ignore rules of a root were edited: its tree applies them to the folders it watches. */
  rulesChanged(root: string): void {
    this.entries.get(root)?.tree?.rulesChanged();
  }

  /** Resolves once every tree has watched the folders its events named so far. */
  async settled(): Promise<void> {
    for (const entry of this.entries.values()) await entry.tree?.settled();
  }

  status(): { roots: WatchedRootStatus[]; fallback: string[] } {
    const entries = [...this.entries.values()];
    const roots: WatchedRootStatus[] = entries.map((e) => ({
      root: e.root,
      mode: e.unreachable ? "unreachable" : !e.tree ? "rescan" : e.rescanReason ? "events+rescan" : "events",
      folders: e.tree?.folderCount ?? 0,
      ...((e.unreachable ?? e.rescanReason) ? { reason: e.unreachable ?? e.rescanReason } : {}),
    }));
    const fallback = entries.flatMap((e) =>
      e.unreachable ? [`${e.root}: ${e.unreachable}; everything indexed under it is kept, and watching resumes by itself when it is back`] : e.rescanReason ? [`${e.root}: ${e.rescanReason}`] : [],
    );
    return { roots, fallback };
  }

  /** True for a path under a root that cannot be reached now (nothing there is synced until it is back). */
  unreachable(path: string): boolean {
    for (const entry of this.entries.values()) if (entry.unreachable && isInside(path, entry.root)) return true;
    return false;
  }

  /** Whether the path is a root that is there now (for the planner). */
  isReachableRoot(path: string): boolean | null {
    return this.entries.has(path) ? checkRoot(path).ok : null;
  }

  wasFolder(path: string): boolean {
    for (const entry of this.entries.values()) if (entry.tree?.wasFolder(path)) return true;
    return false;
  }

  linksTo(real: string): string[] {
    return [...this.entries.values()].flatMap((e) => e.tree?.linksTo(real) ?? []);
  }

  targetOf(link: string): string | null {
    for (const entry of this.entries.values()) {
      const target = entry.tree?.targetOf(link);
      if (target) return target;
    }
    return null;
  }

  private async watch(entry: RootEntry): Promise<void> {
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
      { root: entry.root, dbPath: this.deps.config.dbPath, rules: this.deps.rules, recursive: this.deps.recursive },
      { change: (path) => !this.closed && this.deps.change(path), refused: (error, folder) => this.refused(entry, error, folder) },
    );
    entry.tree = tree;
    await tree.start();
  }

  /** The kernel refused a watch: the root's events can no longer be trusted, so its watches go and it is rescanned instead. */
  private refused(entry: RootEntry, error: NodeJS.ErrnoException, folder: string): void {
    if (this.closed || entry.stopRescan) return;
    const every = `rescanning every ${this.deps.config.rescanMs / 1000} s`;
    const why =
      error.code === "ENOSPC"
        ? `inotify watch limit ${inotifyWatchLimit() ?? "(unknown)"} reached: ${every}; raise fs.inotify.max_user_watches to watch`
        : `the system refused to watch ${folder} (${describeError(error)}): ${every}`;
    this.deps.log(`watch: ${entry.root}: ${why}`);
    entry.tree?.close();
    entry.tree = null;
    this.startRescans(entry, why);
    // Changes under folders that got no watch were missed: one sync of the root now.
    this.deps.syncRoot(entry.root, "rescan");
  }

  private startRescans(entry: RootEntry, reason: string): void {
    entry.rescanReason = reason;
    entry.stopRescan?.();
    const next = () => {
      entry.stopRescan = this.deps.clock.after(this.deps.config.rescanMs, () => {
        if (!entry.unreachable) this.deps.syncRoot(entry.root, "rescan");
        next();
      });
    };
    next();
  }

  private scheduleCheck(): void {
    this.cancelCheck = this.deps.clock.after(ROOT_CHECK_MS, () => {
      void this.check().finally(() => {
        if (!this.closed) this.scheduleCheck();
      });
    });
  }

  /** A root gone is left alone (its index kept); a root back, or replaced by another folder, is watched again and synced. */
  private async check(): Promise<void> {
    for (const entry of this.entries.values()) {
      const check = checkRoot(entry.root);
      if (!check.ok) {
        if (!entry.unreachable) this.deps.log(`watch: ${entry.root}: ${check.reason}; everything indexed under it is kept`);
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
      await this.watch(entry);
      this.deps.syncRoot(entry.root, "root back");
    }
  }
}
