/** Upkeep that another writer's commit preempted is done again (src/store/commit-conflicts.ts). */
import { describe, expect, test } from "bun:test";
import { isCommitConflict, retryingCommitConflicts } from "../../src/store/commit-conflicts.ts";

// The error a team-index sync's compaction met on moto while another machine created an index (acceptance run of 2026-12-05).
const PREEMPTED = new Error(
  "lance error: Retryable commit conflict for version 22: This Rewrite transaction was preempted by concurrent transaction CreateIndex at version 22. Please retry., /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-8.0.0/src/io/commit/conflict_resolver.rs:806:42",
);

describe("a commit another writer preempted", () => {
  test("is told from other errors", () => {
    expect(isCommitConflict(PREEMPTED)).toBe(true);
    expect(isCommitConflict(new Error("lance error: Not found: data/ab12.lance"))).toBe(false);
  });

  test("is done again until it commits, up to three times; another error fails at once", async () => {
    let calls = 0;
    expect(await retryingCommitConflicts(async () => (++calls < 3 ? Promise.reject(PREEMPTED) : "committed"))).toBe("committed");
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryingCommitConflicts(async () => (++calls, Promise.reject(PREEMPTED)))).rejects.toThrow("Retryable commit conflict");
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryingCommitConflicts(async () => (++calls, Promise.reject(new Error("disk full"))))).rejects.toThrow("disk full");
    expect(calls).toBe(1);
  });
});
