/**
 * Guards for the places that reach past a library's documented API: the
 * fast Unigram path writes into @huggingface/tokenizers' model and
 * tokenizer, the fast count reads fields its types call private, OCR
 * imports tesseract.js's worker internals, and page images read pdf.js's
 * decoded-object stores. Each use names the fields it touches in a
 * LibraryShape and checks them at first use, so a dependency bump that
 * renames or drops one fails at once with the library, its version and the
 * field, instead of tokenizing with a one-token vocabulary or reading no
 * images. test/library-shape.test.ts also holds every shape's checkedWith to
 * the version package.json pins, so a bump fails a test until someone has
 * looked at these fields again.
 */
import pkg from "../package.json" with { type: "json" };
import { AppError } from "./errors.ts";

export type FieldKind = "function" | "array" | "map" | "object" | "number" | "string" | "boolean" | "null" | "present";

export interface LibraryShape {
  /** The package's name as package.json lists it. */
  library: string;
  /** The version these fields were read in and tested against (package.json pins it exactly). */
  checkedWith: string;
  /** The object, in words: "its Unigram model". */
  object: string;
  /** Each field read or written, with the kinds it may hold; "present": the library sets it, whatever it holds (undefined too). */
  fields: Record<string, FieldKind[]>;
  /** The file that uses these fields, for the hint. */
  usedIn: string;
}

/** The version of `library` that package.json pins, or "unknown". */
export function pinnedVersion(library: string): string {
  const pins: Record<string, string> = { ...pkg.devDependencies, ...pkg.dependencies };
  return pins[library] ?? "unknown";
}

function kindOf(value: unknown): FieldKind {
  if (value === null) return "null";
  if (typeof value === "function") return "function";
  if (Array.isArray(value)) return "array";
  if (value instanceof Map) return "map";
  if (typeof value === "object") return "object";
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return typeof value as FieldKind;
  return "present";
}

/** Each field of `shape` that `object` lacks or holds in another kind, as "name (expected, found)". */
export function shapeProblems(object: unknown, shape: LibraryShape): string[] {
  if (object === null || (typeof object !== "object" && typeof object !== "function")) return [`the object itself (expected an object, found ${object === null ? "null" : typeof object})`];
  const problems: string[] = [];
  for (const [field, kinds] of Object.entries(shape.fields)) {
    if (!(field in object)) {
      problems.push(`${field} (missing)`);
      continue;
    }
    if (kinds.includes("present")) continue;
    const found = kindOf((object as Record<string, unknown>)[field]);
    if (!kinds.includes(found)) problems.push(`${field} (expected ${kinds.join(" or ")}, found ${found === "present" ? typeof (object as Record<string, unknown>)[field] : found})`);
  }
  return problems;
}

/** Throws LIBRARY_CHANGED when `object` does not have the fields `shape` names. */
export function checkLibraryShape(object: unknown, shape: LibraryShape): void {
  const problems = shapeProblems(object, shape);
  if (problems.length === 0) return;
  throw new AppError(
    "LIBRARY_CHANGED",
    `${shape.library} ${pinnedVersion(shape.library)} changed fields of ${shape.object} that ${shape.usedIn} uses beyond its documented API (written against ${shape.checkedWith}): ${problems.join(", ")}.`,
    `Pin ${shape.library} back to ${shape.checkedWith} in package.json, or bring ${shape.usedIn} and its LibraryShape up to the new version (its differential tests say when the results match again).`,
  );
}
