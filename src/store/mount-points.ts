/**
 * The folders under the roots that a sync found on a drive of their own
 * (scan/emptied-folders.ts), kept beside the index so that a nested drive
 * that is unplugged, and leaves a plain empty folder or none, is still known
 * for one. Losing the file loses only that memory: a mount point counts again
 * once a sync sees it mounted.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MOUNT_POINTS_FILE = "mount-points.json";

/** The remembered mount points; none when the file is missing or unreadable. */
export function readMountPoints(dbPath: string): string[] {
  try {
    const folders = JSON.parse(readFileSync(join(dbPath, MOUNT_POINTS_FILE), "utf8")).folders;
    return Array.isArray(folders) ? folders.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

/** Replaces the remembered mount points, whole or not at all (a rename); only into an index folder that exists, and only when they changed. */
export function writeMountPoints(dbPath: string, folders: string[]): void {
  if (!existsSync(dbPath)) return;
  const before = readMountPoints(dbPath);
  if (before.length === folders.length && before.every((f, i) => f === folders[i])) return;
  const path = join(dbPath, MOUNT_POINTS_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ folders }));
  renameSync(temp, path);
}
