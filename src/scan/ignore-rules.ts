/**
 * .miniragignore: gitignore rules at the top of a document root, matched
 * against paths relative to that root. Matching ignores case and Unicode
 * composition (as git does on macOS), so `private/` keeps out `Private/` and
 * a folder name stored decomposed (NFD) matches a rule typed composed (NFC).
 * When roots nest, a path answers to the rules of every root above it.
 */
import ignore, { type Ignore } from "ignore";
import { accessSync, constants, lstatSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { AppError } from "../errors.ts";
import { isInside } from "./containment.ts";

export const IGNORE_FILE = ".miniragignore";

export interface RootRules {
  root: string;
  /** The rule file's path, when the root has one. */
  file: string | null;
  /** Rules in it, not counting blank lines and comments. */
  ruleCount: number;
  matcher: Ignore | null;
}

/** The rules of one root; throws when the file exists but cannot be read, since scanning past it would index what it keeps out. */
export function loadRootRules(root: string): RootRules {
  const file = join(root, IGNORE_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      // A dangling symlink also says ENOENT: tell it apart from no file at all.
      if (isBrokenLink(file)) throw unreadableRules(file, "it is a broken link");
      return { root, file: null, ruleCount: 0, matcher: null };
    }
    if (code === "ENOTDIR") return { root, file: null, ruleCount: 0, matcher: null };
    // A root that does not let this user in answers EACCES for any name in it, a rule file or none: name the root.
    if ((code === "EACCES" || code === "EPERM") && !canEnter(root)) throw rootShutOut(root, code);
    throw unreadableRules(file, (error as Error).message);
  }
  const rules = text.normalize("NFC").split(/\r?\n/);
  const ruleCount = rules.filter((line) => line.trim() && !line.startsWith("#")).length;
  return { root, file, ruleCount, matcher: ignore({ ignorecase: true }).add(rules) };
}

function isBrokenLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function canEnter(folder: string): boolean {
  try {
    accessSync(folder, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function rootShutOut(root: string, code: string): AppError {
  return new AppError(
    "IGNORE_FILE_UNREADABLE",
    `The document root ${root} does not let this user in (${code}), so it was not scanned and nothing indexed under it was touched`,
    `Give this user read and search (x) permission on ${root}, then sync again.`,
  );
}

function unreadableRules(file: string, reason: string): AppError {
  return new AppError(
    "IGNORE_FILE_UNREADABLE",
    `${file} cannot be read (${reason}), so its root was not scanned and nothing indexed under it was touched`,
    `Make ${file} readable (or remove it), then sync again.`,
  );
}

/** The rule file that excludes a path (a folder when isDir), or null. Paths outside every root are never excluded here. */
export function excludedBy(rules: RootRules[], path: string, isDir: boolean): string | null {
  for (const r of rules) {
    if (!r.matcher || !isInside(path, r.root) || path === r.root) continue;
    let rel = relative(r.root, path).normalize("NFC");
    if (sep !== "/") rel = rel.split(sep).join("/");
    if (r.matcher.ignores(isDir ? `${rel}/` : rel)) return r.file;
  }
  return null;
}

/** Like excludedBy, and also true when any folder above the path (below its root) is excluded. */
export function excludedWithParents(rules: RootRules[], path: string, isDir: boolean): string | null {
  for (const r of rules) {
    if (!r.matcher || !isInside(path, r.root) || path === r.root) continue;
    const parts = relative(r.root, path).split(sep);
    for (let i = 1; i <= parts.length; i++) {
      const last = i === parts.length;
      const hit = excludedBy([r], join(r.root, ...parts.slice(0, i)), last ? isDir : true);
      if (hit) return hit;
    }
  }
  return null;
}

/** The error for an ingest of an excluded file, naming the rule file. */
export function excludedFileError(path: string, ruleFile: string): AppError {
  return new AppError(
    "PATH_EXCLUDED",
    `${path} is excluded by ${ruleFile}`,
    `Indexing it anyway would last only until the next sync. Edit ${ruleFile} if it should be indexed.`,
  );
}

/** Refuses a path that a .miniragignore of any root above it excludes (single-file ingest). */
export function assertNotExcluded(path: string, roots: string[]): void {
  const rules = roots.filter((root) => isInside(path, root)).map(loadRootRules);
  const rule = excludedWithParents(rules, path, false);
  if (rule) throw excludedFileError(path, rule);
}
