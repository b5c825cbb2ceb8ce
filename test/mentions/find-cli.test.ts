/** minirag-mcp find from a terminal: terms after --, --any, --json with the MCP fields, human output and exit codes. */
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { runSync } from "../../src/sync/run-sync.ts";
import { readCacheBytesNow } from "../../src/cache-file.ts";
import { mentionCachePath, mentionDocuments, openMentionCache } from "../../src/mentions/mention-cache-file.ts";
import { FIXTURES, TINY_MODEL, runCli, tempDir, testApp } from "../helpers.ts";

let flags: string[];

beforeAll(async () => {
  const { app, root } = await testApp();
  cpSync(join(FIXTURES, "mentions"), root, { recursive: true });
  await runSync(app);
  flags = ["--base-dir", root, "--db-path", app.config.dbPath, "--model-name", TINY_MODEL];
});

describe("minirag-mcp find", () => {
  test("a term starting with a dash is taken after --, with every option before it", () => {
    const r = runCli(["find", ...flags, "--", "-15%"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("1 of 5 documents mention -15% (1 chunk)");
    expect(r.stdout).toContain("отчёт-склад.md");
    expect(r.stdout).toContain("Скидка -15% действует");
  });

  test("--json prints the find_mentions fields", () => {
    const r = runCli(["find", ...flags, "--json", "акт"]);
    expect(r.exitCode).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ searchedDocuments: 5, matchedDocuments: 1, documents: [{ displayPath: "акт-сверки.md", titleMatch: true }] });
    expect(result.forms.map((f: { form: string }) => f.form).sort()).toEqual(["акт", "акта", "актуально"]);
  });

  test("--any keeps documents with at least one term, and quoted terms match whole words", () => {
    const r = runCli(["find", ...flags, "--any", '"акт"', '"контакт"']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("2 of 5 documents");
    expect(r.stdout).toContain("forms: ");
    expect(runCli(["find", ...flags, "--match", "any", '"акт"', '"контакт"']).stdout).toBe(r.stdout);
  });

  test("the terms are shown as they were typed, quotes only where the user put them, joined by the match mode", () => {
    // A quoted term was shown JSON-escaped: "\"акт\"".
    const quoted = runCli(["find", ...flags, '"акт"']);
    expect(quoted.stdout.split("\n")[0]).toBe('1 of 5 documents mention "акт" (1 chunk)');
    expect(quoted.stdout).not.toContain("\\");
    expect(runCli(["find", ...flags, "акт", "сверки"]).stdout.split("\n")[0]).toStartWith("1 of 5 documents mention акт and сверки (");
    expect(runCli(["find", ...flags, "--any", '"акт"', '"контакт"']).stdout.split("\n")[0]).toStartWith('2 of 5 documents mention "акт" or "контакт" (');
  });

  test("no match exits 0 and says what was searched", () => {
    const r = runCli(["find", ...flags, "отсутствует"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("0 of 5 documents");
    expect(r.stdout).toContain("searched the text and titles of all 5 indexed documents");
  });

  test("a bad --match or --offset exits 1 with a hint", () => {
    const bad = runCli(["find", ...flags, "--match", "some", "акт"]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain("--match must be all or any");
    expect(bad.stderr).toContain("--any");
    const offset = runCli(["find", ...flags, "--offset", "x", "акт"]);
    expect(offset.exitCode).toBe(1);
    expect(offset.stderr).toContain("--offset must be a whole number");
  });

  test("each find leaves the normalised text in CACHE_DIR, and the next process answers the same from it", () => {
    const cacheDir = tempDir("minirag-find-cache-");
    const env = { CACHE_DIR: cacheDir };
    const first = runCli(["find", ...flags, "--json", "отчет"], { env });
    expect(first.exitCode).toBe(0);
    const file = mentionCachePath(cacheDir, flags[flags.indexOf("--db-path") + 1]!);
    expect([...mentionDocuments(openMentionCache(readCacheBytesNow(file))!).values()].map((d) => d.doc.chunks.length > 0)).toEqual([true, true, true, true, true]);
    const second = runCli(["find", ...flags, "--json", "отчет"], { env });
    expect(second.stdout).toBe(first.stdout);
  });
});
