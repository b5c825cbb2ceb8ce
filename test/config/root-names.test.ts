import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load-config.ts";
import { rootNames } from "../../src/config/root-names.ts";
import { failure } from "../helpers.ts";

const s3 = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "sekrit", DB_PATH: "s3://team/index" };
const load = (env: Record<string, string>) => loadConfig({ env, cwd: "/x", home: "/home/u" });

describe("what the roots are called in a shared index", () => {
  test("each root's folder name, unless RAG_ROOT_NAME names them (one name, or a JSON array in BASE_DIRS order)", () => {
    expect(load({ ...s3, BASE_DIRS: '["/srv/handbook", "/data/contracts"]' }).rootNames).toEqual(["handbook", "contracts"]);
    expect(load({ ...s3, BASE_DIR: "/home/ann/Documents/team", RAG_ROOT_NAME: "handbook" }).rootNames).toEqual(["handbook"]);
    expect(load({ ...s3, BASE_DIRS: '["/a/docs", "/b/docs"]', RAG_ROOT_NAME: '["policies", "minutes"]' }).rootNames).toEqual(["policies", "minutes"]);
  });

  test("a local index keeps absolute paths: no root names", () => {
    expect(load({ BASE_DIR: "/srv/handbook" }).rootNames).toBeUndefined();
  });

  test("two roots of one name are refused naming both and the fix", async () => {
    const error = await failure(() => load({ ...s3, BASE_DIRS: '["/a/docs", "/b/docs"]' }));
    expect(error.message).toBe('Configuration error: the roots /a/docs and /b/docs would both be named "docs" in the shared index.');
    expect(error.hint).toContain("RAG_ROOT_NAME");
  });

  test.each([
    [["/a/docs"], ["x/y"], 'the root /a/docs would be named "x/y" in the shared index, which is not a folder name'],
    [["/a/docs"], [".."], 'would be named ".."'],
    [["/"], undefined, 'the root / would be named ""'],
    [["/a/docs", "/b/more"], ["one"], "RAG_ROOT_NAME gives 1 name(s) for 2 root(s) (/a/docs, /b/more)"],
  ])("roots %o named %o: refused by name", async (roots, given, message) => {
    const error = await failure(() => rootNames(roots, given));
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain(message);
  });

  test("RAG_ROOT_NAME that is not a name or a JSON array of names is refused as the variable it is", async () => {
    const error = await failure(() => load({ ...s3, BASE_DIR: "/a/docs", RAG_ROOT_NAME: '["ok", 3]' }));
    expect(error.message).toContain('RAG_ROOT_NAME="[\\"ok\\", 3]" is invalid: must be a name, or a JSON array of non-empty names');
  });
});
