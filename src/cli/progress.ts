/**
 * Progress for long CLI work, on stderr. On a terminal: one line redrawn in
 * place (bar, files, chunks, rate, time left, the file), at most every
 * REDRAW_MS and at least every TICK_MS so the clock moves while one large
 * batch embeds; other stderr lines (warnings) print above it; a final line
 * stays. Otherwise (a pipe, a log file): a plain line every PLAIN_EVERY_MS,
 * none for a short run, and no final line (the counts go to stdout).
 */
import type { IngestEvent, IngestEvents } from "../ingest/ingest-progress.ts";
import { escapeControls } from "./output.ts";
import { applyEvent, finalLine, plainLine, progressLine, startProgress, type ProgressState } from "./progress-state.ts";

/** Ten redraws a second at most: smooth to the eye, and cheap against a terminal over ssh. */
const REDRAW_MS = 100;
/** The clock and the rate move even while no event comes (one batch of a large file embedding). */
const TICK_MS = 1000;
/** A log gets a line this often, so a long run shows it is alive without flooding the file. */
const PLAIN_EVERY_MS = 30_000;

export interface ProgressReporter {
  events: IngestEvents;
  /** Leaves the final line on a terminal and stops redrawing; call it however the run ends. */
  finish(): void;
}

export interface ProgressLabels {
  /** "syncing" */
  running: string;
  /** "synced" */
  done: string;
  /** How a path is shown (relative to its root). */
  display?: (path: string) => string;
}

/** A reporter for stderr as it is: redrawn on a terminal, plain lines otherwise (every plainEveryMs: tests shorten it). */
export function progressReporter(labels: ProgressLabels, stream: NodeJS.WriteStream = process.stderr, plainEveryMs = PLAIN_EVERY_MS): ProgressReporter {
  return stream.isTTY ? terminalReporter(labels, stream) : plainReporter(labels, stream, plainEveryMs);
}

function plainReporter(labels: ProgressLabels, stream: NodeJS.WriteStream, everyMs: number): ProgressReporter {
  let state = startProgress(Date.now());
  let lastLine = state.startedAt;
  return {
    events(event: IngestEvent) {
      const now = Date.now();
      state = applyEvent(state, event, now);
      if (now - lastLine < everyMs) return;
      lastLine = now;
      stream.write(`${plainLine(state, now, labels.running)}\n`);
    },
    finish() {},
  };
}

function terminalReporter(labels: ProgressLabels, stream: NodeJS.WriteStream): ProgressReporter {
  let state: ProgressState = startProgress(Date.now());
  let started = false;
  let shown = false;
  let lastDraw = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const write = stream.write.bind(stream) as (chunk: string) => boolean;
  const display = (path: string) => escapeControls(labels.display ? labels.display(path) : path);

  const draw = () => {
    clearTimeout(pending);
    pending = undefined;
    lastDraw = Date.now();
    write(`\r${progressLine(state, lastDraw, stream.columns || 100, labels.running, display)}\x1b[K`);
    shown = true;
  };
  const schedule = () => {
    if (pending) return;
    const wait = REDRAW_MS - (Date.now() - lastDraw);
    if (wait <= 0) draw();
    else pending = setTimeout(draw, wait);
  };
  const ticker = setInterval(() => started && draw(), TICK_MS);
  ticker.unref();

  // Anything else written to stderr (a warning, a model notice) clears the bar first and prints above it.
  const original = stream.write;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (shown) write("\r\x1b[K");
    shown = false;
    const result = (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    if (started) schedule();
    return result;
  }) as typeof stream.write;

  return {
    events(event: IngestEvent) {
      state = applyEvent(state, event, Date.now());
      started = true;
      schedule();
    },
    finish() {
      clearInterval(ticker);
      clearTimeout(pending);
      stream.write = original;
      if (!started) return;
      write(`\r${finalLine(state, Date.now(), labels.done)}\x1b[K\n`);
    },
  };
}
