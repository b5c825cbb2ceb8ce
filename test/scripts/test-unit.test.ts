/** The inner loop (scripts/test-unit.ts): every test from source except those that run the compiled binary. */
import { describe, expect, test } from "bun:test";
import { binaryTests, unitTestArgs } from "../../scripts/test-unit.ts";
import { REPO_ROOT, tempDir, writeTree } from "../helpers.ts";

// The constant's name spelled in two parts: a test file that names it whole is left out of the inner loop, this one too.
const NAME = "BIN" + "ARY";
const IMPORTS_IT = `import { ${NAME} } from "../helpers.ts";`;

describe("bun run test:unit", () => {
  test("leaves out test/e2e, test/smoke and each other test file that names the binary's path constant, then passes the caller's arguments on", () => {
    const root = tempDir("minirag-unit-tree-");
    writeTree(root, {
      "test/helpers.ts": `export const ${NAME} = "dist/minirag-mcp";`,
      "test/cli/runs-binary.test.ts": IMPORTS_IT,
      "test/cli/from-source.test.ts": `const ${NAME}_SIZE = 1; // another name`,
      "test/e2e/end-to-end.test.ts": IMPORTS_IT,
      "test/smoke/smoke.test.ts": IMPORTS_IT,
    });
    expect(binaryTests(root)).toEqual(["test/cli/runs-binary.test.ts"]);
    expect(unitTestArgs(root, ["test/cli", "--bail"])).toEqual([
      "test",
      "--timeout=120000",
      "--path-ignore-patterns=test/e2e/**",
      "--path-ignore-patterns=test/smoke/**",
      "--path-ignore-patterns=test/cli/runs-binary.test.ts",
      "test/cli",
      "--bail",
    ]);
  });

  test("in this repository, the README-command test (it runs --help through the binary) is left out and the ingest tests are not", () => {
    const left = binaryTests(REPO_ROOT);
    expect(left).toContain("test/scripts/readme-commands.test.ts");
    expect(left).not.toContain("test/ingest/ingest-file.test.ts");
    expect(left).not.toContain("test/scripts/test-unit.test.ts");
  });
});
