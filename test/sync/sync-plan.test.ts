import { describe, expect, test } from "bun:test";
import { firstSort, moveCandidates, pairMoves, splitGone } from "../../src/sync/sync-plan.ts";
import type { ScannedFile } from "../../src/scan/scan-roots.ts";
import type { SourceSummary } from "../../src/store/chunk-store.ts";

const file = (path: string, size = 10, mtimeMs = 1): ScannedFile => ({ path, realPath: path, size, mtimeMs });
const indexed = (source: string, over: Partial<SourceSummary> = {}): SourceSummary => ({
  source, sourceType: "file", title: "t", chunkCount: 1, contentHash: "h", mtime: 1, fileSize: 10, minScheme: 3, ocrEngine: "", damaged: false, ...over,
});

describe("the first sort of a sync (behaviour-spec §2.3)", () => {
  const cases: [string, ScannedFile, SourceSummary | null, keyof ReturnType<typeof firstSort>][] = [
    ["not indexed", file("/r/a.md"), null, "fresh"],
    ["same size and mtime: no hash", file("/r/a.md"), indexed("/r/a.md"), "unchanged"],
    ["new mtime: the bytes decide", file("/r/a.md", 10, 2), indexed("/r/a.md"), "toHash"],
    ["new size, same mtime: the bytes decide", file("/r/a.md", 11), indexed("/r/a.md"), "toHash"],
    ["an older scheme, even unchanged", file("/r/a.md"), indexed("/r/a.md", { minScheme: 2 }), "reingest"],
    ["a damaged chunk set, even unchanged", file("/r/a.md"), indexed("/r/a.md", { damaged: true }), "reingest"],
    ["over MAX_FILE_SIZE, indexed or not", file("/r/a.md", 101), indexed("/r/a.md"), "oversized"],
  ];
  for (const [name, scanned, known, bucket] of cases) {
    test(`${name} -> ${bucket}`, () => {
      const sort = firstSort([scanned], known ? [known] : [], 100, 3);
      expect(sort[bucket]).toHaveLength(1);
      expect(sort.gone).toEqual([]);
    });
  }

  test("a file a scope names exactly is hashed even at the indexed size and mtime (a same-size, same-time file renamed over it; found by a probe)", () => {
    expect(firstSort([file("/r/a.md"), file("/r/b.md")], [indexed("/r/a.md"), indexed("/r/b.md")], 100, 3, new Set(["/r/a.md", "/r/other"]))).toMatchObject({
      unchanged: [file("/r/b.md")],
      toHash: [{ file: file("/r/a.md") }],
    });
  });

  test("an indexed file the scan did not see is gone", () => {
    expect(firstSort([], [indexed("/r/x.md")], 100, 3).gone.map((g) => g.source)).toEqual(["/r/x.md"]);
  });
});

describe("moves", () => {
  const gone = [indexed("/r/old/a.md", { contentHash: "A" }), indexed("/r/old/b.md", { contentHash: "B", fileSize: 20 })];

  test("only fresh files with a gone file's name and size are hashed", () => {
    const fresh = [file("/r/new/a.md"), file("/r/new/b.md", 99), file("/r/new/c.md")];
    expect(moveCandidates(fresh, gone).map((f) => f.path)).toEqual(["/r/new/a.md"]);
  });

  test("a name typed composed matches one stored decomposed", () => {
    const decomposed = [indexed("/r/old/caf\u0065\u0301.md")];
    expect(moveCandidates([file("/r/new/caf\u00e9.md")], decomposed)).toHaveLength(1);
  });

  test("same name, size and bytes pair up; other bytes, a stale or damaged source do not", () => {
    expect(pairMoves([{ file: file("/r/new/a.md"), hash: "A" }], gone, 3).map((m) => [m.from.source, m.to.path])).toEqual([["/r/old/a.md", "/r/new/a.md"]]);
    expect(pairMoves([{ file: file("/r/new/a.md"), hash: "other" }], gone, 3)).toEqual([]);
    expect(pairMoves([{ file: file("/r/new/a.md"), hash: "A" }], [indexed("/r/old/a.md", { contentHash: "A", minScheme: 2 })], 3)).toEqual([]);
    expect(pairMoves([{ file: file("/r/new/a.md"), hash: "A" }], [indexed("/r/old/a.md", { contentHash: "A", damaged: true })], 3)).toEqual([]);
  });

  test("one gone source moves to one place only; a second copy is new", () => {
    const moves = pairMoves([{ file: file("/r/x/a.md"), hash: "A" }, { file: file("/r/y/a.md"), hash: "A" }], gone, 3);
    expect(moves.map((m) => m.to.path)).toEqual(["/r/x/a.md"]);
  });
});

describe("what is deleted", () => {
  const gone = [indexed("/r/a.md"), indexed("/r/usb/b.md"), indexed("/r/moved.md"), indexed("/r/broken.md")];
  test("moved sources are neither deleted nor kept; those under an unlisted folder or still present but unreadable are kept", () => {
    const { remove, kept } = splitGone(gone, new Set(["/r/moved.md"]), ["/r/usb"], new Set(["/r/broken.md"]));
    expect(remove.map((s) => s.source)).toEqual(["/r/a.md"]);
    expect(kept.map((s) => s.source)).toEqual(["/r/usb/b.md", "/r/broken.md"]);
  });
});
