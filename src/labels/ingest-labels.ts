/**
 * Labels for documents about to be stored: every ingest path (sync, the
 * ingest tools and commands) calls this on its batch before the commit, so
 * labels land in the same commit as the chunks. Without classify.toml it
 * costs one stat and changes nothing.
 */
import { joinDocument, type JoinChunk } from "../chunk/join-parent.ts";
import { NO_LABELS, type LabelColumns } from "../store/label-rows.ts";
import { encodeLabels } from "./label-codec.ts";
import { labelProblem } from "./label-document.ts";
import { labellerFor, type LabelContext, type LabelOwner } from "./labeller.ts";

export interface DocumentToLabel {
  source: string;
  sourceType: "file" | "data" | "url";
  mtime: number;
  chunks: { text: string; parentIndex: number; contextLines: number }[];
}

export interface IngestLabels {
  columns: LabelColumns;
  /** What the document was stored without, and why; absent when nothing is missing. */
  problem?: string;
}

/** The document as stored, rebuilt from its chunks: what labelling reads, at ingest and when sync re-labels. */
export function storedText(chunks: JoinChunk[]): string {
  return joinDocument(chunks);
}

/** Labels each document of a batch; a document whose labelling failed outright is stored unlabelled with the reason. */
export async function labelsForIngest(owner: LabelOwner, ctx: LabelContext, docs: DocumentToLabel[]): Promise<Map<string, IngestLabels>> {
  const out = new Map<string, IngestLabels>();
  const labeller = labellerFor(owner, ctx);
  if (labeller.taxonomy().state === "absent") return out;
  for (const doc of docs) {
    const text = storedText(doc.chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })));
    const { labels, problem } = await labeller.label({ source: doc.source, sourceType: doc.sourceType, text, mtimeMs: doc.mtime });
    const missing = problem ?? (labels ? labelProblem(labels) : undefined);
    out.set(doc.source, { columns: labels ? encodeLabels(labels) : NO_LABELS, ...(missing && { problem: missing }) });
  }
  labeller.releaseWhenIdle();
  return out;
}

/** The labelProblem field of an ingest result: present only when something is missing. */
export function labelProblemField(labels: IngestLabels | undefined): { labelProblem?: string } {
  return labels?.problem ? { labelProblem: labels.problem } : {};
}

/** The label columns of one chunk row: the document's on chunk 0, nulls elsewhere. */
export function labelColumnsFor(labels: IngestLabels | undefined, chunkIndex: number): LabelColumns {
  return chunkIndex === 0 && labels ? labels.columns : NO_LABELS;
}
