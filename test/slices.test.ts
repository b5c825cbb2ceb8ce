/** Work in slices (slices.ts): a pause past the slice lets the event loop turn, one within it does not, and both runners give the generator's result. */
import { describe, expect, test } from "bun:test";
import { inSlices, mapInSlices, runToEnd, slices } from "../src/slices.ts";
import { turnCounter } from "./helpers.ts";

function* counting(steps: number): Generator<void, number> {
  let done = 0;
  for (; done < steps; done++) yield;
  return done;
}

describe("work in slices", () => {
  test("with a slice of 0 every pause lets the event loop turn, and the result is the generator's", async () => {
    const counter = turnCounter();
    const result = await inSlices(counting(50), slices(0));
    expect(counter.stop()).toBeGreaterThanOrEqual(50);
    expect(result).toBe(50);
  });

  test("within a slice a pause does not wait for a turn", async () => {
    const counter = turnCounter();
    // An hour-long slice never ends during the test: no pause waits.
    await inSlices(counting(50), slices(3_600_000));
    expect(counter.stop()).toBe(0);
  });

  test("runToEnd gives the same result without waiting", () => {
    expect(runToEnd(counting(7))).toBe(7);
  });

  test("mapInSlices gives map's results in order, with a turn after each item at a slice of 0", async () => {
    const counter = turnCounter();
    const doubled = await mapInSlices([1, 2, 3, 4, 5], (n) => n * 2, slices(0));
    expect(counter.stop()).toBeGreaterThanOrEqual(5);
    expect(doubled).toEqual([2, 4, 6, 8, 10]);
  });
});
