/**
 * The security boundary: every file operation resolves the real path
 * (symlinks followed) and requires it to be a root or lie under one.
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, parse, resolve, sep } from "node:path";
import { AppError } from "../errors.ts";
import { canonicalPath, diskPath, realPathOfSync } from "../native/file-names.ts";
import { innermostRoot, isInside } from "../path-inside.ts";
import { unescapeControls } from "../text/control-escapes.ts";

/** The scan's many callers take it from here, beside the boundary it serves. */
export { innermostRoot, isInside };

function realRoots(roots: string[]): string[] {
  return roots.map((r) => (existsSync(r) ? realPathOfSync(r) : r));
}

export function isInsideRoots(realPath: string, roots: string[]): boolean {
  return realRoots(roots).some((r) => isInside(realPath, r)) || roots.some((r) => isInside(realPath, r));
}

/**
 * A path in the form the roots are written in. A shell's current directory is
 * always a real path, so under a root reached through a symlink (a root in a
 * linked folder, macOS's /tmp) a relative CLI path resolves to the target's
 * form; the index keys files by the root's form, so map it back.
 */
export function inRootForm(absolute: string, roots: string[]): string {
  if (roots.some((r) => isInside(absolute, r))) return absolute;
  for (const root of roots) {
    const real = existsSync(root) ? realPathOfSync(root) : root;
    if (real !== root && isInside(absolute, real)) return root + absolute.slice(real.length);
  }
  return absolute;
}

/**
 * The path as the disk spells it when it was typed in another Unicode
 * composition: a name macOS or a copy from it stored decomposed ("é" as e and
 * a combining accent), typed composed, or the reverse. Linux compares names
 * byte for byte, so `read café.md` said "does not exist" for a listed file.
 * Each missing part is tried composed and decomposed, and a name typed as the
 * CLI shows it (`new\nline.md` for a name holding a newline) as the name; the
 * path itself when it exists or no spelling does.
 */
export function spelledOnDisk(absolute: string): string {
  if (existsSync(diskPath(absolute))) return absolute;
  // A name typed as the CLI prints it (text/control-escapes.ts: a newline in a name is shown as \n). Windows names hold no
  // controls, and there a backslash is the separator.
  if (process.platform !== "win32" && absolute.includes("\\")) {
    const unescaped = unescapeControls(absolute);
    if (unescaped !== absolute) {
      const found = composedOnDisk(unescaped);
      if (existsSync(diskPath(found))) return found;
    }
  }
  return composedOnDisk(absolute);
}

/** spelledOnDisk's Unicode part: each missing part of the path tried composed and decomposed. */
function composedOnDisk(absolute: string): string {
  if (existsSync(diskPath(absolute)) || !/[^\x00-\x7f]/.test(absolute)) return absolute;
  const { root } = parse(absolute);
  let path = root;
  for (const part of absolute.slice(root.length).split(sep).filter(Boolean)) {
    const found = [part, part.normalize("NFD"), part.normalize("NFC")].find((p) => existsSync(diskPath(join(path, p))));
    if (found === undefined) return absolute;
    path = join(path, found);
  }
  return path;
}

/**
 * A relative path that names nothing from the current directory, taken from a root instead where it names a file
 * there: query and list show names relative to their root (`faq/x.html`), and a name copied from them works from any
 * folder, as a relative --scope does. A name found under two roots is refused, naming both. `gone`: a file deleted
 * from disk may still be named (to delete it from the index) where there is one root to take it from.
 */
function fromRootIfNotHere(typed: string, here: string, roots: readonly string[], gone = false): string {
  if (isAbsolute(typed) || existsSync(diskPath(here))) return here;
  const under = roots.map((root) => ({ root, there: spelledOnDisk(canonicalPath(join(root, typed))) })).filter(({ root, there }) => isInside(there, root));
  const found = under.filter(({ there }) => existsSync(diskPath(there)));
  if (found.length > 1) {
    throw new AppError("INVALID_ARGUMENT", `${typed} names a file under more than one root: ${found.map((f) => f.there).join(", ")}`, "Pass the absolute path of the one you mean.");
  }
  if (found.length === 1) return found[0]!.there;
  if (gone && under.length === 1 && roots.length === 1 && !roots.some((root) => isInside(here, root))) return under[0]!.there;
  return here;
}

export interface ResolveOptions {
  /** MCP paths must be absolute; CLI paths resolve against the current directory. */
  requireAbsolute: boolean;
  cwd?: string;
}

/**
 * An MCP path must be absolute (the reference's rule, behaviour-spec case 57):
 * a relative one is refused, with the full path to pass where it names a file
 * under a root, so a model that passed a displayPath (which the server's
 * instructions tell it to cite) corrects the call at once; the hint's example
 * was /home/me/docs/notes.md (found by a probe).
 */
function mustBeAbsolute(path: string, roots: string[], gone = false): void {
  if (isAbsolute(path)) return;
  const there = fromRootIfNotHere(path, "", roots, gone);
  const hint = there ? `Pass the full path: ${there}.` : `Pass the full path, e.g. ${roots[0] ? join(roots[0], path) : "/home/me/docs/notes.md"}.`;
  throw new AppError("INVALID_ARGUMENT", `File path must be absolute: ${path}`, hint);
}

/** Resolves a user-given path to an absolute path inside the roots; throws a clear error otherwise. */
export function resolveInsideRoots(path: string, roots: string[], options: ResolveOptions): string {
  if (options.requireAbsolute) mustBeAbsolute(path, roots);
  // A file named in another form than the scan's (native/file-names.ts) is the scan's file all the same.
  const absolute = fromRootIfNotHere(path, spelledOnDisk(canonicalPath(inRootForm(resolve(options.cwd ?? process.cwd(), path), roots))), roots);
  const outside = () => outsideRoots(absolute, roots);
  if (!existsSync(diskPath(absolute))) {
    // A relative path is looked for here and under each root: where it is in neither, it is missing, not outside.
    if (!isAbsolute(path) && !roots.some((r) => isInside(absolute, r))) {
      const under = roots.map((root) => join(root, path)).filter((there, i) => isInside(there, roots[i]!));
      throw new AppError("PATH_NOT_FOUND", `File does not exist: ${path} (not at ${absolute}${under.length ? ` nor at ${under.join(", ")}` : ""})`, "Check the path; list shows what is under the roots.");
    }
    // Judge containment lexically first, so a missing file outside the roots is reported as outside.
    if (!roots.some((r) => isInside(absolute, r))) throw outside();
    throw new AppError("PATH_NOT_FOUND", `File does not exist: ${absolute}`, "Check the path; list shows what is under the roots.");
  }
  const real = realPathOfSync(absolute);
  if (!isInsideRoots(real, roots)) {
    if (real === absolute) throw outside();
    throw new AppError(
      "PATH_OUTSIDE_ROOTS",
      `${absolute} is a symlink to ${real}, which is outside the configured document roots (roots: ${roots.join(", ")})`,
      "Only links that stay inside a root are followed. Index the target's folder as a root of its own (BASE_DIRS), or copy the file in.",
    );
  }
  return absolute;
}

/** Like resolveInsideRoots, and the path must be a regular file. */
export function resolveFileInsideRoots(path: string, roots: string[], options: ResolveOptions): string {
  const absolute = resolveInsideRoots(path, roots, options);
  if (!statSync(diskPath(absolute)).isFile()) throw new AppError("NOT_A_FILE", `Not a file: ${absolute}`, "Pass a file; to index a folder use sync or ingest <folder>.");
  return absolute;
}

/**
 * A path to remove from the index. The file may already be gone from disk, so
 * a missing path is judged lexically; an existing one by its real path.
 */
export function resolveIndexedPath(path: string, roots: string[], options: ResolveOptions): string {
  if (options.requireAbsolute) mustBeAbsolute(path, roots, true);
  const absolute = fromRootIfNotHere(path, spelledOnDisk(canonicalPath(inRootForm(resolve(options.cwd ?? process.cwd(), path), roots))), roots, true);
  if (existsSync(diskPath(absolute))) return resolveInsideRoots(absolute, roots, options);
  if (!roots.some((r) => isInside(absolute, r))) throw outsideRoots(absolute, roots);
  return absolute;
}

function outsideRoots(path: string, roots: string[]): AppError {
  return new AppError(
    "PATH_OUTSIDE_ROOTS",
    `Path outside configured document roots: ${path} (roots: ${roots.join(", ")})`,
    "Index files under a root, or add the folder to the roots you always use (BASE_DIRS, or the same --base-dir flags every time; a server restarts to take it).",
  );
}
