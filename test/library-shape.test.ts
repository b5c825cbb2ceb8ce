import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PDF_OBJECTS_FIELDS, PDF_PAGE_FIELDS } from "../src/convert/pdf-images.ts";
import { COUNTED_TOKENIZER_FIELDS, MODEL_VOCAB_FIELDS, TOKENIZER_MODEL_FIELDS, UNIGRAM_FIELDS } from "../src/embed/tokenizer-fields.ts";
import { AppError } from "../src/errors.ts";
import { checkLibraryShape, pinnedVersion, shapeProblems, type LibraryShape } from "../src/library-shape.ts";
import { DISPATCHER_FIELDS } from "../src/ocr/dispatcher-fields.ts";
import { REPO_ROOT } from "./helpers.ts";

const SHAPES: Record<string, LibraryShape> = { UNIGRAM_FIELDS, TOKENIZER_MODEL_FIELDS, MODEL_VOCAB_FIELDS, COUNTED_TOKENIZER_FIELDS, PDF_PAGE_FIELDS, PDF_OBJECTS_FIELDS, DISPATCHER_FIELDS };

const shape: LibraryShape = { library: "@huggingface/tokenizers", checkedWith: "0.2.0", object: "its model", usedIn: "src/embed/example.ts", fields: { vocab: ["array"], tokens_to_ids: ["map"], tokenize: ["function"], eos_token: ["present"], normalizer: ["function", "null"] } };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("library shapes", () => {
  test("an object with every field in its kind passes; undefined counts as present", () => {
    const model = { vocab: [], tokens_to_ids: new Map(), tokenize: () => [], eos_token: undefined, normalizer: null };
    expect(shapeProblems(model, shape)).toEqual([]);
    expect(() => checkLibraryShape(model, shape)).not.toThrow();
  });

  test("a missing field and a field of another kind are each named", () => {
    expect(shapeProblems({ vocab: {}, tokenize: () => [], eos_token: "x", normalizer: "nfc" }, shape)).toEqual([
      "vocab (expected array, found object)",
      "tokens_to_ids (missing)",
      "normalizer (expected function or null, found string)",
    ]);
    expect(shapeProblems(undefined, shape)).toEqual(["the object itself (expected an object, found undefined)"]);
  });

  test("the guard throws LIBRARY_CHANGED naming the library, its pinned version, the fields and the file, with the fix", () => {
    let thrown: unknown;
    try {
      checkLibraryShape({ vocab: [], tokenize: () => [], eos_token: "x", normalizer: null }, shape);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect(error.code).toBe("LIBRARY_CHANGED");
    expect(error.message).toBe(`@huggingface/tokenizers ${pinnedVersion("@huggingface/tokenizers")} changed fields of its model that src/embed/example.ts uses beyond its documented API (written against 0.2.0): tokens_to_ids (missing).`);
    expect(error.hint).toContain("Pin @huggingface/tokenizers back to 0.2.0 in package.json");
  });

  test("every shape was checked against the version package.json pins: a bump fails here until its fields are looked at again", () => {
    const stale = Object.entries(SHAPES).filter(([, s]) => s.checkedWith !== pinnedVersion(s.library)).map(([name, s]) => `${name}: ${s.library} checked with ${s.checkedWith}, package.json pins ${pinnedVersion(s.library)}; read ${s.usedIn} against the new version, then set checkedWith`);
    expect(stale).toEqual([]);
  });

  test("every LibraryShape under src/ is in the list above, so none escapes the version check", () => {
    const declared = sourceFiles(join(REPO_ROOT, "src")).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/export const (\w+): LibraryShape\b/g)].map((m) => m[1]!));
    expect(declared.sort()).toEqual(Object.keys(SHAPES).sort());
  });
});
