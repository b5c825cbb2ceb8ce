/**
 * The import graph of a tree of TypeScript files, read as text, and the
 * circles in it. test/layers.test.ts holds src/ and scripts/ to "no circle":
 * a circle of files, even of type-only imports, means a contract sits in the
 * wrong file, and the layer order (which compares folders) cannot see one
 * inside a folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Every module a source text names: static imports, re-exports, type imports and import() calls. */
export function importSpecifiers(code: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g]) {
    for (const match of code.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** Every .ts file under `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** File -> the files of the same set it imports (relative specifiers only; packages and files outside the set draw no edge). */
export type ImportGraph = Map<string, string[]>;

/** The graph of `files`, each read with `read` (the disk unless a test gives texts). */
export function importGraph(files: string[], read: (file: string) => string = (file) => readFileSync(file, "utf8")): ImportGraph {
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = importSpecifiers(read(file))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Each circle of the graph as one path that closes on itself ([a, b, a]),
 * one per strongly connected set of files (Tarjan), started at its first file
 * in sorted order so the report does not change from run to run.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const set: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      set.push(member);
    } while (member !== node);
    if (set.length > 1 || (graph.get(node) ?? []).includes(node)) sets.push(set.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return sets.map((set) => loopThrough(graph, set)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The shortest path from the set's first file back to itself, inside the set (breadth first). */
function loopThrough(graph: ImportGraph, set: string[]): string[] {
  const start = set[0]!;
  const inSet = new Set(set);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (inSet.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  throw new Error(`no loop through ${start}: not a strongly connected set`);
}

/** One failure line per circle: its files, and the mend. */
export function describeCycles(cycles: string[][], root: string): string[] {
  return cycles.map(
    (cycle) =>
      `import circle: ${cycle.map((file) => relative(root, file)).join(" -> ")}. ` +
      "Move what the files take from each other (often a type) into the lower one, or into a small file both import, so the imports run one way.",
  );
}
