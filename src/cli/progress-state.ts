/**
 * The progress of a sync or ingest as numbers, and the lines that show it:
 * a pure fold over ingest events (ingest/ingest-progress.ts) with the clock
 * passed in, so the drawing is tested on a sequence of events alone.
 * cli/progress.ts writes the lines to the terminal.
 */
import type { IngestEvent } from "../ingest/ingest-progress.ts";
import { formatDuration } from "../log.ts";

/** How far back the rate looks: long enough to smooth one batch, short enough to follow a change of file type. */
const RATE_WINDOW_MS = 20_000;
const BAR_CELLS = 20;

export interface ProgressState {
  startedAt: number;
  /** Files to ingest, and how many have been started (the one being read included). */
  files: number;
  filesStarted: number;
  /** Bytes of all the files, and of those settled: read before the current one, or the current one once its chunks are all counted. */
  totalBytes: number;
  settledBytes: number;
  /** The file being read, its size, and the pages OCR has recognized in it. */
  path: string;
  bytes: number;
  pages: number;
  /** The current file's chunks are all counted. */
  chunked: boolean;
  /** Chunks counted so far, and how many of them have their vectors. */
  chunks: number;
  embedded: number;
  /** A streamed file's chunks are still being cut: the total is not known yet. */
  streaming: boolean;
  /** (time, embedded) at each batch over the last RATE_WINDOW_MS, oldest first; empty until the first batch. */
  samples: [number, number][];
}

export function startProgress(now: number): ProgressState {
  return { startedAt: now, files: 0, filesStarted: 0, totalBytes: 0, settledBytes: 0, path: "", bytes: 0, pages: 0, chunked: false, chunks: 0, embedded: 0, streaming: false, samples: [] };
}

/** The state after one event (the state passed in is not changed). */
export function applyEvent(state: ProgressState, event: IngestEvent, now: number): ProgressState {
  switch (event.kind) {
    case "file": {
      // The file before this one is settled whether it gave chunks or failed.
      const settledBytes = state.settledBytes + (state.filesStarted > 0 && !state.chunked ? state.bytes : 0);
      return { ...state, files: event.total, filesStarted: event.index + 1, totalBytes: event.totalBytes, settledBytes, path: event.path, bytes: event.bytes, pages: 0, chunked: false };
    }
    case "page":
      return { ...state, pages: state.pages + 1 };
    case "chunks": {
      const chunks = state.chunks + event.chunks;
      if (!event.final) return { ...state, chunks, streaming: true };
      return { ...state, chunks, streaming: false, chunked: true, settledBytes: state.settledBytes + state.bytes };
    }
    case "embedded": {
      const embedded = state.embedded + event.chunks;
      // The samples inside the window, and the last one before it, where the window starts.
      const inside = state.samples.findIndex(([t]) => t >= now - RATE_WINDOW_MS);
      const kept = state.samples.slice(inside === -1 ? -1 : Math.max(0, inside - 1));
      return { ...state, embedded, samples: [...kept, [now, embedded]] };
    }
  }
}

/**
 * Chunks embedded per second since the window's first batch (model loading and
 * the first file's conversion before it do not count); undefined until a
 * second batch, and a second, have passed.
 */
export function chunkRate(state: ProgressState, now: number): number | undefined {
  const first = state.samples[0];
  if (!first || state.samples.length < 2) return undefined;
  const seconds = (now - first[0]) / 1000;
  if (seconds < 1) return undefined;
  return (state.embedded - first[1]) / seconds;
}

/**
 * Chunks the whole run will embed, estimated: those counted so far, plus, for
 * the bytes not read yet, as many chunks a byte as the files read gave.
 * Undefined while a streamed file is being cut or before any file is counted.
 */
export function estimatedChunks(state: ProgressState): number | undefined {
  if (state.streaming || state.settledBytes === 0) return undefined;
  const unread = Math.max(0, state.totalBytes - state.settledBytes);
  return state.chunks + Math.round((unread * state.chunks) / state.settledBytes);
}

/** Every file is read and every chunk has its vector: what is left is the commit and the index's upkeep. */
function finishing(state: ProgressState): boolean {
  return state.files > 0 && state.filesStarted === state.files && state.chunked && state.embedded >= state.chunks;
}

/** The share done, 0 to 1: chunks embedded of those expected, or files started while no chunk is counted yet. */
export function fractionDone(state: ProgressState): number {
  if (finishing(state)) return 1;
  const total = estimatedChunks(state);
  if (total !== undefined && total > 0) return Math.min(1, state.embedded / total);
  return state.files > 0 ? Math.max(0, state.filesStarted - 1) / state.files : 0;
}

/** Time left at the recent rate; undefined when there is no rate or no estimate yet. */
export function timeLeftMs(state: ProgressState, now: number): number | undefined {
  const rate = chunkRate(state, now);
  const total = estimatedChunks(state);
  if (rate === undefined || rate <= 0 || total === undefined) return undefined;
  return (Math.max(0, total - state.embedded) / rate) * 1000;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The numbers, without the bar or the path: "12/43 files", "1,204/1,500 chunks" (embedded of those cut so far), "35 chunks/s", "31s left". */
function figures(state: ProgressState, now: number): string[] {
  const parts = [`${count(state.filesStarted)}/${count(state.files)} files`];
  parts.push(`${count(state.embedded)}/${count(state.chunks)} chunks`);
  if (finishing(state)) return [...parts, "finishing"];
  const rate = chunkRate(state, now);
  if (rate !== undefined) parts.push(`${rate < 10 ? rate.toFixed(1) : count(Math.round(rate))} chunks/s`);
  const left = timeLeftMs(state, now);
  parts.push(left === undefined ? `${formatDuration(now - state.startedAt)} so far` : `${formatDuration(left)} left`);
  return parts;
}

/** What is happening to the current file before its chunks are counted: OCR's pages, or its conversion. */
function fileStage(state: ProgressState): string {
  if (state.chunked || state.streaming) return "";
  if (state.pages > 0) return ` (${count(state.pages)} page${state.pages === 1 ? "" : "s"} read)`;
  return " (converting)";
}

/**
 * The line redrawn on a terminal, at most `width - 1` characters (the last
 * column would wrap on some terminals): label, bar, figures, then the file,
 * cut from the left where it does not fit.
 */
export function progressLine(state: ProgressState, now: number, width: number, label: string, display: (path: string) => string = (p) => p): string {
  const filled = Math.round(fractionDone(state) * BAR_CELLS);
  const bar = `${"█".repeat(filled)}${"░".repeat(BAR_CELLS - filled)}`;
  const head = `${label} ${bar} ${figures(state, now).join(" · ")}`;
  const file = state.path ? `${display(state.path)}${fileStage(state)}` : "";
  const room = width - 1 - head.length - 3;
  if (!file || room < 8) return head.slice(0, Math.max(0, width - 1)).trimEnd();
  return `${head} · ${file.length > room ? `…${file.slice(-(room - 1))}` : file}`;
}

/** A line for a log, when stderr is no terminal: "syncing: 12/43 files, 1,204/1,500 chunks, 35 chunks/s, 31s left". */
export function plainLine(state: ProgressState, now: number, label: string): string {
  return `${label}: ${figures(state, now).join(", ")}`;
}

/** The line left on the terminal when the run ends: "synced 43 files, 2,300 chunks in 1m 12s". */
export function finalLine(state: ProgressState, now: number, doneLabel: string): string {
  return `${doneLabel} ${count(state.filesStarted)} file${state.filesStarted === 1 ? "" : "s"}, ${count(state.embedded)} chunk${state.embedded === 1 ? "" : "s"} in ${formatDuration(now - state.startedAt)}`;
}
