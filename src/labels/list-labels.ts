/**
 * The label parts of list_files: each indexed file's labels and date, the
 * label and date filter (files not indexed have no labels and drop out of a
 * filtered listing), and sort "date": newest first, undated last.
 */
import type { ChunkStore } from "../store/chunk-store.ts";
import { AppError } from "../errors.ts";
import { inScope } from "../scan/scope.ts";
import { applyLabelFilter, labelFields, labelsOn, readDocumentLabels, type DocumentLabelFields, type FilterCounts } from "./document-labels.ts";
import type { LabelFilterInput } from "./label-filter.ts";
import type { TaxonomyFile } from "./taxonomy-file.ts";

export interface ListLabelInput extends LabelFilterInput {
  sort?: "date";
}

export interface LabelledListing<T> {
  files: (T & DocumentLabelFields)[];
  filterCounts?: FilterCounts;
  filterNotice?: string;
}

/** The listing with label fields, filtered and sorted as asked; unchanged without a classify.toml and without label arguments. */
export async function labelListing<T extends { source: string }>(store: ChunkStore | null, taxonomy: TaxonomyFile, files: T[], input: ListLabelInput, scope: string[] | undefined): Promise<LabelledListing<T>> {
  const outcome = await applyLabelFilter(store, taxonomy, input, (source) => inScope(source, scope));
  if (!labelsOn(taxonomy)) {
    if (input.sort === "date") throw new AppError("INVALID_ARGUMENT", "sort: \"date\" needs document dates, and this corpus has no classify.toml.", "Create .minirag/classify.toml in the first document root (see docs/labels.md), then sync.");
    return { files };
  }
  const docs = await readDocumentLabels(store);
  let rows = files.map((f) => (docs.has(f.source) ? { ...f, ...labelFields(docs.get(f.source)) } : f)) as (T & DocumentLabelFields)[];
  if (outcome) rows = rows.filter((r) => outcome.matches.has(r.source));
  if (input.sort === "date") {
    const key = (r: DocumentLabelFields) => r.date ?? "";
    rows = rows.map((r, i) => ({ r, i })).sort((a, b) => (key(a.r) === key(b.r) ? a.i - b.i : key(a.r) < key(b.r) ? 1 : -1)).map(({ r }) => r);
  }
  if (!outcome) return { files: rows };
  return { files: rows, filterCounts: outcome.filterCounts, ...(outcome.filterNotice && { filterNotice: outcome.filterNotice }) };
}
