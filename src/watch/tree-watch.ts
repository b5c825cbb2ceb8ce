/**
 * File events for one root. On Linux each folder gets its own inotify watch
 * (Bun's fs.watch, which shares one inotify instance among all of them: 2,000
 * folders took 62 ms and 12 MB here), so the folders the scan never enters
 * (dot-folders, node_modules, excluded folders, the index folder, symlinked
 * folders) cost no watch and send no events; a folder that appears is
 * watched as soon as its event arrives, and one that goes loses its watches.
 * Bun's recursive mode on Linux would watch all of them, the index's own
 * writes included. Elsewhere one recursive watch covers the root (FSEvents on
 * macOS, ReadDirectoryChangesW on Windows) and the planner drops what the
 * scan would not index. Either way the tree is walked once, to know which
 * folders exist (a file replaced by a folder, or the reverse) and where
 * symlinked files point.
 */
import { watch, type Dirent, type FSWatcher } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { isInside } from "../scan/containment.ts";
import { excludedWithParents, type RootRules } from "../scan/ignore-rules.ts";
import { hiddenOnTheWay } from "../scan/skipped-names.ts";

/** How long after a watched folder went it is looked at once more, in case it was made again meanwhile. */
const LOOK_AGAIN_MS = 250;

function identityOf(info: { ino: number; birthtimeMs: number }): string {
  return `${info.ino}:${info.birthtimeMs}`;
}

export interface TreeEvents {
  /** Something changed at this absolute path (a file, a folder, or a path that is gone). */
  change(path: string): void;
  /** The kernel refused a watch: past its limit (ENOSPC) or for another reason. Events under the root may be missed from now on. */
  refused(error: NodeJS.ErrnoException, folder: string): void;
}

export interface TreeOptions {
  root: string;
  dbPath: string;
  rules: () => RootRules[];
  /** One recursive watch for the root (not Linux), or a watch per folder. */
  recursive: boolean;
}

export class TreeWatch {
  /** Folders known to exist under the root (watched ones, on Linux). */
  private readonly folders = new Map<string, FSWatcher | null>();
  /**
   * Folders the system would not let it watch or read (no permission yet): an event at one (a chmod sends one to its
   * parent's watch) walks it again, so a folder made readable later is watched from then on.
   */
  private readonly unseen = new Set<string>();
  private rootWatcher: FSWatcher | null = null;
  /** Symlinked file -> its target's real path, and the reverse. */
  private readonly linkTarget = new Map<string, string>();
  private readonly linksByTarget = new Map<string, Set<string>>();
  /** Folders gone since they were last known (a folder moved out of the root sends one event, for itself). */
  private readonly formerFolders = new Set<string>();
  /** Links gone (or pointed elsewhere) since the last plan, with the target they had. */
  private readonly formerTargets = new Map<string, string>();
  /**
   * Each known folder's identity (inode and birth time): a folder deleted and made again at once (`rm -rf out; mkdir
   * out`) is a new folder at a known path whose old watches died with the old one, and ext4 hands the new one the same
   * inode number, so the birth time tells them apart (where the file system keeps none, the inode alone).
   */
  private readonly identity = new Map<string, string>();
  private toInspect = new Set<string>();
  /** Looks again at folders that went (lookAgain), cleared on close. */
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** The ignore rules changed since the tree last applied them (rulesChanged). */
  private rulesDirty = false;
  private inspecting: Promise<void> | null = null;
  private closed = false;
  private refusedOnce = false;

  constructor(
    private readonly options: TreeOptions,
    private readonly events: TreeEvents,
  ) {}

  /** Watches the root and every folder the scan would enter; resolves once the tree has been walked. */
  async start(): Promise<void> {
    if (this.options.recursive) {
      this.rootWatcher = this.open(this.options.root, true);
      await this.walk(this.options.root, false);
    } else {
      await this.walk(this.options.root, true);
    }
  }

  /** Folders under watch (Linux) or known (elsewhere), the root included; not those the system would not let it watch or read. */
  get folderCount(): number {
    return this.folders.size - this.unseen.size;
  }

  /** Whether a folder stood at the path: one is now, or one went since the tree was walked. */
  wasFolder(path: string): boolean {
    return this.folders.has(path) || this.formerFolders.has(path);
  }

  linksTo(realPath: string): string[] {
    return [...(this.linksByTarget.get(realPath) ?? [])];
  }

  /** The target a symlinked file points at, or pointed at before it went. */
  targetOf(linkPath: string): string | null {
    return this.linkTarget.get(linkPath) ?? this.formerTargets.get(linkPath) ?? null;
  }

  /** Resolves once the folders that appeared in events so far are watched (tests, and the watcher before it plans a sync). */
  async settled(): Promise<void> {
    while (this.inspecting) await this.inspecting;
  }

  /** The ignore rules were edited: folders they now let in are watched, and those they now keep out let go. */
  rulesChanged(): void {
    this.rulesDirty = true;
    this.inspecting ??= this.inspectSoon();
  }

  close(): void {
    this.closed = true;
    this.rootWatcher?.close();
    for (const watcher of this.folders.values()) watcher?.close();
    this.folders.clear();
    this.unseen.clear();
    this.identity.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private open(folder: string, recursive: boolean): FSWatcher | null {
    if (this.closed) return null;
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => this.onEvent(folder, name));
      watcher.on("error", (error) => this.onError(error as NodeJS.ErrnoException, folder));
      return watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A folder this user may not read yet is no change and no refusal: it waits in `unseen` for its next event.
      if (code !== "EACCES" && code !== "EPERM") this.onError(error as NodeJS.ErrnoException, folder);
      return null;
    }
  }

  private onError(error: NodeJS.ErrnoException, folder: string): void {
    if (this.closed) return;
    // A folder removed while being watched ends its watch with an error on some systems: that is a change, not a refusal.
    if (error.code === "ENOENT" || error.code === "EPERM" || error.code === "EACCES") {
      this.onEvent(folder, null);
      return;
    }
    if (this.refusedOnce && error.code === "ENOSPC") return;
    if (error.code === "ENOSPC") this.refusedOnce = true;
    this.events.refused(error, folder);
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (this.closed) return;
    const path = name === null || name === undefined ? folder : join(folder, name.toString());
    this.events.change(path);
    this.toInspect.add(path);
    this.inspecting ??= this.inspectSoon();
  }

  /** Looks at changed paths in batches: a new folder gets watched, a gone one loses its watches, links are kept track of. */
  private async inspectSoon(): Promise<void> {
    try {
      while ((this.toInspect.size > 0 || this.rulesDirty) && !this.closed) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.rulesDirty) {
          this.rulesDirty = false;
          await this.applyRules();
        }
        const batch = [...this.toInspect];
        this.toInspect = new Set();
        for (const path of batch) await this.inspect(path);
      }
    } finally {
      this.inspecting = null;
    }
  }

  private async inspect(path: string): Promise<void> {
    const info = await lstat(path).catch(() => null);
    const wasWatched = this.folders.has(path) && path !== this.options.root;
    if (!info?.isDirectory()) this.forget(path);
    if (!info) {
      // A folder gone may be made again at once (rm -rf out; mkdir out): the event of its return can reach the parent's
      // watch folded into the one of its removal, read here before the new folder stood (seen under load), so look once more.
      if (wasWatched) this.lookAgain(path);
      return;
    }
    if (info.isSymbolicLink()) await this.noteLink(path);
    else if (info.isDirectory() && (this.unseen.has(path) || (this.identity.has(path) && this.identity.get(path) !== identityOf(info) && path !== this.options.root))) {
      this.forget(path);
      await this.walk(path, !this.options.recursive);
    } else if (info.isDirectory() && !this.folders.has(path) && this.entered(path)) await this.walk(path, !this.options.recursive);
  }

  /** Inspects a path once more after LOOK_AGAIN_MS. */
  private lookAgain(path: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed) return;
      this.toInspect.add(path);
      this.inspecting ??= this.inspectSoon();
    }, LOOK_AGAIN_MS);
    timer.unref?.();
    this.timers.add(timer);
  }

  /** Every known folder looked at again under the current rules: new folders they let in are walked, excluded ones forgotten. */
  private async applyRules(): Promise<void> {
    for (const folder of [...this.folders.keys()]) {
      if (this.closed) return;
      if (!this.folders.has(folder)) continue;
      if (!this.entered(folder)) {
        this.forget(folder);
        continue;
      }
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => [] as Dirent[]);
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.isDirectory() && !this.folders.has(path) && this.entered(path)) await this.walk(path, !this.options.recursive);
      }
    }
  }

  /** Whether the scan would enter this folder. */
  private entered(folder: string): boolean {
    const { root, dbPath } = this.options;
    if (!isInside(folder, root) || isInside(folder, dbPath)) return false;
    if (folder === root) return true;
    if (hiddenOnTheWay(folder, root) !== null) return false;
    return !excludedWithParents(this.options.rules(), folder, true);
  }

  /** Watches a folder and every folder under it that the scan would enter. */
  private async walk(folder: string, watchEach: boolean): Promise<void> {
    if (this.closed || this.folders.has(folder)) return;
    this.formerFolders.delete(folder);
    const watcher = watchEach ? this.open(folder, false) : null;
    this.folders.set(folder, watcher);
    const info = await lstat(folder).catch(() => null);
    if (info) this.identity.set(folder, identityOf(info));
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      // Unreadable now: walked again at its next event (sync reports the folder meanwhile).
      this.unseen.add(folder);
      return;
    }
    if (watchEach && !watcher) this.unseen.add(folder);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) await this.noteLink(path);
      else if (entry.isDirectory() && this.entered(path)) await this.walk(path, watchEach);
    }
  }

  private async noteLink(path: string): Promise<void> {
    const target = await stat(path).catch(() => null);
    const real = target?.isFile() ? await realpath(path).catch(() => null) : null;
    this.dropLink(path);
    if (!real) return;
    this.linkTarget.set(path, real);
    const links = this.linksByTarget.get(real) ?? new Set();
    links.add(path);
    this.linksByTarget.set(real, links);
  }

  private dropLink(path: string): void {
    const real = this.linkTarget.get(path);
    if (real === undefined) return;
    // Bounded: a plan reads it a second or so later, and a flood of links must not grow it without end.
    if (this.formerTargets.size > 10_000) this.formerTargets.clear();
    this.formerTargets.set(path, real);
    this.linkTarget.delete(path);
    this.linksByTarget.get(real)?.delete(path);
  }

  /** A path that is no folder now: the watches at and under it go (a moved folder is watched again at its new path). */
  private forget(path: string): void {
    this.dropLink(path);
    // Only a known folder can have known folders under it.
    if (path === this.options.root || !this.folders.has(path)) return;
    // Bounded like formerTargets; a plan needs it only until the sync that follows.
    if (this.formerFolders.size > 10_000) this.formerFolders.clear();
    for (const [folder, watcher] of this.folders) {
      if (!isInside(folder, path)) continue;
      watcher?.close();
      this.folders.delete(folder);
      this.unseen.delete(folder);
      this.identity.delete(folder);
      this.formerFolders.add(folder);
    }
  }
}
