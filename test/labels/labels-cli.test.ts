/** The CLI's label flags and human output, run as a subprocess from source. */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";

const root = tempDir("minirag-labels-cli-");
const env = { MODEL_NAME: TINY_MODEL, BASE_DIR: root, DB_PATH: join(tempDir("minirag-db-"), "lancedb") };

beforeAll(() => {
  writeTree(root, {
    ".minirag/classify.toml": `[facets.kind]\ndefault = "note"\nvalues.note = { description = "A note." }\nvalues.minutes = { description = "Minutes.", paths = ["minutes"] }\nvalues.report = { description = "Report.", paths = ["reports"] }\n`,
    "minutes/2026-08-05.md": "# Weekly sync\n\nThe pump order was approved.",
    "reports/q3.md": "Дата: 01.10.2026\n\n# Q3 report\n\nPump sales grew.",
    "notes/pump.md": "# Pump\n\nA pump note.",
  });
  expect(runCli(["sync"], { env }).exitCode).toBe(0);
});

describe("label flags on the CLI", () => {
  test("list shows each file's date, its source and its labels", () => {
    const { stdout, exitCode } = runCli(["list"], { env });
    expect(exitCode).toBe(0);
    expect(stdout).toContain("minutes/2026-08-05.md 2026-08-05 (name) kind=minutes");
    expect(stdout).toContain("reports/q3.md 2026-10-01 (document) kind=report");
  });

  test("--label is repeatable, a repeated facet matching any of its values; --sort date puts the newest first", () => {
    const { stdout } = runCli(["list", "--label", "kind=minutes", "--label=kind=report", "--sort", "date"], { env });
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("reports/q3.md");
    expect(lines[1]).toContain("minutes/2026-08-05.md");
  });

  test("query takes --label and --date-from and prints labels on its Sources lines", () => {
    const { stdout, exitCode } = runCli(["query", "pump", "--label", "kind=report", "--date-from", "2026-09-01"], { env });
    expect(exitCode).toBe(0);
    const sources = stdout.slice(stdout.indexOf("Sources:"));
    expect(sources).toContain("reports/q3.md 2026-10-01 (document) kind=report");
    expect(sources).not.toContain("notes/pump.md");
  });

  test("--json carries filterCounts as the MCP tool does", () => {
    const { stdout } = runCli(["list", "--json", "--date-to", "2026-08-31"], { env });
    const listing = JSON.parse(stdout);
    expect(listing.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
    expect(listing.files.every((f: any) => f.date <= "2026-08-31")).toBe(true);
  });

  test("a facet added after the documents were indexed leaves them out with a warning that says a sync labels them", () => {
    const late = tempDir("minirag-labels-late-");
    const lateEnv = { MODEL_NAME: TINY_MODEL, BASE_DIR: late, DB_PATH: join(tempDir("minirag-db-"), "lancedb") };
    writeTree(late, { "minutes/a.md": "# A\n\nMinutes.", "notes/b.md": "# B\n\nA note." });
    expect(runCli(["sync"], { env: lateEnv }).exitCode).toBe(0);
    writeTree(late, { ".minirag/classify.toml": `[facets.kind]\ndefault = "note"\nvalues.note = { description = "A note." }\nvalues.minutes = { description = "Minutes.", paths = ["minutes"] }\n` });
    const before = runCli(["list", "--label", "kind=minutes"], { env: lateEnv });
    expect(before.stderr).toContain("warn: 2 documents in scope were left out only because they have no label for a filtered facet; after classify.toml is written or changed, a sync labels every document again from its stored text (minirag-mcp sync)");
    expect(runCli(["sync"], { env: lateEnv }).exitCode).toBe(0);
    const after = runCli(["list", "--label", "kind=minutes"], { env: lateEnv });
    expect(after.stdout).toContain("minutes/a.md");
    expect(after.stderr).not.toContain("left out");
  });

  test("a bad --label or --sort fails with the fix", () => {
    const label = runCli(["list", "--label", "kind"], { env });
    expect(label.exitCode).toBe(1);
    expect(label.stderr).toContain("--label takes facet=value");
    const value = runCli(["query", "pump", "--label", "kind=memo"], { env });
    expect(value.exitCode).toBe(1);
    expect(value.stderr).toContain('Unknown value "memo" for facet kind. Its values: note, minutes, report.');
    expect(runCli(["list", "--sort", "name"], { env }).stderr).toContain("--sort takes date");
  });

  test("a malformed date names the CLI flag, not the MCP field", () => {
    const from = runCli(["list", "--date-from", "05.08.2026"], { env });
    expect(from.exitCode).toBe(1);
    expect(from.stderr).toContain('--date-from must be a date written YYYY-MM-DD, got "05.08.2026"');
    expect(from.stderr).toContain("--date-from 2026-08-05");
    const to = runCli(["query", "pump", "--date-to", "2026-02-30"], { env });
    expect(to.exitCode).toBe(1);
    expect(to.stderr).toContain('--date-to must be a date written YYYY-MM-DD, got "2026-02-30"');
    for (const stderr of [from.stderr, to.stderr]) expect(stderr).not.toMatch(/dateFrom|dateTo/);
  });

  test("classify try prints each facet with its confidence and source, and the date; --json the same as data", () => {
    const human = runCli(["classify", "try", join(root, "reports/q3.md")], { env });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toBe("kind: report (1.000, path)\ndate: 2026-10-01 (document)\n");
    const json = JSON.parse(runCli(["classify", "try", join(root, "notes/pump.md"), "--json"], { env }).stdout);
    expect(json).toMatchObject({ facets: { kind: { value: "note", source: "default", confidence: 1 } }, dateSource: "file", problems: {} });
  });
});
