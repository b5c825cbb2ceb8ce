/** Reading back from the index: whole documents, neighbouring chunks, and deletion. */
import { existsSync, statSync } from "node:fs";
import type { App } from "../app.ts";
import { EXACT_SCHEME, joinDocument } from "../chunk/join-parent.ts";
import { ownText } from "../chunk/own-text.ts";
import { AppError } from "../errors.ts";
import { diskPath } from "../native/file-names.ts";
import type { FailedFile } from "../store/chunk-store.ts";
import { toChunkResult, type ChunkResult } from "../results.ts";

/**
 * Why a source has no chunks to read. A file that failed to convert is not
 * tried again by sync until it changes, so "ingest it first, run sync" sent
 * the reader round in a circle (found by a new-user probe): its failure is
 * named instead.
 */
async function notIndexed(app: App, source: string): Promise<AppError> {
  const failed = (await app.store.failures.all().catch(() => new Map<string, FailedFile>())).get(source);
  if (failed) {
    return new AppError(
      "SOURCE_NOT_FOUND",
      `${source} is not in the index: it failed to convert (${failed.error.split("\n")[0]}).`,
      "Sync does not try it again until the file changes: fix or replace it, or run ingest_file (minirag-mcp ingest) on it to try again now.",
    );
  }
  return new AppError("SOURCE_NOT_FOUND", `Source not found in index: ${source} — ingest it first`, "Run sync (or ingest_file / ingest_data) and try again; list shows what is indexed.");
}

/** For a file path, the disk errors come first: a missing file and a folder read differently from "not indexed". */
export function checkFileSource(source: string): void {
  if (!source.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(source)) return;
  if (!existsSync(diskPath(source))) throw new AppError("PATH_NOT_FOUND", `File does not exist: ${source}`, "Check the path, or use --source for data and url sources.");
  if (!statSync(diskPath(source)).isFile()) throw new AppError("NOT_A_FILE", `Not a file: ${source}`, "Pass a file path.");
}

export interface ReadFileResult {
  source: string;
  sourceType: string;
  title: string;
  chunkCount: number;
  text: string;
  /** Set while data files of the index are lost: the document is read from the rest of it. */
  notice?: string;
}

/**
 * The most chunks read_file returns whole (about 5 MB of text). Reading a
 * 374k-chunk document back whole took 1.7 GB, and no context window holds
 * even this much; past it the reader is told how to read in parts.
 */
export const READ_FILE_MAX_CHUNKS = 10_000;

function tooLargeToRead(source: string, chunks: number): AppError {
  return new AppError(
    "FILE_TOO_LARGE",
    `${source} has ${chunks} chunks; read_file returns documents of up to ${READ_FILE_MAX_CHUNKS} chunks whole.`,
    `Read it in parts with read_chunk_neighbors (chunkIndex 50, before 50, after 50 returns chunks 0-100; then chunkIndex 151, and so on up to ${chunks - 1}), or find the parts you need with query_documents. In the CLI: read-neighbors --chunk-index 50 --before 50 --after 50.`,
  );
}

export async function readSource(app: App, source: string): Promise<ReadFileResult> {
  const count = await app.store.countRows({ sources: [source] });
  if (count > READ_FILE_MAX_CHUNKS) throw tooLargeToRead(source, count);
  const chunks = count === 0 ? [] : await app.store.sourceChunks(source);
  if (chunks.length === 0) throw await notIndexed(app, source);
  const notice = await app.store.damageNotice();
  return {
    source,
    sourceType: chunks[0]!.source_type,
    title: chunks[0]!.title,
    chunkCount: chunks.length,
    text: joinDocument(chunks.map((c) => ({ text: c.text, parentId: c.parent_id, contextLines: c.context_lines, scheme: c.scheme }))),
    ...(notice && { notice }),
  };
}

/** The most chunks read_chunk_neighbors and read-neighbors return on each side; read_file is there for a whole document. */
export const NEIGHBOR_CAP = 50;

export interface NeighborsResult {
  chunks: ChunkResult[];
  /** Set when before or after was over NEIGHBOR_CAP, and while data files of the index are lost. */
  notice?: string;
}

export async function readNeighbors(app: App, source: string, chunkIndex: number, before = 1, after = 1): Promise<NeighborsResult> {
  for (const [name, value] of [["chunkIndex", chunkIndex], ["before", before], ["after", after]] as const) {
    if (!Number.isInteger(value) || value < 0) throw new AppError("INVALID_ARGUMENT", `${name} must be a whole number >= 0, got ${value}`, `Pass ${name} as 0 or more.`);
  }
  // Without a cap, before/after of 1e9 returned a 1,049-chunk document whole: far past any context window.
  const capped = Object.entries({ before, after }).filter(([, n]) => n > NEIGHBOR_CAP).map(([name, n]) => `${name} ${n}`);
  const [from, to] = [Math.max(0, chunkIndex - Math.min(before, NEIGHBOR_CAP)), chunkIndex + Math.min(after, NEIGHBOR_CAP)];
  const chunks = await app.store.sourceChunks(source, from, to);
  if (chunks.length === 0) {
    if ((await app.store.countRows({ sources: [source] })) === 0) throw await notIndexed(app, source);
    throw new AppError("INVALID_ARGUMENT", `${source} has no chunk ${chunkIndex}`, "chunkIndex comes from a query result.");
  }
  // Each chunk as the document's own text, so neighbours read on from one another exactly (rows of an older scheme keep their stored text).
  const result: NeighborsResult = { chunks: chunks.map((c) => toChunkResult({ ...c, text: ownTextOf(c) }, 0, null)) };
  const range = `chunks ${result.chunks[0]!.chunkIndex} to ${result.chunks.at(-1)!.chunkIndex}`;
  const cappedNotice = capped.length ? `${capped.join(" and ")} capped at ${NEIGHBOR_CAP}; returned ${range}. Centre on another chunk to read further, or use read_file for the whole document.` : undefined;
  const notice = [cappedNotice, await app.store.damageNotice()].filter(Boolean).join(" ");
  if (notice) result.notice = notice;
  return result;
}

function ownTextOf(row: { text: string; context_lines?: number | null; scheme: number }): string {
  return row.scheme >= EXACT_SCHEME && typeof row.context_lines === "number" ? ownText(row.text, row.context_lines) : row.text;
}

/** A data or url source whose chunks were all lost with a damaged data file can still be deleted: its name goes from the index's record. */
export async function deleteSource(app: App, source: string): Promise<{ source: string; deletedChunks: number }> {
  const { chunks, forgotten } = await app.store.deleteSource(source);
  // Not "ingest it first": there is nothing to delete, and nothing to ingest for that.
  if (chunks === 0 && !forgotten) throw new AppError("SOURCE_NOT_FOUND", `${source} is not in the index; nothing was deleted.`, "list_files (minirag-mcp list) shows what is indexed.");
  app.indexChanged("soon");
  return { source, deletedChunks: chunks };
}
