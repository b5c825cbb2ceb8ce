/** What the executable's JavaScript carries, from a bundle made as scripts/build.ts makes it (without compiling). */
import { beforeAll, describe, expect, test } from "bun:test";
import { bundledInputs } from "../../scripts/release/app-bundle.ts";

let files: string[] = [];

beforeAll(async () => {
  files = [...(await bundledInputs()).keys()];
}, 120_000);

// Sorted: the bundler lists its inputs in the order its parallel reads finish, which varies from run to run.
const carried = (prefix: string) => files.filter((f) => f.startsWith(prefix)).sort();

describe("the binary's JavaScript", () => {
  test("holds pdfjs-dist's full build behind unpdf's API, not unpdf's own pdf.js too", () => {
    expect(carried("node_modules/pdfjs-dist/legacy/build/")).toEqual(["node_modules/pdfjs-dist/legacy/build/pdf.mjs", "node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs"]);
    expect(carried("node_modules/unpdf/")).toEqual(["node_modules/unpdf/dist/index.mjs"]);
  });

  test("holds one DOM, linkedom: turndown without domino", () => {
    expect(carried("node_modules/linkedom/").length).toBeGreaterThan(10);
    expect(carried("node_modules/turndown/")).toEqual(["node_modules/turndown/lib/turndown.browser.es.js"]);
    expect(carried("node_modules/@mixmark-io/domino/")).toEqual([]);
  });

  test("holds no llama.cpp binding: the label model is an add-on", () => {
    expect(carried("node_modules/node-llama-cpp/")).toEqual([]);
    expect(carried("node_modules/@node-llama-cpp/")).toEqual([]);
  });
});
