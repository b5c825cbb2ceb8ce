/** Document labels to and from the chunk-0 columns (store/label-rows.ts). */
import { NO_LABELS, type LabelColumns } from "../store/label-rows.ts";
import type { DateSource, DocumentLabels } from "./label-document.ts";

export function encodeLabels(labels: DocumentLabels | null): LabelColumns {
  if (!labels) return NO_LABELS;
  return {
    labels: JSON.stringify({ labels: labels.labels, problems: labels.problems }),
    label_hash: labels.hash,
    doc_date: labels.date,
    date_source: labels.dateSource,
  };
}

/** The stored labels, or null for a document never labelled (or with columns this version cannot read). */
export function decodeLabels(columns: LabelColumns): DocumentLabels | null {
  const date = columns.doc_date;
  const dateSource = columns.date_source as DateSource | null;
  if (columns.labels === null || columns.label_hash === null) return date ? { hash: "", labels: {}, problems: {}, date, dateSource } : null;
  try {
    const parsed = JSON.parse(columns.labels) as Pick<DocumentLabels, "labels" | "problems">;
    return { hash: columns.label_hash, labels: parsed.labels ?? {}, problems: parsed.problems ?? {}, date: date ?? null, dateSource: date ? dateSource : null };
  } catch {
    return null;
  }
}
