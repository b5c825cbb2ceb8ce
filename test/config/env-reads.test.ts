import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { libDirFromEnv } from "../../src/config/load-config.ts";
import { REPO_ROOT } from "../helpers.ts";

const SRC = join(REPO_ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** Every read of the environment in a file: setting a variable for a native library (`=`, `??=`, delete) is not a read. */
function envReads(text: string): string[] {
  const reads: string[] = [];
  for (const m of text.matchAll(/(delete\s+)?\b(process\.env|Bun\.env|import\.meta\.env)\b(\.\w+|\[[^\]]+\])?(\s*(\?\?)?=(?!=))?/g)) {
    if (m[1] || (m[3] && m[4])) continue;
    reads.push(m[0].trim());
  }
  return reads;
}

describe("environment variables", () => {
  test("only src/config reads the environment", () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !relative(SRC, f).startsWith("config/"))
      .flatMap((f) => envReads(readFileSync(f, "utf8")).map((r) => `${relative(REPO_ROOT, f)}: ${r}`));
    expect(offenders).toEqual([]);
  });

  test("the read finder sees a read and ignores a write", () => {
    expect(envReads('const a = process.env.MINIRAG_LIB_DIR; f(process.env); const b = Bun.env["X"];')).toEqual(["process.env.MINIRAG_LIB_DIR", "process.env", 'Bun.env["X"]']);
    expect(envReads('process.env.A = "1"; process.env.B ??= "x"; delete process.env.A; if (process.env.C === "1") {}')).toEqual(["process.env.C"]);
  });

  test.each([
    [{ MINIRAG_LIB_DIR: "/opt/minirag/lib" }, "/opt/minirag/lib"],
    [{ MINIRAG_LIB_DIR: "  /opt/minirag/lib  " }, "/opt/minirag/lib"],
    [{ MINIRAG_LIB_DIR: "   " }, undefined],
    [{}, undefined],
  ])("MINIRAG_LIB_DIR %o is read by the config module as %p", (env, expected) => {
    expect(libDirFromEnv(env)).toBe(expected);
  });
});
