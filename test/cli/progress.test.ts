/** The progress reporter on a terminal (redrawn in place) and on a pipe (occasional plain lines). */
import { describe, expect, test } from "bun:test";
import { progressReporter } from "../../src/cli/progress.ts";
import type { IngestEvent } from "../../src/ingest/ingest-progress.ts";
import { fakeClock } from "../fake-clock.ts";

/** A stream that records what is written to it, as a terminal of 100 columns or as a pipe. */
function recorder(isTTY: boolean) {
  const written: string[] = [];
  const stream = { isTTY, columns: 100, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

const EVENTS: IngestEvent[] = [
  { kind: "file", index: 0, total: 2, path: "/docs/a.md", bytes: 100, totalBytes: 200 },
  { kind: "chunks", path: "/docs/a.md", chunks: 3, final: true },
  { kind: "embedded", chunks: 3 },
];
const labels = { running: "syncing", done: "synced", display: (path: string) => path.replace("/docs/", "") };

describe("on a terminal", () => {
  test("the line is redrawn in place, a warning prints above it, the clock moves while no event comes, and a final line stays", () => {
    const clock = fakeClock();
    const { stream, written } = recorder(true);
    const progress = progressReporter(labels, stream, clock);
    progress.events(EVENTS[0]!);
    expect(written).toEqual(["\rsyncing ░░░░░░░░░░░░░░░░░░░░ 1/2 files · 0/0 chunks · 0s so far · a.md (converting)\x1b[K"]);
    // Another line on stderr clears the bar first; the bar comes back under it.
    stream.write("warn: a.md: something\n");
    expect(written.slice(1)).toEqual(["\r\x1b[K", "warn: a.md: something\n"]);
    for (const event of EVENTS.slice(1)) progress.events(event);
    // At most ten redraws a second: the events' line waits for its turn.
    expect(written.at(-1)).toBe("warn: a.md: something\n");
    clock.advance(100);
    expect(written.at(-1)).toStartWith("\rsyncing ");
    expect(written.at(-1)).toContain("3/3 chunks · 0s so far");
    clock.advance(1900);
    expect(written.at(-1)).toContain("3/3 chunks · 2s so far");
    progress.finish();
    expect(written.at(-1)).toMatch(/^\rsynced 1 file, 3 chunks in 2s\x1b\[K\n$/);
    // Once finished, writes go straight through again.
    stream.write("after\n");
    expect(written.at(-1)).toBe("after\n");
  });

  test("a run with nothing to ingest leaves nothing behind", () => {
    const { stream, written } = recorder(true);
    progressReporter(labels, stream).finish();
    expect(written).toEqual([]);
  });
});

describe("on a pipe", () => {
  test("no redraws and no final line: a short run prints nothing", () => {
    const { stream, written } = recorder(false);
    const progress = progressReporter(labels, stream);
    for (const event of EVENTS) progress.events(event);
    progress.finish();
    expect(written).toEqual([]);
  });

  test("a long run prints a plain line every 30 s, each a whole line with no carriage return", () => {
    const clock = fakeClock();
    const { stream, written } = recorder(false);
    const progress = progressReporter(labels, stream, clock);
    progress.events(EVENTS[0]!);
    clock.advance(29_999);
    progress.events(EVENTS[1]!);
    expect(written).toEqual([]);
    clock.advance(1);
    progress.events(EVENTS[2]!);
    progress.finish();
    expect(written).toEqual(["syncing: 1/2 files, 3/3 chunks, 30s so far\n"]);
  });
});
