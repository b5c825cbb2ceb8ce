/**
 * What the roots are called in an index on object storage, where a file's
 * source is `<root name>/<path inside the root>` (scan/source-names.ts):
 * RAG_ROOT_NAME, else each root's folder name, checked here so a clash is a
 * configuration error before anything is written under the wrong name.
 */
import { basename } from "node:path";
import { AppError } from "../errors.ts";

/**
 * The names of the roots of a shared index: RAG_ROOT_NAME's, else each root's
 * folder name. Throws the configuration error naming the clash when two roots
 * would share a name, or a name could be read as a path.
 */
export function rootNames(roots: string[], given: string[] | undefined): string[] {
  if (given && given.length !== roots.length) {
    throw new AppError(
      "CONFIG",
      `Configuration error: RAG_ROOT_NAME gives ${given.length} name(s) for ${roots.length} root(s) (${roots.join(", ")}).`,
      "Give one name per root, in the order of BASE_DIRS: a name, or a JSON array of names.",
    );
  }
  const names = given ?? roots.map((root) => basename(root));
  for (const [i, name] of names.entries()) {
    if (!name || name === "." || name === ".." || /[/\\]/.test(name)) {
      throw new AppError(
        "CONFIG",
        `Configuration error: the root ${roots[i]} would be named ${JSON.stringify(name)} in the shared index, which is not a folder name.`,
        "Set RAG_ROOT_NAME to a name without / or \\ (on a team index every machine names its copy of the folder the same way).",
      );
    }
  }
  const clash = names.findIndex((name, i) => names.indexOf(name) !== i);
  if (clash >= 0) {
    const first = names.indexOf(names[clash]!);
    throw new AppError(
      "CONFIG",
      `Configuration error: the roots ${roots[first]} and ${roots[clash]} would both be named ${JSON.stringify(names[clash])} in the shared index.`,
      'Name them apart with RAG_ROOT_NAME, a JSON array in the order of BASE_DIRS, e.g. ["handbook", "contracts"].',
    );
  }
  return names;
}
