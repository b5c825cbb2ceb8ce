/**
 * One sync at a time per index, across processes: <DB_PATH>/.sync.lock is
 * created exclusively and holds {pid, startedAt}. A lock whose process is
 * gone is taken over, so a killed sync never blocks the next one.
 */
import { mkdirSync, openSync, closeSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors.ts";

interface LockContent {
  pid: number;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function elapsed(startedAt: string): string | null {
  const ms = Date.now() - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return null;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

export function acquireSyncLock(dbPath: string): () => void {
  mkdirSync(dbPath, { recursive: true });
  const path = join(dbPath, ".sync.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockContent));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder: Partial<LockContent> = {};
    try {
      holder = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      // an empty or torn lock file: its writer died mid-write
    }
    if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
      const running = holder.startedAt ? elapsed(holder.startedAt) : null;
      throw new AppError(
        "SYNC_BUSY",
        `Another sync is already running on ${dbPath} (pid ${holder.pid}${running ? `, for ${running}` : ""}).`,
        "Wait for it to finish, then sync again; queries and single-file ingests keep working meanwhile.",
      );
    }
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new AppError("SYNC_BUSY", `Could not take the sync lock ${path}.`, "Retry in a moment.");
}
