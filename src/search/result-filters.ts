/** The post-fusion filters, in their fixed order: max distance, grouping, max files, top K. */
import { groupByDistance } from "./grouping.ts";

export interface FilterSettings {
  maxDistance?: number;
  grouping?: "similar" | "related";
  maxFiles?: number;
  topK: number;
}

export function applyResultFilters<T extends { distance: number | null; source: string }>(results: T[], settings: FilterSettings): T[] {
  let out = results;
  // A bound on distance cannot be shown to hold for a hit that has none.
  if (settings.maxDistance !== undefined) out = out.filter((r) => r.distance !== null && r.distance <= settings.maxDistance!);
  if (settings.grouping) out = groupByDistance(out, settings.grouping);
  if (settings.maxFiles !== undefined) {
    const kept = new Set<string>();
    out = out.filter((r) => {
      if (kept.has(r.source)) return true;
      if (kept.size >= settings.maxFiles!) return false;
      kept.add(r.source);
      return true;
    });
  }
  return out.slice(0, settings.topK);
}
