/**
 * RAG_GROUPING: cut the results at a natural relevance boundary, a gap
 * between consecutive distances (sorted ascending) larger than twice the mean
 * gap. `similar` keeps the first group, `related` the first two. Hits without
 * a distance are kept, and the fused order is preserved.
 */
export const GAP_FACTOR = 2;

export function groupByDistance<T extends { distance: number | null }>(results: T[], mode: "similar" | "related"): T[] {
  const distances = results.map((r) => r.distance).filter((d): d is number => d !== null).sort((a, b) => a - b);
  if (distances.length < 3) return results;
  const gaps = distances.slice(1).map((d, i) => d - distances[i]!);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  if (mean === 0) return results;
  const boundaries = gaps.map((g, i) => (g > GAP_FACTOR * mean ? i : -1)).filter((i) => i >= 0);
  const cutAt = mode === "similar" ? boundaries[0] : boundaries[1];
  if (cutAt === undefined) return results;
  const limit = distances[cutAt]!;
  return results.filter((r) => r.distance === null || r.distance <= limit);
}
