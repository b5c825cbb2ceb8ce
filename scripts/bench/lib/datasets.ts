/** The shared corpus's retrieval sets: docs/*.md, queries.jsonl and qrels.tsv (query, doc file, relevance). */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Judgments } from "./ir-metrics.ts";

export const CORPUS = resolve(import.meta.dir, "../../../../shared/corpus");

export interface RetrievalSet {
  name: string;
  docsDir: string;
  docs: string[];
  queries: { id: string; text: string }[];
  qrels: Map<string, Judgments>;
}

export function loadSet(name: string): RetrievalSet {
  const dir = join(CORPUS, name);
  const queries = readFileSync(join(dir, "queries.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; text: string });
  const qrels = new Map<string, Judgments>();
  for (const line of readFileSync(join(dir, "qrels.tsv"), "utf8").split("\n").slice(1)) {
    const [query, doc, rel] = line.split("\t");
    if (!query || !doc) continue;
    const judgments = qrels.get(query) ?? new Map<string, number>();
    judgments.set(join(dir, doc), Number(rel));
    qrels.set(query, judgments);
  }
  const docsDir = join(dir, "docs");
  return { name, docsDir, docs: readdirSync(docsDir).sort().map((f) => join(docsDir, f)), queries: queries.filter((q) => qrels.has(q.id)), qrels };
}
