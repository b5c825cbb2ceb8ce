/** The progress display as a pure function of ingest events and the clock. */
import { describe, expect, test } from "bun:test";
import { applyEvent, estimatedChunks, finalLine, plainLine, progressLine, startProgress, timeLeftMs, type ProgressState } from "../../src/cli/progress-state.ts";
import type { IngestEvent } from "../../src/ingest/ingest-progress.ts";

/** Folds timed events (ms from the start) into a state, keeping each state along the way. */
function play(events: [number, IngestEvent][]): ProgressState[] {
  const states: ProgressState[] = [];
  let state = startProgress(0);
  for (const [at, event] of events) states.push((state = applyEvent(state, event, at)));
  return states;
}

const file = (index: number, total: number, path: string, bytes: number, totalBytes: number): IngestEvent => ({ kind: "file", index, total, path, bytes, totalBytes });
const line = (state: ProgressState, now: number, width = 120) => progressLine(state, now, width, "syncing");

describe("one large file", () => {
  const states = play([
    [500, file(0, 1, "/docs/big.pdf", 40_000_000, 40_000_000)],
    [9_000, { kind: "page", path: "/docs/big.pdf" }],
    [17_000, { kind: "page", path: "/docs/big.pdf" }],
    [20_000, { kind: "chunks", path: "/docs/big.pdf", chunks: 3000, final: true }],
    [21_000, { kind: "embedded", chunks: 500 }],
    [22_000, { kind: "embedded", chunks: 500 }],
    [23_000, { kind: "embedded", chunks: 500 }],
    [26_000, { kind: "embedded", chunks: 1500 }],
  ]);

  test("moves while it is converted: its OCR pages, then the clock", () => {
    expect(line(states[0]!, 4_000)).toBe("syncing ░░░░░░░░░░░░░░░░░░░░ 1/1 files · 0/0 chunks · 4s so far · /docs/big.pdf (converting)");
    expect(line(states[2]!, 18_000)).toBe("syncing ░░░░░░░░░░░░░░░░░░░░ 1/1 files · 0/0 chunks · 18s so far · /docs/big.pdf (2 pages read)");
  });

  test("moves while it is embedded: chunks so far, the rate since the first batch and the time left", () => {
    expect(line(states[3]!, 20_500)).toBe("syncing ░░░░░░░░░░░░░░░░░░░░ 1/1 files · 0/3,000 chunks · 21s so far · /docs/big.pdf");
    // 500 chunks a second since the first batch (the 20 s of conversion before it do not count); 1,500 left.
    expect(line(states[6]!, 23_000)).toBe("syncing ██████████░░░░░░░░░░ 1/1 files · 1,500/3,000 chunks · 500 chunks/s · 3s left · /docs/big.pdf");
    expect(new Set(states.slice(3).map((s, i) => line(s, 20_500 + i * 1000))).size).toBe(5);
  });

  test("says it is finishing once every chunk has its vector, and ends on a line of totals", () => {
    expect(line(states[7]!, 26_500)).toBe("syncing ████████████████████ 1/1 files · 3,000/3,000 chunks · finishing · /docs/big.pdf");
    expect(finalLine(states[7]!, 72_000, "synced")).toBe("synced 1 file, 3,000 chunks in 1m 12s");
  });
});

describe("many files", () => {
  const states = play([
    [0, file(0, 3, "/docs/a.md", 1_000, 10_000)],
    [100, { kind: "chunks", path: "/docs/a.md", chunks: 4, final: true }],
    [200, file(1, 3, "/docs/broken.docx", 1_000, 10_000)],
    [300, file(2, 3, "/docs/c.md", 8_000, 10_000)],
    [350, { kind: "chunks", path: "/docs/c.md", chunks: 16, final: true }],
    [400, { kind: "embedded", chunks: 6 }],
    [2_400, { kind: "embedded", chunks: 6 }],
  ]);

  test("expect the unread files' chunks from their bytes, at the chunks a byte of the files read", () => {
    expect(estimatedChunks(states[0]!)).toBeUndefined();
    // a.md: 4 chunks from 1,000 bytes, 9,000 bytes to go.
    expect(estimatedChunks(states[1]!)).toBe(4 + 36);
    // a.md and broken.docx (which gave none) are settled: 4 chunks from 2,000 bytes, 8,000 to go.
    expect(estimatedChunks(states[3]!)).toBe(4 + 16);
    expect(estimatedChunks(states[4]!)).toBe(20);
  });

  test("give no time left before a second batch", () => {
    expect(timeLeftMs(states[5]!, 1_400)).toBeUndefined();
    expect(timeLeftMs(states[6]!, 2_400)).toBeCloseTo((8 / 3) * 1000);
  });

  test("write a plain line for a log, without the bar or the file", () => {
    expect(plainLine(states[6]!, 2_400, "syncing")).toBe("syncing: 3/3 files, 12/20 chunks, 3.0 chunks/s, 3s left");
  });
});

describe("a streamed text file", () => {
  const states = play([
    [0, file(0, 1, "/logs/huge.txt", 100_000_000, 100_000_000)],
    [1_000, { kind: "chunks", path: "/logs/huge.txt", chunks: 2048, final: false }],
    [3_000, { kind: "embedded", chunks: 2048 }],
    [4_000, { kind: "chunks", path: "/logs/huge.txt", chunks: 2048, final: false }],
    [5_000, { kind: "embedded", chunks: 2048 }],
  ]);

  test("shows its chunks as they are cut, and no time left while its total is unknown", () => {
    expect(line(states[3]!, 4_000)).toBe("syncing ░░░░░░░░░░░░░░░░░░░░ 1/1 files · 2,048/4,096 chunks · 4s so far · /logs/huge.txt");
    expect(line(states[4]!, 5_000)).toBe("syncing ░░░░░░░░░░░░░░░░░░░░ 1/1 files · 4,096/4,096 chunks · 1,024 chunks/s · 5s so far · /logs/huge.txt");
  });
});

describe("the line fits the terminal", () => {
  const [state] = play([[0, file(11, 43, "/docs/reports/2024/quarterly/very-long-folder-name/final-report-v3.pdf", 10, 100)]]);

  test("cutting the file's path from the left, within width - 1 columns", () => {
    const drawn = line(state!, 0, 100);
    expect(drawn.length).toBeLessThanOrEqual(99);
    expect(drawn).toStartWith("syncing █████░░░░░░░░░░░░░░░ 12/43 files · 0/0 chunks · 0s so far · …");
    expect(drawn).toEndWith("report-v3.pdf (converting)");
  });

  test("leaving the path out on a narrow terminal", () => {
    expect(line(state!, 0, 60)).toBe("syncing █████░░░░░░░░░░░░░░░ 12/43 files · 0/0 chunks · 0s");
  });
});
