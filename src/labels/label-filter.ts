/**
 * The label and date filters of query_documents and list_files: checked
 * against the taxonomy (an unknown facet or value, or a malformed date, is
 * refused with what is valid), then applied per document. Values of one
 * facet are alternatives; facets and dates combine. An uncertain label also
 * matches its runner-up.
 */
import { AppError } from "../errors.ts";
import type { DocumentLabels } from "./label-document.ts";
import type { TaxonomyState } from "./taxonomy-file.ts";
import type { Taxonomy } from "./taxonomy.ts";

export interface LabelFilterInput {
  labels?: Record<string, string | string[]>;
  dateFrom?: string;
  dateTo?: string;
}

export interface CheckedFilter {
  taxonomy: Taxonomy;
  facets: Map<string, Set<string>>;
  from?: string;
  to?: string;
}

/** How one document fares: it matches, is excluded for a reason of its own, or lacks a label or date the filter needs. */
export interface Verdict {
  match: boolean;
  unlabelled: boolean;
  undated: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when any label or date filter was given. */
export function filterGiven(input: LabelFilterInput): boolean {
  return (input.labels !== undefined && Object.keys(input.labels).length > 0) || input.dateFrom !== undefined || input.dateTo !== undefined;
}

/** True for a real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)).toISOString().slice(0, 10) === value;
}

function checkDate(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw new AppError("INVALID_ARGUMENT", `${name} must be a date written YYYY-MM-DD, got ${JSON.stringify(value)}`, `Pass a calendar date such as ${name}: "2026-08-05"; the range is inclusive.`);
  return value;
}

/** The filter checked against the taxonomy; null when none is set. */
export function checkFilter(state: TaxonomyState, input: LabelFilterInput): CheckedFilter | null {
  if (!filterGiven(input)) return null;
  if (state.state === "absent") {
    throw new AppError("INVALID_ARGUMENT", "Label and date filters need a taxonomy, and this corpus has none.", "Create .minirag/classify.toml in the first document root (see docs/labels.md), then sync.");
  }
  if (state.state === "error") throw new AppError("CONFIG", state.message, "Fix classify.toml; status shows the same error under labels.error.");
  const { taxonomy } = state;
  const facets = new Map<string, Set<string>>();
  for (const [facetId, wanted] of Object.entries(input.labels ?? {})) {
    const facet = taxonomy.facets.find((f) => f.id === facetId);
    if (!facet) {
      const known = taxonomy.facets.map((f) => `${f.id} (${f.values.map((v) => v.id).join(", ")})`).join("; ");
      throw new AppError("INVALID_ARGUMENT", `Unknown label facet "${facetId}". Facets and their values: ${known}.`, "Use one of these facet names; status lists each value with its description.");
    }
    const values = Array.isArray(wanted) ? wanted : [wanted];
    const ids = facet.values.map((v) => v.id);
    for (const value of values) {
      if (!ids.includes(value)) throw new AppError("INVALID_ARGUMENT", `Unknown value "${value}" for facet ${facetId}. Its values: ${ids.join(", ")}.`, "Pick one of these values; status describes each of them.");
    }
    if (values.length === 0) throw new AppError("INVALID_ARGUMENT", `labels.${facetId} names no value. Its values: ${ids.join(", ")}.`, "Give a value, or a list of values that are alternatives.");
    facets.set(facetId, new Set(values));
  }
  const from = checkDate("dateFrom", input.dateFrom);
  const to = checkDate("dateTo", input.dateTo);
  // Else the range holds no day and every filter answers nothing, which reads as "no such documents".
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError("INVALID_ARGUMENT", `dateFrom (${from}) is after dateTo (${to}), so no day is in the range.`, `Swap them: dateFrom ${to}, dateTo ${from}; both ends are included.`);
  }
  return { taxonomy, facets, from, to };
}

/** One document against the filter. `doc` is null for a document never labelled. */
export function judge(filter: CheckedFilter, doc: DocumentLabels | null): Verdict {
  let unlabelled = false;
  for (const [facetId, wanted] of filter.facets) {
    const label = doc?.labels[facetId];
    if (label) {
      if (wanted.has(label.value) || (label.uncertain && label.runnerUp !== null && wanted.has(label.runnerUp))) continue;
      return { match: false, unlabelled: false, undated: false };
    }
    // Absent on a document labelled under this taxonomy with no problem: the facet does not apply to it (within).
    if (doc && doc.hash === filter.taxonomy.hash && !(facetId in doc.problems)) return { match: false, unlabelled: false, undated: false };
    unlabelled = true;
  }
  let undated = false;
  if (filter.from !== undefined || filter.to !== undefined) {
    const date = doc?.date ?? null;
    if (date === null) undated = true;
    else if ((filter.from !== undefined && date < filter.from) || (filter.to !== undefined && date > filter.to)) return { match: false, unlabelled: false, undated: false };
  }
  return { match: !unlabelled && !undated, unlabelled, undated };
}
