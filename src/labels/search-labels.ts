/**
 * The label parts of query_documents: the filter as the documents it keeps
 * (labels sit on chunk 0, so the search is narrowed to those sources), the
 * filter fields of the answer, and the label fields of each sources row.
 */
import { inScope } from "../scan/scope.ts";
import type { ChunkStore } from "../store/chunk-store.ts";
import { applyLabelFilter, labelFields, labelsOn, readDocumentLabels, type DocumentLabelFields, type FilterCounts } from "./document-labels.ts";
import type { LabelFilterInput } from "./label-filter.ts";
import type { TaxonomyFile } from "./taxonomy-file.ts";

export interface SearchLabelFilter {
  /** True when the filter keeps no document: the search can answer at once. */
  empty: boolean;
  /** The documents it keeps: a search narrows to them (RowFilter.sources), or filters a wider window itself instead of sending a long IN list. */
  sources: Set<string>;
  fields: { filterCounts: FilterCounts; filterNotice?: string };
}

/** The label and date filter of a search, or null when none is set; throws the refusal for a bad one. */
export async function searchLabelFilter(store: ChunkStore | null, taxonomy: TaxonomyFile, input: LabelFilterInput, scope: string[] | undefined): Promise<SearchLabelFilter | null> {
  const outcome = await applyLabelFilter(store, taxonomy, input, (source) => inScope(source, scope));
  if (!outcome) return null;
  const fields = { filterCounts: outcome.filterCounts, ...(outcome.filterNotice && { filterNotice: outcome.filterNotice }) };
  return { empty: outcome.matches.size === 0, sources: outcome.matches, fields };
}

/** Rows with their documents' labels and dates; the rows unchanged when the corpus has no classify.toml. */
export async function withLabelFields<T extends { source: string }>(store: ChunkStore | null, taxonomy: TaxonomyFile, rows: T[]): Promise<(T & DocumentLabelFields)[]> {
  if (!labelsOn(taxonomy) || rows.length === 0) return rows;
  const docs = await readDocumentLabels(store, [...new Set(rows.map((r) => r.source))]);
  return rows.map((r) => ({ ...r, ...labelFields(docs.get(r.source)) }));
}
