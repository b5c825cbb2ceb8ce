/**
 * Finding classify.toml: <first root>/.minirag/classify.toml. Its presence
 * turns labels on. It is read again whenever its mtime or size changes, so a
 * long-running server follows an edit without a restart; an unchanged file
 * costs one stat per use.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../errors.ts";
import { parseTaxonomy } from "./parse-taxonomy.ts";
import type { Taxonomy } from "./taxonomy.ts";

export type TaxonomyState = { state: "absent" } | { state: "ok"; taxonomy: Taxonomy; file: string } | { state: "error"; message: string; file: string };

/** Where the taxonomy file of these roots lives (null without roots). */
export function taxonomyPath(roots: readonly string[]): string | null {
  return roots[0] ? join(roots[0], ".minirag", "classify.toml") : null;
}

/** The roots' classify.toml, held by their App: parsed once per change of the file. */
export class TaxonomyFile {
  /** The last parse, and the mtime, size and inode it was read at. */
  private known: { key: string; result: TaxonomyState } | undefined;

  constructor(readonly roots: readonly string[]) {}

  /** The taxonomy now: absent (labels off), parsed, or the parse error. */
  load(): TaxonomyState {
    const file = taxonomyPath(this.roots);
    if (!file) return { state: "absent" };
    let key: string;
    try {
      const info = statSync(file);
      if (!info.isFile()) return { state: "error", file, message: `${file} is not a file` };
      key = `${info.mtimeMs}:${info.size}:${info.ino}`;
    } catch (error) {
      this.known = undefined;
      const code = (error as NodeJS.ErrnoException).code;
      // Only a file that is not there turns labels off; one that cannot be read is an error to fix.
      if (code === "ENOENT" || code === "ENOTDIR") return { state: "absent" };
      return { state: "error", file, message: `${file} cannot be read: ${(error as Error).message}` };
    }
    if (this.known?.key === key) return this.known.result;
    let result: TaxonomyState;
    try {
      result = { state: "ok", taxonomy: parseTaxonomy(readFileSync(file, "utf8"), file), file };
    } catch (error) {
      result = { state: "error", file, message: describeError(error).split("\n")[0]! };
    }
    this.known = { key, result };
    return result;
  }
}
