/** Retrieval metrics over a ranked list of document ids and graded relevance judgments. */
export type Judgments = Map<string, number>;

export function ndcgAt(ranked: string[], relevant: Judgments, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, doc, i) => sum + ((2 ** (relevant.get(doc) ?? 0) - 1) / Math.log2(i + 2)), 0);
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, k).reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

export function recallAt(ranked: string[], relevant: Judgments, k: number): number {
  const wanted = [...relevant.entries()].filter(([, r]) => r > 0).map(([d]) => d);
  if (wanted.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return wanted.filter((d) => top.has(d)).length / wanted.length;
}

export function mrrAt(ranked: string[], relevant: Judgments, k: number): number {
  const i = ranked.slice(0, k).findIndex((d) => (relevant.get(d) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Chunk hits -> documents in order of their best hit. */
export function rankDocuments(sources: string[]): string[] {
  return [...new Set(sources)];
}
