import { describe, expect, test } from "bun:test";
import { mallocChoices } from "../../src/config/malloc-env.ts";

describe("the user's own glibc malloc settings", () => {
  test("are seen through glibc's variables and through GLIBC_TUNABLES, one setting at a time", () => {
    expect(mallocChoices({})).toEqual({ arenaMax: false, mmapThreshold: false });
    expect(mallocChoices({ MALLOC_ARENA_MAX: "4" })).toEqual({ arenaMax: true, mmapThreshold: false });
    expect(mallocChoices({ MALLOC_MMAP_THRESHOLD_: "33554432" })).toEqual({ arenaMax: false, mmapThreshold: true });
    expect(mallocChoices({ GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=1:glibc.malloc.arena_max=2" })).toEqual({ arenaMax: true, mmapThreshold: true });
  });
});
