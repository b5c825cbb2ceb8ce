/**
 * The label parts of query_documents: the filter as a SQL condition on
 * source (labels sit on chunk 0, so the kept documents are named), the
 * filter fields of the answer, and the label fields of each sources row.
 */
import type { Table } from "@lancedb/lancedb";
import { inScope } from "../scan/scope.ts";
import { sqlString } from "../store/chunk-row.ts";
import { applyLabelFilter, labelFields, labelsOn, readDocumentLabels, type DocumentLabelFields, type FilterCounts } from "./document-labels.ts";
import type { LabelFilterInput } from "./label-filter.ts";

export interface SearchLabelFilter {
  /** The condition that keeps the filter's documents; "FALSE" when it keeps none. */
  sql: string;
  /** True when the filter keeps no document: the search can answer at once. */
  empty: boolean;
  /** The documents it keeps, for a search that filters a wider window itself instead of sending a long IN list. */
  sources: Set<string>;
  fields: { filterCounts: FilterCounts; filterNotice?: string };
}

/** The label and date filter of a search, or null when none is set; throws the refusal for a bad one. */
export async function searchLabelFilter(table: Table | null, roots: string[], input: LabelFilterInput, scope: string[] | undefined): Promise<SearchLabelFilter | null> {
  const outcome = await applyLabelFilter(table, roots, input, (source) => inScope(source, scope));
  if (!outcome) return null;
  const fields = { filterCounts: outcome.filterCounts, ...(outcome.filterNotice && { filterNotice: outcome.filterNotice }) };
  const sources = [...outcome.matches];
  return { sql: sources.length ? `source IN (${sources.map(sqlString).join(", ")})` : "FALSE", empty: sources.length === 0, sources: outcome.matches, fields };
}

/** Both conditions (either may be absent). */
export function bothFilters(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return `(${a}) AND (${b})`;
}

/** Rows with their documents' labels and dates; the rows unchanged when the corpus has no classify.toml. */
export async function withLabelFields<T extends { source: string }>(table: Table | null, roots: string[], rows: T[]): Promise<(T & DocumentLabelFields)[]> {
  if (!labelsOn(roots) || rows.length === 0) return rows;
  const docs = await readDocumentLabels(table, [...new Set(rows.map((r) => r.source))]);
  return rows.map((r) => ({ ...r, ...labelFields(docs.get(r.source)) }));
}
