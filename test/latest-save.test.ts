import { describe, expect, test } from "bun:test";
import { LatestSave } from "../src/latest-save.ts";

describe("a cache file written in the background", () => {
  test("of a burst of values only the first and the newest are written, one write at a time, in order", async () => {
    const written: number[] = [];
    let writing = 0;
    let most = 0;
    let release!: () => void;
    let started!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const saves = new LatestSave<number>(async (value) => {
      writing++;
      most = Math.max(most, writing);
      if (value === 1) {
        started();
        await firstWrite;
      }
      written.push(value);
      writing--;
    }, 1);
    saves.save(1);
    await firstStarted;
    // The first write is under way: these three wait, and only the newest of them is written after it.
    for (const value of [2, 3, 4]) saves.save(value);
    release();
    await saves.saved();
    expect(written).toEqual([1, 4]);
    expect(most).toBe(1);
  });

  test("a failed write rejects nothing, and a value handed in during it is still written", async () => {
    const written: string[] = [];
    const saves = new LatestSave<string>(async (value) => {
      if (value === "bad") {
        saves.save("newer");
        throw new Error("disk full");
      }
      written.push(value);
    }, 0);
    saves.save("bad");
    await saves.saved();
    expect(written).toEqual(["newer"]);
    saves.save("good");
    await saves.saved();
    expect(written).toEqual(["newer", "good"]);
  });
});
