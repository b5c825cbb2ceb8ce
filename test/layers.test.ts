/**
 * The layer order of src/, lowest first (docs/development.md points here;
 * the order is kept only here). A module may import from its own folder or
 * from a lower layer; folders on one layer do not import each other. So read and search
 * share types through results.ts, and paths (scope, displayPath) live in scan/.
 * Below the folders, no files import each other in a circle, in src/ or in
 * scripts/ (which may import src/; src/ never imports scripts/).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describeCycles, findCycles, importGraph, importSpecifiers, sourceFiles } from "./import-graph.ts";

const LAYERS: string[][] = [
  ["errors.ts", "log.ts", "version.ts", "bounded-memo.ts", "protobuf-fields.ts", "clock.ts", "latest-save.ts", "path-inside.ts", "slices.ts"],
  // The writer uses the reader's wire-type constants; a library's shape check throws an AppError.
  ["protobuf-writer.ts", "library-shape.ts", "cache-file.ts"],
  // Pure text helpers: line-level Markdown, the one-pass summary, word characters, normalisation.
  ["text"],
  ["config"],
  ["native"],
  ["download"],
  ["store", "embed", "url", "ocr"],
  // The pipeline's stages in its order, so a later stage may take an earlier one's types, never the reverse.
  ["scan"],
  ["convert"],
  ["title"],
  ["chunk"],
  ["mentions", "lookalikes", "labels"],
  ["results.ts"],
  ["app.ts"],
  ["ingest"],
  ["read", "search", "sync"],
  ["watch"],
  ["status.ts"],
  ["mcp", "cli"],
  ["main.ts"],
];

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const SCRIPTS = join(ROOT, "scripts");

/** The top-level entry under src/ a path belongs to: "search" for src/search/fusion.ts, "app.ts" for src/app.ts. */
function unitOf(path: string): string {
  return relative(SRC, path).split("/")[0]!;
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.includes(unit));
}

/** Imports that point up the order or sideways across a layer, as "file -> target" lines. */
export function violations(file: string, code: string): string[] {
  const from = unitOf(file);
  const bad: string[] = [];
  for (const spec of importSpecifiers(code)) {
    if (!spec.startsWith(".")) continue;
    const target = resolve(dirname(file), spec);
    if (target.startsWith(`${SCRIPTS}/`)) bad.push(`${relative(SRC, file)} -> ${relative(ROOT, target)} (src/ never imports scripts/)`);
    if (!target.startsWith(`${SRC}/`)) continue; // package.json and the like sit outside the layers
    const to = unitOf(target);
    if (to === from) continue;
    if (layerOf(to) >= layerOf(from)) bad.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
  }
  return bad;
}

describe("layer order of src/", () => {
  const files = sourceFiles(SRC);

  test("every top-level file and folder under src/ has a place in the order", () => {
    const units = [...new Set(files.map(unitOf))];
    expect(units.filter((unit) => layerOf(unit) === -1)).toEqual([]);
  });

  test("no import under src/ points up the order or across a layer", () => {
    const bad = files.flatMap((file) => violations(file, readFileSync(file, "utf8")));
    expect(bad).toEqual([]);
  });

  test("the scanner sees every kind of import, so a wrong one cannot slip past", () => {
    const code = [
      'import type { App } from "../app.ts";',
      'import { x,\n  y } from "../read/read-source.ts";',
      'export * from "../mcp/server.ts";',
      'import "../cli/run-cli.ts";',
      'const m = await import("../main.ts");',
    ].join("\n");
    const file = join(SRC, "store/example.ts");
    expect(violations(file, code)).toEqual([
      "store/example.ts -> app.ts",
      "store/example.ts -> read/read-source.ts",
      "store/example.ts -> mcp/server.ts",
      "store/example.ts -> cli/run-cli.ts",
      "store/example.ts -> main.ts",
    ]);
  });

  test("folders on one layer may not import each other, and a folder may import itself", () => {
    expect(violations(join(SRC, "search/query-documents.ts"), 'import { readSource } from "../read/read-source.ts";')).toEqual(["search/query-documents.ts -> read/read-source.ts"]);
    expect(violations(join(SRC, "search/query-documents.ts"), 'import { fuse } from "./fusion.ts";')).toEqual([]);
  });

  test("the real tree has imports for the scanner to check", () => {
    const crossing = files.flatMap((file) => importSpecifiers(readFileSync(file, "utf8")).filter((spec) => spec.startsWith("../")));
    expect(crossing.length).toBeGreaterThan(50);
  });
});

describe("no import circle", () => {
  test("no files under src/ import each other in a circle, inside one folder or across folders, type imports included", () => {
    expect(describeCycles(findCycles(importGraph(sourceFiles(SRC))), ROOT)).toEqual([]);
  });

  test("no files under scripts/ import each other in a circle", () => {
    // src/ is in the graph too, so a circle that passes through it shows; circles of src/ alone are the test above's.
    const cycles = findCycles(importGraph([...sourceFiles(SCRIPTS), ...sourceFiles(SRC)])).filter((cycle) => cycle.some((file) => file.startsWith(`${SCRIPTS}/`)));
    expect(describeCycles(cycles, ROOT)).toEqual([]);
  });

  test("src/ never imports scripts/", () => {
    expect(violations(join(SRC, "store/example.ts"), 'import { x } from "../../scripts/bench/report.ts";')).toEqual(["store/example.ts -> scripts/bench/report.ts (src/ never imports scripts/)"]);
  });

  test("the finder finds a circle of type imports inside one folder, and a file importing itself, and names the files in order", () => {
    const texts: Record<string, string> = {
      "/t/a.ts": 'import type { B } from "./b.ts";\nimport { z } from "./z.ts";',
      "/t/b.ts": 'import { c } from "./c.ts";',
      "/t/c.ts": 'export type { A } from "./a.ts";',
      "/t/z.ts": 'import "node:fs";',
      "/t/self.ts": 'const again = await import("./self.ts");',
    };
    const cycles = findCycles(importGraph(Object.keys(texts), (file) => texts[file]!));
    expect(cycles).toEqual([
      ["/t/a.ts", "/t/b.ts", "/t/c.ts", "/t/a.ts"],
      ["/t/self.ts", "/t/self.ts"],
    ]);
    expect(describeCycles(cycles, "/t")[0]).toStartWith("import circle: a.ts -> b.ts -> c.ts -> a.ts. Move what the files take from each other");
  });

  test("the finder passes a graph whose imports run one way", () => {
    const texts: Record<string, string> = { "/t/top.ts": 'import { a } from "./a.ts";\nimport { b } from "./b.ts";', "/t/a.ts": 'import { b } from "./b.ts";', "/t/b.ts": "" };
    expect(findCycles(importGraph(Object.keys(texts), (file) => texts[file]!))).toEqual([]);
  });

  test("the real trees have edges inside their folders for the finder to follow", () => {
    const edges = (files: string[]) => [...importGraph(files).entries()].filter(([from, to]) => to.some((target) => dirname(target) === dirname(from))).length;
    expect(edges(sourceFiles(SRC))).toBeGreaterThan(100);
    expect(edges(sourceFiles(SCRIPTS))).toBeGreaterThan(20);
  });
});
