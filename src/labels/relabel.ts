/**
 * Sync's re-labelling: documents whose labels were resolved under another
 * taxonomy (or none), documents a model problem left without a label, and
 * moved files (whose new folder's path rules may say otherwise) are labelled
 * again from their stored chunks. Nothing is re-read from disk or embedded.
 * Each batch is one commit, written by the chunk-0 row id, so a document
 * re-ingested meanwhile keeps its own fresh labels.
 */
import type { ChunkStore, LabelRow } from "../store/chunk-store.ts";
import { inScope } from "../scan/scope.ts";
import { storedText } from "./ingest-labels.ts";
import { decodeLabels, encodeLabels } from "./label-codec.ts";
import { labelProblem } from "./label-document.ts";
import { labellerFor, type LabelContext, type LabelOwner } from "./labeller.ts";

/** Documents per read and commit. */
const BATCH = 50;

export interface RelabelReport {
  /** Documents whose stored labels or date changed. */
  relabelled: number;
  /** Documents labelled without some model label (or not at all), with why. */
  problems: { source: string; problem: string }[];
}

function stale(row: LabelRow, hash: string, moved: Set<string>): boolean {
  if (moved.has(row.source)) return true;
  const doc = decodeLabels(row);
  return !doc || doc.hash !== hash || Object.keys(doc.problems).length > 0;
}

/** Stale only because the label model could not answer it: labelled under this taxonomy, not moved. */
function waitsForModel(row: LabelRow, hash: string, moved: Set<string>): boolean {
  const doc = decodeLabels(row);
  return !moved.has(row.source) && doc !== null && doc.hash === hash && Object.keys(doc.problems).length > 0;
}

/**
 * Re-labels what needs it under `scope`. `moved` names the new paths of files
 * this sync moved; `labelled` the documents it just ingested (and labelled),
 * which are not asked twice.
 */
export async function relabelStored(owner: LabelOwner, ctx: LabelContext, store: ChunkStore, options: { moved?: string[]; scope?: string[]; labelled?: string[] } = {}): Promise<RelabelReport> {
  const report: RelabelReport = { relabelled: 0, problems: [] };
  const labeller = labellerFor(owner, ctx);
  const state = labeller.taxonomy();
  if (state.state === "absent" || !(await store.hasTable())) return report;
  if (state.state === "error") {
    report.problems.push({ source: state.file, problem: `labels not updated: ${state.message}` });
    return report;
  }
  const moved = new Set(options.moved ?? []);
  const fresh = new Set(options.labelled ?? []);
  let todo = (await store.labelRows()).filter((r) => inScope(r.source, options.scope) && !fresh.has(r.source) && stale(r, state.taxonomy.hash, moved));
  // Documents waiting only for the model are asked again only if it loads now: otherwise reading their text gives nothing.
  const waiting = todo.filter((r) => waitsForModel(r, state.taxonomy.hash, moved));
  if (waiting.length > 0) {
    const problem = await labeller.modelProblem();
    if (problem) {
      for (const row of waiting) report.problems.push({ source: row.source, problem: labelProblem(decodeLabels(row)!) ?? problem });
      const skipped = new Set(waiting.map((r) => r.source));
      todo = todo.filter((r) => !skipped.has(r.source));
    }
  }
  for (let i = 0; i < todo.length; i += BATCH) {
    const batch = todo.slice(i, i + BATCH);
    const chunks = Map.groupBy(await store.mentionRows(batch.map((r) => r.source)), (c) => c.source);
    const updates = [];
    for (const row of batch) {
      const text = storedText((chunks.get(row.source) ?? []).sort((a, b) => a.chunkIndex - b.chunkIndex));
      const sourceType = row.sourceType === "file" || row.sourceType === "url" ? row.sourceType : "data";
      const { labels, problem } = await labeller.label({ source: row.source, sourceType, text, mtimeMs: row.mtime });
      const missing = problem ?? (labels ? labelProblem(labels) : undefined);
      if (missing) report.problems.push({ source: row.source, problem: missing });
      const columns = encodeLabels(labels);
      const same = columns.labels === row.labels && columns.label_hash === row.label_hash && columns.doc_date === row.doc_date && columns.date_source === row.date_source;
      if (!same) updates.push({ id: row.id, ...columns });
    }
    report.relabelled += await store.writeLabels(updates);
  }
  return report;
}

/**
 * Labelling problems as sync errors, one per reason rather than one per
 * document: they never fail the sync or count as failed files.
 */
export function labelErrors(problems: { source: string; problem: string }[], file: string | null): { source: string; error: string }[] {
  const byReason = Map.groupBy(problems, (p) => p.problem);
  return [...byReason].map(([problem, docs]) => ({
    source: docs.length === 1 ? docs[0]!.source : (file ?? docs[0]!.source),
    error: docs.length === 1 ? problem : `${docs.length} documents: ${problem}`,
  }));
}
