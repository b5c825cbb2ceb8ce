/**
 * The source a read names by a file path. On a team index a reader may not
 * have the folder at all, and query, list and find show each file by its
 * shared name (`handbook/policies/leave.md`): a relative path that is no file
 * under this machine's roots is read by that name, and so is an absolute path
 * under one of them whose file is not on this disk. Before, the first was
 * refused as outside the roots, with the advice to add a folder the reader
 * need not have, and the second as a file that does not exist.
 */
import { existsSync } from "node:fs";
import { isAbsolute, posix, resolve, sep } from "node:path";
import type { App } from "../app.ts";
import { AppError } from "../errors.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { isInside, resolveInsideRoots, type ResolveOptions } from "../scan/containment.ts";
import { indexedPath } from "../scan/scan-roots.ts";
import { checkFileSource } from "./read-source.ts";

/** Errors that say only that the path is no file under the roots here. */
const NOT_HERE = new Set(["PATH_NOT_FOUND", "PATH_OUTSIDE_ROOTS", "INVALID_ARGUMENT"]);

/** A relative path as a shared name: "/" between parts, no "./" or doubled separators. */
const asName = (path: string) => posix.normalize(path.split(sep).join("/"));

export async function fileSourceToRead(app: App, path: string, options: ResolveOptions): Promise<string> {
  try {
    const absolute = resolveInsideRoots(path, app.config.roots, options);
    checkFileSource(absolute);
    // A link to a file the sync lists by its own path is read as that file, as sync and ingest index it.
    return app.names.sourceOf(await indexedPath(absolute, app.config.roots, SUPPORTED_EXTENSIONS));
  } catch (error) {
    if (!app.names.shared || !(error instanceof AppError) || !NOT_HERE.has(error.code)) throw error;
    // An absolute path under one of this machine's roots names its file there, on disk or not (a reader without the
    // writer's files was told "File does not exist"; found by a probe).
    if (isAbsolute(path)) {
      const absolute = resolve(path);
      if (error.code !== "PATH_NOT_FOUND" || !app.config.roots.some((root) => isInside(absolute, root))) throw error;
      return app.names.sourceOf(absolute);
    }
    // Something that is there (a file outside the roots, a link out of them) keeps its own error: the name is only for what is not here.
    if (existsSync(resolve(options.cwd ?? process.cwd(), path))) throw error;
    const name = asName(path);
    if (name.startsWith("../")) throw error;
    return name;
  }
}
