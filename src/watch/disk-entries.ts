/**
 * What stands on disk at a changed path, as the planner asks it
 * (plan-scopes.ts): each name is looked up in its folder's listing, read once
 * per plan, because on a case-insensitive disk lstat finds "Notes.md" after
 * a rename to "notes.md"; and whether a file is still being written.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { EntryKind } from "./plan-scopes.ts";

/** A file modified more recently than this is still being written: it waits for another quiet period. */
export const SETTLE_MS = 500;

/** An entry lookup for one plan: folder listings are read once each. */
export function diskEntries(): (path: string) => EntryKind {
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
  return (path) => (listed(dirname(path))?.has(basename(path)) ? entryKind(path) : "missing");
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
export function stillWritten(path: string): boolean {
  try {
    const s = lstatSync(path);
    const age = Date.now() - s.mtimeMs;
    return s.isFile() && age >= 0 && age < SETTLE_MS;
  } catch {
    return false;
  }
}
