import { describe, expect, test } from "bun:test";
import { probeLanceDb } from "../../src/store/lancedb-probe.ts";

describe("debug lancedb's probe", () => {
  test("creates a table, finds the nearest vector and the keyword match, on real LanceDB", async () => {
    expect(await probeLanceDb()).toEqual({ rows: 2, vectorTop: "alpha beta", ftsTop: "gamma delta" });
  });
});
