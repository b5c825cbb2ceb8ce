import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readProcStat } from "../../src/native/proc-stat.ts";
import { tempDir } from "../helpers.ts";

describe("a /proc stat line", () => {
  test("a name with spaces and parentheses does not shift the fields after it", () => {
    const path = join(tempDir("minirag-procstat-"), "stat");
    writeFileSync(path, "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 10 0 0 0 7 3 0 0 20 0 1 0 98765 1000 50\n");
    const stat = readProcStat(path)!;
    expect(stat.name).toBe("a (b) c");
    expect(stat.fields[0]).toBe("S");
    expect([stat.fields[11], stat.fields[12], stat.fields[19]]).toEqual(["7", "3", "98765"]);
  });

  test("a file that is not there reads as null", () => {
    expect(readProcStat(join(tempDir("minirag-procstat-"), "gone"))).toBeNull();
  });

  test.if(process.platform === "linux")("reads this process's own name and start time", () => {
    const stat = readProcStat("/proc/self/stat")!;
    expect(stat.name).toBe(readFileSync("/proc/self/comm", "utf8").trim());
    expect(Number(stat.fields[19])).toBeGreaterThan(0);
  });
});
