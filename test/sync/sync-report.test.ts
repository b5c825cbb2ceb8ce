/** A sync's counts as the CLI and the watch log print them (src/sync/sync-report.ts). */
import { describe, expect, test } from "bun:test";
import { countsLine, emptySyncReport } from "../../src/sync/sync-report.ts";

describe("a sync's counts as one line", () => {
  test("names the counts asked for always and the others only when not zero, in their order", () => {
    const counts = { ...emptySyncReport().counts, scanned: 40, ingested: 40, embedded: 0, docVectors: 3 };
    expect(countsLine(counts, ["scanned", "ingested", "skipped", "moved", "deleted", "failed", "failedBefore"])).toBe("scanned 40, ingested 40, skipped 0, moved 0, deleted 0, docVectors 3, failed 0, failedBefore 0");
    expect(countsLine(counts)).toBe("scanned 40, ingested 40, docVectors 3");
  });
});
