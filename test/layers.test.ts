/**
 * The layer order of src/, lowest first (docs/development.md points here;
 * the order is kept only here). A module may import from its own folder or
 * from a lower layer; folders on one layer do not import each other. So read and search
 * share types through results.ts, and paths (scope, displayPath) live in scan/.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const LAYERS: string[][] = [
  ["errors.ts", "log.ts", "version.ts", "bounded-memo.ts", "protobuf-fields.ts", "clock.ts", "library-shape.ts"],
  // The writer uses the reader's wire-type constants.
  ["protobuf-writer.ts"],
  ["config"],
  ["native"],
  ["download"],
  ["store", "embed", "url", "ocr"],
  ["chunk"],
  ["convert", "title"],
  ["scan"],
  ["mentions"],
  ["lookalikes"],
  ["labels"],
  ["results.ts"],
  ["app.ts"],
  ["ingest"],
  ["read", "search", "sync"],
  ["watch"],
  ["status.ts"],
  ["mcp", "cli"],
  ["main.ts"],
];

const SRC = resolve(import.meta.dir, "../src");

/** Every module a source text names: static imports, re-exports, type imports and import() calls. */
export function importSpecifiers(code: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g]) {
    for (const match of code.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

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
    if (!target.startsWith(`${SRC}/`)) continue; // package.json and the like sit outside the layers
    const to = unitOf(target);
    if (to === from) continue;
    if (layerOf(to) >= layerOf(from)) bad.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
  }
  return bad;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
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
