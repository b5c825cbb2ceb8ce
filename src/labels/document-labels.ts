/**
 * What query_documents and list_files add with a classify.toml: each row's
 * labels and date, the documents a label or date filter keeps, and the
 * counts of those it left out only for want of a label or a date.
 */
import type { ChunkStore } from "../store/chunk-store.ts";
import { decodeLabels } from "./label-codec.ts";
import type { DateSource, DocumentLabels } from "./label-document.ts";
import { checkFilter, judge, type LabelFilterInput } from "./label-filter.ts";
import type { Label } from "./resolve-facet.ts";
import { modelState } from "./model-state.ts";
import type { TaxonomyFile } from "./taxonomy-file.ts";
import { facetUsesModel } from "./taxonomy.ts";

/** The fields a result row gains: present only when the corpus has a classify.toml. */
export interface DocumentLabelFields {
  labels?: Record<string, Label>;
  date?: string | null;
  dateSource?: DateSource | null;
}

export interface FilterCounts {
  /** Documents in scope left out only because a filtered facet has no label for them (not labelled yet, or the model is unavailable). */
  unlabelled: number;
  /** Documents in scope left out only because they have no date. */
  undated: number;
}

export interface FilterOutcome {
  /** Sources the filter keeps. */
  matches: Set<string>;
  filterCounts: FilterCounts;
  filterNotice?: string;
}

/** True when the corpus has a taxonomy file (readable or not): rows then carry label fields. */
export function labelsOn(taxonomy: TaxonomyFile): boolean {
  return taxonomy.load().state !== "absent";
}

/** Every indexed document's stored labels (null: never labelled). */
export async function readDocumentLabels(store: ChunkStore | null, sources?: string[]): Promise<Map<string, DocumentLabels | null>> {
  const out = new Map<string, DocumentLabels | null>();
  if (!store) return out;
  for (const row of await store.labelRows(sources)) out.set(row.source, decodeLabels(row));
  return out;
}

/** A row's label fields, rounded for reading. */
export function labelFields(doc: DocumentLabels | null | undefined): DocumentLabelFields {
  const labels: Record<string, Label> = {};
  for (const [facet, label] of Object.entries(doc?.labels ?? {})) labels[facet] = { ...label, confidence: Math.round(label.confidence * 1000) / 1000 };
  return { labels, date: doc?.date ?? null, dateSource: doc?.dateSource ?? null };
}

/**
 * Applies a label and date filter to the indexed documents `inScope` admits;
 * null when no filter is set. Throws the refusal for a bad filter or an
 * unreadable classify.toml.
 */
export async function applyLabelFilter(store: ChunkStore | null, taxonomy: TaxonomyFile, input: LabelFilterInput, inScope: (source: string) => boolean): Promise<FilterOutcome | null> {
  const filter = checkFilter(taxonomy.load(), input);
  if (!filter) return null;
  const outcome: FilterOutcome = { matches: new Set(), filterCounts: { unlabelled: 0, undated: 0 } };
  for (const [source, doc] of await readDocumentLabels(store)) {
    if (!inScope(source)) continue;
    const verdict = judge(filter, doc);
    if (verdict.match) outcome.matches.add(source);
    if (verdict.unlabelled) outcome.filterCounts.unlabelled++;
    if (verdict.undated) outcome.filterCounts.undated++;
  }
  const model = filter.taxonomy.model;
  const asking = filter.taxonomy.facets.filter((f) => filter.facets.has(f.id) && facetUsesModel(f)).map((f) => f.id);
  if (model && asking.length) {
    const state = modelState(model);
    if (state.model === "unavailable") {
      outcome.filterNotice = `The label model is unavailable (${state.modelHint}), so ${asking.join(", ")} may be missing on documents it should have labelled; filterCounts.unlabelled counts those left out.`;
    }
  }
  return outcome;
}
