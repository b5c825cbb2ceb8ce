import { expect, test } from "bun:test";
import { defaultCacheDir } from "../../src/config/cache-dir.ts";

test.each([
  ["linux", {}, "/home/u/.cache/minirag-mcp/models"],
  ["linux", { XDG_CACHE_HOME: "/xdg" }, "/xdg/minirag-mcp/models"],
  ["darwin", {}, "/home/u/Library/Caches/minirag-mcp/models"],
  ["win32", { LOCALAPPDATA: "/appdata/local" }, "/appdata/local/minirag-mcp/models"],
] as const)("on %s with %o the model cache is %s", (platform, env, expected) => {
  expect(defaultCacheDir({ ...env }, "/home/u", platform)).toBe(expected);
});
