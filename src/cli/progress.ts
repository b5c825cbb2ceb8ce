/**
 * Progress for long CLI work, on stderr. On a terminal: one line redrawn in
 * place (bar, files, chunks, rate, time left, the file), at most every
 * REDRAW_MS and at least every TICK_MS so the clock moves while one large
 * batch embeds; other stderr lines (warnings) print above it; a final line
 * stays. Otherwise (a pipe, a log file): a plain line every PLAIN_EVERY_MS,
 * none for a short run, and no final line (the counts go to stdout).
 */
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import type { IngestEvent, IngestEvents } from "../ingest/ingest-progress.ts";
import { escapeControls } from "../text/control-escapes.ts";
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

/** A reporter for stderr as it is: redrawn on a terminal, plain lines otherwise; time is the clock's (tests move one by hand). */
export function progressReporter(labels: ProgressLabels, stream: NodeJS.WriteStream = process.stderr, clock: Clock = SYSTEM_CLOCK): ProgressReporter {
  return stream.isTTY ? terminalReporter(labels, stream, clock) : plainReporter(labels, stream, clock);
}

function plainReporter(labels: ProgressLabels, stream: NodeJS.WriteStream, clock: Clock): ProgressReporter {
  let state = startProgress(clock.now());
  let lastLine = state.startedAt;
  return {
    events(event: IngestEvent) {
      const now = clock.now();
      state = applyEvent(state, event, now);
      if (now - lastLine < PLAIN_EVERY_MS) return;
      lastLine = now;
      stream.write(`${plainLine(state, now, labels.running)}\n`);
    },
    finish() {},
  };
}

function terminalReporter(labels: ProgressLabels, stream: NodeJS.WriteStream, clock: Clock): ProgressReporter {
  let state: ProgressState = startProgress(clock.now());
  let started = false;
  let shown = false;
  let lastDraw = 0;
  /** Cancels the redraw that is due, while one is. */
  let pending: (() => void) | undefined;
  const write = stream.write.bind(stream) as (chunk: string) => boolean;
  const display = (path: string) => escapeControls(labels.display ? labels.display(path) : path);

  const draw = () => {
    pending?.();
    pending = undefined;
    lastDraw = clock.now();
    write(`\r${progressLine(state, lastDraw, stream.columns || 100, labels.running, display)}\x1b[K`);
    shown = true;
  };
  const schedule = () => {
    if (pending) return;
    const wait = REDRAW_MS - (clock.now() - lastDraw);
    if (wait <= 0) draw();
    else pending = clock.after(wait, draw);
  };
  // A background timer: a command that is done exits without waiting for the next tick.
  let stopTicker = () => {};
  const tick = () => {
    if (started) draw();
    stopTicker = clock.after(TICK_MS, tick, true);
  };
  stopTicker = clock.after(TICK_MS, tick, true);

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
      state = applyEvent(state, event, clock.now());
      started = true;
      schedule();
    },
    finish() {
      stopTicker();
      pending?.();
      stream.write = original;
      if (!started) return;
      write(`\r${finalLine(state, clock.now(), labels.done)}\x1b[K\n`);
    },
  };
}
