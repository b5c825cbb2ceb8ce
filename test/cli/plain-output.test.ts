import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { escapeControls } from "../../src/text/control-escapes.ts";
import { colourWanted } from "../../src/config/load-config.ts";
import { runCli, tempDir, writeTree } from "../helpers.ts";

const ESC = "\u001b";

describe("help text in a pipe", () => {
  test.each([[["--help"]], [["list", "--help"]], [["read-neighbors", "--help"]]])("%o piped into another program has no ANSI escape bytes", (args: string[]) => {
    // runCli pipes stdout, as `minirag-mcp --help | less` or a CI log does; no TEST or CI variable hides the colours.
    const r = runCli(args, { env: { NO_COLOR: undefined, CI: undefined, TEST: undefined, TERM: "xterm-256color" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("USAGE");
    expect(r.stdout).not.toContain(ESC);
  });

  test.each([
    ["a terminal with no NO_COLOR", true, true, {}],
    ["a terminal with NO_COLOR=1", false, true, { NO_COLOR: "1" }],
    ["a terminal with NO_COLOR=true (any non-empty value counts)", false, true, { NO_COLOR: "true" }],
    ["a terminal with an empty NO_COLOR", true, true, { NO_COLOR: "" }],
    ["a terminal with TERM=dumb", false, true, { TERM: "dumb" }],
    ["a pipe", false, false, {}],
  ])("help on %s is coloured: %p", (_name, expected, isTty, env) => {
    expect(colourWanted(isTty, env)).toBe(expected);
  });
});

describe("control characters in human output", () => {
  test.each([
    ["a\nb.md", "a\\nb.md"],
    ["tab\there.md", "tab\\there.md"],
    ["bell\u0007.md", "bell\\x07.md"],
    ["esc\u001b[31mred.md", "esc\\x1b[31mred.md"],
    ["del\u007f.md", "del\\x7f.md"],
    ["c1\u0085.md", "c1\\x85.md"],
    ["back\\slash.md", "back\\slash.md"],
    ["Отчёт 2024.md", "Отчёт 2024.md"],
  ])("%o prints as %o", (raw, shown) => {
    expect(escapeControls(raw)).toBe(shown);
  });

  test("list prints a file whose name holds a newline on one line; --json keeps the exact name", () => {
    const root = tempDir();
    writeTree(root, { "first\nsecond.md": "# One\n\nText.", "plain.md": "# Two\n\nText." });
    const base = ["list", "--base-dir", root, "--db-path", join(tempDir(), "db")];
    const human = runCli(base);
    expect(human.exitCode).toBe(0);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.endsWith("first\\nsecond.md"))).toBe(true);
    const json = runCli([...base, "--json"]);
    expect(JSON.parse(json.stdout).files.map((f: { displayPath: string }) => f.displayPath).sort()).toEqual(["first\nsecond.md", "plain.md"]);
  });
});

describe("per-file problems", () => {
  test("a message that names its file is printed once, not after the path again", async () => {
    const { fileProblem } = await import("../../src/cli/output.ts");
    expect(fileProblem("/d/a.pdf", "/d/a.pdf is a scanned PDF")).toBe("/d/a.pdf is a scanned PDF");
    expect(fileProblem("/d/a.txt", "not valid text in any known encoding")).toBe("/d/a.txt: not valid text in any known encoding");
  });

  test("a name holding a newline is shown as list shows it, in the message as well", async () => {
    const { fileProblem } = await import("../../src/cli/output.ts");
    expect(fileProblem("/d/a\nb.txt", "not valid text")).toBe("/d/a\\nb.txt: not valid text");
    expect(fileProblem("/d/a\nb.pdf", "/d/a\nb.pdf is a scanned PDF")).toBe("/d/a\\nb.pdf is a scanned PDF");
  });
});

describe("a name typed back as list shows it", () => {
  test("read, query's lines and delete: the escaped name is the file, and every line of output stays one line", () => {
    const root = tempDir();
    writeTree(root, { "first\nsecond.md": "# One\n\nA walrus note.", "plain.md": "# Two\n\nText." });
    const base = ["--base-dir", root, "--db-path", join(tempDir(), "db")];
    expect(runCli(["sync", ...base]).exitCode).toBe(0);
    const typed = join(root, "first\\nsecond.md");
    const read = runCli(["read", typed, ...base]);
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toBe("# One\n\nA walrus note.");
    const query = runCli(["query", "walrus", ...base]);
    expect(query.stdout).toContain("first\\nsecond.md #0");
    expect(query.stdout.split("\n").filter((l) => l.includes("second.md")).every((l) => l.includes("first\\nsecond.md"))).toBe(true);
    const deleted = runCli(["delete", typed, ...base]);
    expect(deleted.stdout.trimEnd()).toBe(`deleted 1 chunks of ${join(root, "first\\nsecond.md")}`);
  });

  test("delete of a file gone from disk: the escaped name is the indexed file, and a name indexed as typed comes first", () => {
    const root = tempDir();
    writeTree(root, { "gone\nnow.md": "# Gone\n\nA heron note.", "kept\\nliteral.md": "# Literal\n\nA backslash and an n.", "kept\nliteral.md": "# Newline\n\nA real line break." });
    const base = ["--base-dir", root, "--db-path", join(tempDir(), "db")];
    expect(runCli(["sync", ...base]).exitCode).toBe(0);
    rmSync(join(root, "gone\nnow.md"));
    const deleted = runCli(["delete", join(root, "gone\\nnow.md"), ...base]);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stdout.trimEnd()).toBe(`deleted 1 chunks of ${join(root, "gone\\nnow.md")}`);
    // Both spellings indexed: the one typed is deleted, then the other.
    rmSync(join(root, "kept\\nliteral.md"));
    rmSync(join(root, "kept\nliteral.md"));
    const literal = runCli(["delete", "--json", join(root, "kept\\nliteral.md"), ...base]);
    expect(JSON.parse(literal.stdout).source).toBe(join(root, "kept\\nliteral.md"));
    const newline = runCli(["delete", "--json", join(root, "kept\\nliteral.md"), ...base]);
    expect(JSON.parse(newline.stdout).source).toBe(join(root, "kept\nliteral.md"));
    const none = runCli(["delete", join(root, "kept\\nliteral.md"), ...base]);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain("is not in the index");
  });
});
