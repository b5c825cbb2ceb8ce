import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mallocChoices } from "../../src/config/malloc-env.ts";
import { boundNativeHeap } from "../../src/native/native-heap.ts";

const linux = process.platform === "linux";

/**
 * Runs `body` in a fresh process: a heap that has served other tests holds free
 * blocks, and glibc serves a large request from those before its mmap
 * threshold is ever consulted. The helpers count the blocks glibc has mapped
 * on their own (malloc_info's whole-heap <total type="mmap">).
 */
function inFreshProcess(body: string): unknown {
  const code = `
    import { dlopen, FFIType, ptr } from "bun:ffi";
    import { mkdtempSync, readFileSync } from "node:fs";
    import { tmpdir } from "node:os";
    import { join } from "node:path";
    import * as heap from ${JSON.stringify(join(import.meta.dir, "../../src/native/native-heap.ts"))};
    const c = dlopen("libc.so.6", {
      malloc: { args: [FFIType.u64], returns: FFIType.ptr },
      free: { args: [FFIType.ptr], returns: FFIType.void },
      fopen: { args: [FFIType.cstring, FFIType.cstring], returns: FFIType.ptr },
      fclose: { args: [FFIType.ptr], returns: FFIType.i32 },
      malloc_info: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
    }).symbols;
    const mappedBlocks = () => {
      const path = join(mkdtempSync(join(tmpdir(), "heap-")), "info.xml");
      const file = c.fopen(ptr(Buffer.from(path + "\\0")), ptr(Buffer.from("w\\0")));
      c.malloc_info(0, file);
      c.fclose(file);
      return Number([...readFileSync(path, "utf8").matchAll(/<total type="mmap" count="(\\d+)"/g)].at(-1)[1]);
    };
    // Whether a block of this size, allocated right after one of that size was freed, is mapped on its own.
    const mappedAfterFree = (size) => {
      c.free(c.malloc(size));
      const before = mappedBlocks();
      const again = c.malloc(size);
      const mapped = mappedBlocks() === before + 1;
      c.free(again);
      return mapped;
    };
    console.log(JSON.stringify(await (async () => { ${body} })()));`;
  const run = Bun.spawnSync([process.execPath, "-e", code], { stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

describe.if(linux)("the native libraries' C heap (glibc)", () => {
  test("during a compaction a freed large buffer does not teach glibc to keep the next one, and afterwards the usual ceiling is back", () => {
    const size = "2 * heap.COMPACTION_MMAP_THRESHOLD";
    // glibc's own policy: the freed block raised the threshold to its size, so the second comes from an arena.
    expect(inFreshProcess(`return mappedAfterFree(${size});`)).toBe(false);
    const result = inFreshProcess(`
      const during = await heap.compactingNativeHeap(async () => mappedAfterFree(${size}), { arenaMax: false, mmapThreshold: false });
      return { during, after: mappedAfterFree(${size}), pastCeiling: mappedAfterFree(2 * heap.SETTLED_MMAP_THRESHOLD) };`);
    expect(result).toEqual({ during: true, after: false, pastCeiling: true });
  });

  test("a threshold the user gave glibc stays in force during a compaction", () => {
    const result = inFreshProcess(`
      const size = 2 * heap.COMPACTION_MMAP_THRESHOLD;
      mappedAfterFree(size);
      return heap.compactingNativeHeap(async () => mappedAfterFree(size), { arenaMax: false, mmapThreshold: true });`);
    expect(result).toBe(false);
  });

  test("the arena cap is applied unless the user set one through glibc's own variables", () => {
    expect(boundNativeHeap(mallocChoices({}))).toBe(true);
    expect(boundNativeHeap(mallocChoices({ MALLOC_ARENA_MAX: "4" }))).toBe(false);
    expect(boundNativeHeap(mallocChoices({ GLIBC_TUNABLES: "glibc.malloc.arena_max=4" }))).toBe(false);
  });
});
