/**
 * Files whose names are not UTF-8, as archives from old Russian systems hold
 * them: CP1251 (Windows) and CP866 (DOS) bytes, written here as raw bytes.
 * They were reported as "a broken link, or was removed" and left out of
 * list. Now the compiled binary indexes them under `cp1251:`/`cp866:` forms
 * (native/file-names.ts) that lead back to the exact bytes in every later
 * process: list, query, read (CLI and MCP), move, rename, delete and re-sync.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer, readRows, run } from "./sync-procs.ts";

afterAll(killAll);

/** A text's bytes in a single-byte code page, from the decoder's own table. */
function encode(text: string, encoding: "windows-1251" | "ibm866"): Buffer {
  const decoder = new TextDecoder(encoding);
  const table = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b]));
  return Buffer.from([...text].map((c) => table.get(c)!));
}

const root = tempDir("minirag-byte-names-");
const dbPath = join(tempDir("minirag-byte-names-db-"), "lancedb");
const env = binaryEnv([root], dbPath);
/** A path under the root from raw parts: strings as UTF-8, Buffers as they are. */
const raw = (...parts: (string | Buffer)[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts.flatMap((p, i) => [...(i ? [Buffer.from("/")] : []), typeof p === "string" ? Buffer.from(p) : p])]);

const report = encode("Отчёт о работе.txt", "windows-1251");
const minutes = encode("Протокол.md", "ibm866");
const archive = encode("Архив 1998", "windows-1251");
const REPORT = join(root, "cp1251:Отчёт о работе.txt");
const MINUTES = join(root, "cp866:Протокол.md");
const ARCHIVE = join(root, "cp1251:Архив 1998");

const json = (r: { stdout: string }) => JSON.parse(r.stdout);
const states = async () => Object.fromEntries(json(await run(["list", "--json"], env)).files.map((f: { source: string; state: string }) => [f.source, f.state]));

describe("file names in CP1251 and CP866", () => {
  test("are synced and listed under their forms, found by query, read by the CLI and the MCP server, and skipped by the next sync", async () => {
    writeFileSync(raw(report), "The quarterly report on the harbour cranes and their maintenance.");
    writeFileSync(raw(minutes), "# Minutes\n\nThe board approved the night ferry timetable.");
    mkdirSync(raw(archive));
    writeFileSync(raw(archive, encode("Смета.txt", "ibm866")), "Estimate for blue containers, 1998.");
    writeFileSync(join(root, "plain.md"), "A plain UTF-8 name.");

    const sync = await run(["sync", "--json"], env);
    expect(sync.stderr).toBe("");
    expect(sync.exitCode).toBe(0);
    expect(json(sync).counts).toMatchObject({ scanned: 4, ingested: 4, unreadable: 0, failed: 0 });
    expect(await states()).toEqual({ [REPORT]: "ingested", [MINUTES]: "ingested", [join(ARCHIVE, "cp866:Смета.txt")]: "ingested", [join(root, "plain.md")]: "ingested" });
    const listed = await run(["list"], env);
    expect(listed.stdout).toContain("cp1251:Отчёт о работе.txt");
    expect(listed.stdout).toContain("cp1251:Архив 1998/cp866:Смета.txt");

    const hits = json(await run(["query", "quarterly report harbour cranes", "--json"], env)).results;
    expect(hits[0]).toMatchObject({ source: REPORT, title: "Отчёт о работе" });
    const read = await run(["read", REPORT], env);
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toContain("The quarterly report on the harbour cranes");
    const { client, call } = await mcpServer(env);
    try {
      const served = await call("read_file", { filePath: join(ARCHIVE, "cp866:Смета.txt") });
      expect(served.isError).toBeFalsy();
      expect(served.structuredContent!.text).toContain("Estimate for blue containers");
      const ingested = await call("ingest_file", { filePath: MINUTES });
      expect(ingested.isError).toBeFalsy();
      expect(ingested.structuredContent).toMatchObject({ source: MINUTES, title: "Minutes" });
    } finally {
      await client.close();
    }

    const again = await run(["sync", "--json"], env);
    expect(json(again).counts).toMatchObject({ scanned: 4, skipped: 4, ingested: 0, deleted: 0, moved: 0 });
    const scoped = await run(["sync", ARCHIVE, "--json"], env);
    expect(json(scoped).counts).toMatchObject({ scanned: 1, skipped: 1, ingested: 0, deleted: 0 });
  });

  test("a move keeps the chunks, a rename reads the file again, and a file removed on disk is deleted", async () => {
    const before = (await readRows(dbPath)).get(MINUTES)!;
    renameSync(raw(minutes), raw(archive, minutes));
    const moved = await run(["sync", "--json"], env);
    expect(json(moved).counts).toMatchObject({ moved: 1, ingested: 0, deleted: 0 });
    const after = (await readRows(dbPath)).get(join(ARCHIVE, "cp866:Протокол.md"))!;
    expect(after.map((r) => r.text)).toEqual(before.map((r) => r.text));

    renameSync(raw(report), raw(encode("Отчёт за 1998.txt", "windows-1251")));
    const renamed = await run(["sync", "--json"], env);
    expect(json(renamed).counts).toMatchObject({ ingested: 1, deleted: 1, moved: 0 });
    expect((await states())[join(root, "cp1251:Отчёт за 1998.txt")]).toBe("ingested");

    rmSync(raw(archive, encode("Смета.txt", "ibm866")));
    const removed = await run(["sync", "--json"], env);
    expect(json(removed).counts).toMatchObject({ deleted: 1, ingested: 0, unreadable: 0 });
  });

  test("delete drops a file from the index by its form and leaves the file on disk", async () => {
    const path = join(ARCHIVE, "cp866:Протокол.md");
    const deleted = await run(["delete", path], env);
    expect(deleted.exitCode).toBe(0);
    expect((await readRows(dbPath)).has(path)).toBe(false);
    expect(existsSync(raw(archive, minutes))).toBe(true);
    expect((await states())[path]).toBe("not_ingested");
  });
});
