/**
 * One CI: this project's entry (.ci/run) and GitHub's workflow run the same
 * steps (.ci/steps), and those steps run exactly the README's test command.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers.ts";

const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const lines = (text: string) => text.split("\n").map((line) => line.trim());

describe("the CI scripts", () => {
  test(".ci/run and GitHub's test job both run .ci/steps", () => {
    expect(lines(read(".ci/run"))).toContain("exec bash .ci/steps");
    const workflow = read(".github/workflows/ci.yml");
    const testJob = workflow.slice(workflow.indexOf("\n  test:"), workflow.indexOf("\n  windows:"));
    expect(lines(testJob)).toContain("- run: bash .ci/steps");
  });

  test(".ci/steps runs the README's test command as it is written there", () => {
    const readme = read("README.md");
    const building = readme.slice(readme.indexOf("## Building from source"));
    const block = building.slice(building.indexOf("```sh\n") + 6, building.indexOf("\n```", building.indexOf("```sh\n")));
    const command = lines(block).find((line) => line.startsWith("bun run test"));
    expect(command).toBe("bun run test");
    expect(lines(read(".ci/steps"))).toContain(command!);
  });

  test("both parse as bash", () => {
    for (const script of [".ci/run", ".ci/steps"]) {
      const check = Bun.spawnSync(["bash", "-n", script], { cwd: REPO_ROOT });
      expect({ script, exitCode: check.exitCode, stderr: check.stderr.toString() }).toEqual({ script, exitCode: 0, stderr: "" });
    }
  });
});
