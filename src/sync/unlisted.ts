/**
 * What a user is told about a folder sync could not see. A missing or
 * unmounted drive, a folder without read permission, and a background
 * process without access to ~/Documents all look alike, and none of them
 * means the files are gone, so the message says what was kept and what to do.
 */
import { EMPTY_FOLDER_REASON } from "../scan/emptied-folders.ts";
import type { UnlistedFolder } from "../scan/scan-roots.ts";

export interface UnlistedReport {
  folder: string;
  reason: string;
  /** Indexed files kept under it. */
  kept: number;
}

/** Files named in a message; the rest are counted. */
const NAMED_FILES = 3;

/** The first few files by name, and how many more: "a.md, b.md, c.md, and 4 more". */
export function namedFew(files: string[]): string {
  return files.slice(0, NAMED_FILES).join(", ") + (files.length > NAMED_FILES ? `, and ${files.length - NAMED_FILES} more` : "");
}

export function describeUnlisted(folder: UnlistedFolder, keptFiles: string[], asked: boolean): { report: UnlistedReport; failure: string | null } {
  const report = { folder: folder.folder, reason: folder.reason, kept: keptFiles.length };
  // A root always fails the run; a subfolder only when it hides indexed files or was the folder asked for.
  if (!folder.isRoot && !asked && keptFiles.length === 0) return { report, failure: null };
  const named = namedFew(keptFiles);
  const kept = keptFiles.length ? `kept the ${keptFiles.length} indexed file${keptFiles.length === 1 ? "" : "s"} under it (${named})` : "nothing under it is indexed";
  const what = folder.reason === EMPTY_FOLDER_REASON ? `${folder.folder} is an empty folder while its index is not` : `could not list ${folder.folder} (${folder.reason})`;
  const advice =
    folder.reason === EMPTY_FOLDER_REASON
      ? "If a drive or share is unplugged, reconnect it and sync again; if you removed the files, delete their entries with delete_file (or minirag-mcp delete)."
      : "Restore access (mount the drive, grant read permission) and sync again; or take the folder out of BASE_DIR / BASE_DIRS.";
  return { report, failure: `${what}: ${kept}. ${advice}` };
}
