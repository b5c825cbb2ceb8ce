/**
 * Every command README.md and docs/*.md show still works: each minirag-mcp
 * line parses against the CLI's real definitions, each subcommand named
 * answers --help through the compiled binary, and each bun script or file a
 * runnable block names exists (scripts/docs/doc-commands.ts says what a block
 * is). The install lines themselves run in scripts/accept/install-readme.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { documentFiles } from "../../scripts/docs/generate-tables.ts";
import { codeBlocks, isMinirag, miniragProblems, otherProblems, RUNNABLE, shellCommands, subcommandOf, synopsisWords, type CodeBlock } from "../../scripts/docs/doc-commands.ts";
import { BINARY, REPO_ROOT, runCli } from "../helpers.ts";

const blocks: CodeBlock[] = documentFiles().flatMap((file) => codeBlocks(file, readFileSync(join(REPO_ROOT, file), "utf8")));
const lines = (kinds: (lang: string) => boolean) =>
  blocks.filter((b) => kinds(b.lang)).flatMap((b) => b.text.split("\n").filter((l) => l.trim()).map((text) => ({ where: `${b.file}:${b.line}`, text })));
const runnable = lines((lang) => RUNNABLE.has(lang));
const synopsis = lines((lang) => lang === "text").filter((l) => l.text.startsWith("minirag-mcp "));
const runnableCommands = runnable.flatMap((l) => shellCommands(l.text).map((words) => ({ ...l, words })));

describe("commands in README.md and docs/", () => {
  test("the documents show runnable minirag-mcp lines and synopses", () => {
    expect(runnableCommands.filter((c) => isMinirag(c.words)).length).toBeGreaterThan(10);
    expect(synopsis.length).toBeGreaterThan(10);
  });

  test("every minirag-mcp line of a runnable block parses against the real command definitions", async () => {
    const problems: string[] = [];
    for (const c of runnableCommands.filter((c) => isMinirag(c.words))) {
      for (const p of await miniragProblems(c.words.slice(1), true)) problems.push(`${c.where} ${c.text}: ${p}`);
    }
    expect(problems).toEqual([]);
  });

  test("every synopsis names a real subcommand and only flags it takes", async () => {
    const problems: string[] = [];
    for (const l of synopsis) {
      for (const p of await miniragProblems(synopsisWords(l.text).slice(1), false)) problems.push(`${l.where} ${l.text}: ${p}`);
    }
    expect(problems).toEqual([]);
  });

  test("every other command of a runnable block names a bun script or file that exists, or a program the docs expect", () => {
    const problems = runnableCommands.filter((c) => !isMinirag(c.words)).flatMap((c) => otherProblems(c.words).map((p) => `${c.where} ${c.text}: ${p}`));
    expect(problems).toEqual([]);
  });

  test("the checks catch what they are for: an unknown subcommand, an unknown flag, a missing argument, a missing file", async () => {
    expect(await miniragProblems(["serach", "x"], true)).toEqual(['unknown subcommand "serach"']);
    expect(await miniragProblems(["query", "x", "--topk", "5"], true)).toEqual(["query does not take --topk"]);
    expect(await miniragProblems(["read-neighbors", "--file-path", "a.md"], true)).toEqual(["read-neighbors: Missing required argument: --chunk-index"]);
    expect(await miniragProblems(["classify", "tr"], true)).toEqual(['unknown subcommand "classify tr"']);
    expect(await miniragProblems(["serve", "--no-watch", "--watchh"], true)).toEqual(["serve does not take --watchh"]);
    expect(await miniragProblems(["find", "--any", "--", "-15%"], true)).toEqual([]);
    expect(otherProblems(["bun", "run", "benchh"])).toEqual(['package.json has no script "benchh"']);
    expect(otherProblems(["bun", "scripts/gone.ts"])).toEqual(["no file scripts/gone.ts"]);
    expect(shellCommands(`BASE_DIR=$HOME/docs minirag-mcp find '"акт"' x # note`)).toEqual([["minirag-mcp", "find", '"акт"', "x"]]);
  });

  test("--help of every subcommand the documents name runs through the compiled binary", async () => {
    const paths = new Map<string, string[]>();
    for (const words of [...runnableCommands.filter((c) => isMinirag(c.words)).map((c) => c.words), ...synopsis.map((l) => synopsisWords(l.text))]) {
      const found = await subcommandOf(words.slice(1));
      if (found) paths.set(found.path.join(" "), found.path);
    }
    expect([...paths.keys()]).toContain("classify try");
    for (const [name, path] of paths) {
      const r = runCli([...path, "--help"], { exe: [BINARY] });
      expect(`${name}: ${r.exitCode} ${r.stderr}`).toBe(`${name}: 0 `);
      expect(r.stdout).toContain(path.at(-1)!);
    }
  }, 120_000);
});
