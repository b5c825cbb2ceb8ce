/**
 * A lost or cut-short file of the index, through the compiled binary: status
 * names the damage and the fix (no raw Lance error), reads answer from the
 * rest with a notice, and the next sync repairs it, so that the index then
 * equals a fresh sync of the tree for its files, keeps the ingest-data items
 * that survived and names the one that did not. A kill -9 during that repair
 * leaves an index the next sync finishes repairing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { cutShort, dataFileOf, deletionFileOf, loseFile, openChunks, textIndexFolder } from "../store/damage-helpers.ts";
import { binaryEnv, killAll, mcpServer, rng, run, start, versionedDoc, writeVersion, type ToolResult } from "./sync-procs.ts";

const root = tempDir("minirag-damage-root-");
/** An index built once (a sync, then one file and two ingest-data items in fragments of their own), copied for each test. */
const pristine = join(tempDir("minirag-damage-db-"), "lancedb");
/** A fresh sync of the same tree: what the repaired index must equal for its files. */
const reference = join(tempDir("minirag-damage-ref-"), "lancedb");
const extra = join(root, "extra.md");

afterAll(killAll);

beforeAll(async () => {
  writeVersion(root, ["harbour", "cranes", "ferries", "tides"], 1);
  writeFileSync(extra, versionedDoc("extra", 1).replace("# extra", "# The boiler room"));
  const env = binaryEnv([root], pristine);
  rmSync(extra);
  expect((await run(["sync"], env)).exitCode).toBe(0);
  writeFileSync(extra, versionedDoc("extra", 1).replace("# extra", "# The boiler room"));
  expect((await run(["ingest", extra], env)).exitCode).toBe(0);
  const notes = tempDir("minirag-damage-notes-");
  for (const [source, text] of [["kept-note", "The pumps run at night."], ["lost-note", "The valves stay shut on Sundays."]] as const) {
    writeFileSync(join(notes, `${source}.txt`), text);
    expect((await run(["ingest-data", `--source=${source}`, join(notes, `${source}.txt`)], env)).exitCode).toBe(0);
  }
  expect((await run(["sync"], binaryEnv([root], reference))).exitCode).toBe(0);
}, 120_000);

/** A copy of the pristine index, and the binary's environment over it. */
function damagedCopy(): { dbPath: string; env: Record<string, string> } {
  const dbPath = join(tempDir("minirag-damage-copy-"), "lancedb");
  cpSync(pristine, dbPath, { recursive: true });
  return { dbPath, env: binaryEnv([root], dbPath) };
}

async function cli(args: string[], env: Record<string, string>) {
  const done = await run(args, env);
  // No raw Lance error reaches the user: no Rust source location, no "lance error:".
  expect(done.stdout + done.stderr).not.toMatch(/\.rs:\d+:\d+|lance error/i);
  return { ...done, json: args.includes("--json") && done.stdout.trim() ? JSON.parse(done.stdout) : undefined };
}

/** Every chunk of every file source, as a fresh sync would write it (ids and ingest times aside). */
async function fileRows(dbPath: string): Promise<string[]> {
  const table = await openChunks(dbPath);
  const rows = await table
    .query()
    .where("source_type = 'file'")
    .select(["source", "chunk_index", "title", "parent_id", "text", "content_hash", "file_size", "mtime", "scheme", "context_lines", "minhash", "vector"])
    .toArray();
  return rows
    .map((r) => JSON.stringify({ ...r, vector: Array.from(r.vector.toArray() as Float32Array, (x) => Math.round(x * 1e4)) }))
    .sort();
}

describe("a data file of the index lost or cut short", () => {
  test.each([
    ["deleted", loseFile, "is missing"],
    ["cut short", cutShort, "bytes where the index recorded"],
  ] as const)("a file's fragment %s: status names it, reads answer from the rest with a notice, and sync re-ingests the file", async (_how, damage, problem) => {
    const { dbPath, env } = damagedCopy();
    damage(await dataFileOf(dbPath, extra));

    const status = (await cli(["status", "--json"], env)).json;
    expect(status.indexDamage).toContain(problem);
    expect(status.indexDamage).toContain("Run sync (sync_start, or minirag-mcp sync) to repair it");
    expect(status.indexError).toBeUndefined();

    const query = (await cli(["query", "harbour crane containers", "--json"], env)).json;
    expect(query.results.length).toBeGreaterThan(0);
    expect(query.results.map((r: { source: string }) => r.source)).not.toContain(extra);
    expect(query.notice).toContain("The index lost");
    const list = (await cli(["list", "--json"], env)).json;
    expect(list.files.find((f: { source: string }) => f.source === extra).state).toBe("not_ingested");
    expect(list.files.find((f: { source: string }) => f.source === "kept-note").state).toBe("ingested");
    expect(list.notice).toContain("The index lost");
    expect((await cli(["find", "ferry", "--json"], env)).json.notice).toContain("The index lost");
    const read = (await cli(["read", join(root, "tides.md"), "--json"], env)).json;
    expect(read.text).toContain("tides paragraph 12");
    expect(read.notice).toContain("The index lost");
    const neighbours = (await cli(["read-neighbors", "--source=kept-note", "--chunk-index=0", "--json"], env)).json;
    expect(neighbours.chunks.length).toBe(1);
    expect(neighbours.notice).toContain("The index lost");
    const refused = await cli(["ingest-data", "--source=new-note", join(root, "tides.md")], env);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("Other writes wait until sync has repaired it.");

    const sync = await cli(["sync", "--json"], env);
    expect(sync.exitCode).toBe(0);
    expect(sync.json.repair).toStartWith("Dropped");
    expect(sync.json.counts.ingested).toBe(1);
    expect(sync.json.lostSources).toBeUndefined();
    expect((await cli(["status", "--json"], env)).json.indexDamage).toBeUndefined();
    expect(await fileRows(dbPath)).toEqual(await fileRows(reference));
    expect((await cli(["read", "--source=kept-note", "--json"], env)).json.text).toContain("The pumps run at night.");
  }, 120_000);

  test("a 1-row ingest-data fragment deleted: status names the lost item; sync keeps the surviving one and names the lost one, which delete then forgets", async () => {
    const { dbPath, env } = damagedCopy();
    loseFile(await dataFileOf(dbPath, "lost-note"));

    const status = (await cli(["status", "--json"], env)).json;
    expect(status.indexDamage).toContain("with 1 chunk in it");
    expect(status.lostSources).toEqual([{ source: "lost-note", sourceType: "data", problem: expect.stringContaining("every chunk was lost") }]);

    const sync = await cli(["sync", "--json"], env);
    expect(sync.exitCode).toBe(0);
    expect(sync.json.repair).toStartWith("Dropped 1 chunk");
    expect(sync.json.counts.ingested).toBe(0);
    expect(sync.json.lostSources.map((l: { source: string }) => l.source)).toEqual(["lost-note"]);
    expect(sync.stderr).toContain("lost-note");
    expect(await fileRows(dbPath)).toEqual(await fileRows(reference));
    expect((await cli(["read", "--source=kept-note", "--json"], env)).json.text).toContain("The pumps run at night.");

    expect((await cli(["delete", "--source=lost-note"], env)).exitCode).toBe(0);
    expect((await cli(["status", "--json"], env)).json.lostSources).toBeUndefined();
  }, 120_000);
});

/**
 * A tree of its own synced, then its first file changed and ingested alone: the change deletes that file's old
 * chunks from the fragment it shares with the others (a deletion file, which a sync's compaction would fold away)
 * in the newest versions.
 */
async function syncedThenIngested(names: string[]) {
  const tree = tempDir("minirag-damage-tree-");
  const [first] = writeVersion(tree, names, 1);
  const dbPath = join(tempDir("minirag-damage-db-"), "lancedb");
  const env = binaryEnv([tree], dbPath);
  expect((await run(["sync"], env)).exitCode).toBe(0);
  writeFileSync(first!, versionedDoc(names[0]!, 2));
  expect((await run(["ingest", first!], env)).exitCode).toBe(0);
  return { tree, dbPath, env };
}

describe("a deletion file of the index lost", () => {
  test("status names it, reads are refused with the fix (none gets past it), and sync drops its fragment and re-ingests those files", async () => {
    const { tree, dbPath, env } = await syncedThenIngested(["piers", "locks", "buoys"]);
    const deletion = await deletionFileOf(dbPath, join(tree, "locks.md"));
    loseFile(deletion);
    const named = `_deletions/${deletion.split("/").at(-1)} is missing`;

    const status = (await cli(["status", "--json"], env)).json;
    expect(status.indexDamage).toContain(named);
    expect(status.indexDamage).toContain("Searches, listings and reads fail until then (every read of the table opens each deletion file).");
    expect(status.indexDamage).toContain("Run sync (sync_start, or minirag-mcp sync) to repair it");
    const query = await cli(["query", "harbour crane", "--json"], env);
    expect(query.exitCode).toBe(1);
    expect(query.stderr).toContain(named);
    expect(query.stderr).toContain("Reads fail until a sync repairs it");

    const sync = await cli(["sync", "--json"], env);
    expect(sync.exitCode).toBe(0);
    expect(sync.json.repair).toStartWith("Dropped");
    expect(sync.json.repair).toContain(named);
    expect((await cli(["status", "--json"], env)).json.indexDamage).toBeUndefined();
    const reference = join(tempDir("minirag-damage-deletions-ref-"), "lancedb");
    expect((await run(["sync"], binaryEnv([tree], reference))).exitCode).toBe(0);
    expect(await fileRows(dbPath)).toEqual(await fileRows(reference));
    expect((await cli(["query", "harbour crane", "--json"], env)).json.results.length).toBeGreaterThan(0);
  }, 120_000);
});

describe("the newest version's manifest cut short", () => {
  test("status and reads name it with the fix instead of Lance's error; sync sets it aside and the index equals a fresh sync", async () => {
    const { tree, dbPath, env } = await syncedThenIngested(["quays", "slips", "moles"]);
    const versions = join(dbPath, "chunks.lance", "_versions");
    // Naming scheme V2: the newest version has the smallest name.
    const newest = readdirSync(versions).filter((n) => n.endsWith(".manifest")).sort()[0]!;
    cutShort(join(versions, newest));

    const status = (await cli(["status", "--json"], env)).json;
    expect(status.indexError).toContain(`its manifest ${join(versions, newest)}`);
    expect(status.indexError).toContain("is cut short or overwritten");
    const query = await cli(["query", "harbour crane", "--json"], env);
    expect(query.exitCode).toBe(1);
    expect(query.stderr).toContain("Run sync");

    const sync = await cli(["sync", "--json"], env);
    expect(sync.exitCode).toBe(0);
    expect(sync.json.repair).toStartWith(`Set aside the damaged newest versions of the index (manifests cut short or overwritten) in ${join(dbPath, "damaged-versions")}: chunks version `);
    expect(sync.json.repair).toContain("; the table went on from the version before.");
    expect(readdirSync(join(dbPath, "damaged-versions", "chunks.lance", "_versions"))).toEqual([expect.stringMatching(new RegExp(`^\\d+-${newest}$`))]);
    expect((await cli(["status", "--json"], env)).json.indexError).toBeUndefined();
    const reference = join(tempDir("minirag-damage-manifest-ref-"), "lancedb");
    expect((await run(["sync"], binaryEnv([tree], reference))).exitCode).toBe(0);
    expect(await fileRows(dbPath)).toEqual(await fileRows(reference));
  }, 120_000);
});

describe("the full-text index's files deleted", () => {
  test("status names the index; an unchanged sync rebuilds it, and keyword search finds again", async () => {
    const { dbPath, env } = damagedCopy();
    rmSync(await textIndexFolder(dbPath), { recursive: true });
    expect((await cli(["status", "--json"], env)).json.indexWarning).toContain("The text_search index is missing or unreadable");
    const sync = await cli(["sync", "--json"], env);
    expect(sync.exitCode).toBe(0);
    expect(sync.json.counts.ingested + sync.json.counts.moved + sync.json.counts.deleted).toBe(0);
    expect(sync.json.repair).toBe("Rebuilt the text_search index, which was missing or unreadable.");
    expect((await cli(["status", "--json"], env)).json.indexWarning).toBeUndefined();
    const keyword = await cli(["query", "harbour crane", "--json"], { ...env, RAG_HYBRID_WEIGHT: "1" });
    expect(keyword.stderr).not.toContain("keyword search failed");
    expect(keyword.json.results.length).toBeGreaterThan(0);
  }, 120_000);
});

describe("an MCP server over a damaged index", () => {
  test("names the damage and answers with a notice while a CLI sync repairs the index beside it; its own sync_start then names the lost item; afterwards no notice", async () => {
    const { dbPath, env } = damagedCopy();
    // Both found before either goes: a lost file stops the helper's own scan.
    for (const file of [await dataFileOf(dbPath, extra), await dataFileOf(dbPath, "lost-note")]) loseFile(file);
    const server = await mcpServer(env);
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const result: ToolResult = await server.call(name, args);
        expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
        return result.structuredContent!;
      };
      expect((await call("status")).indexDamage).toContain("2 data files of the index");
      expect((await call("query_documents", { query: "harbour crane" })).notice).toContain("The index lost 13 chunks");
      expect((await call("list_files")).notice).toContain("The index lost");
      expect((await call("read_file", { source: "kept-note" })).notice).toContain("The index lost");

      // Readers in this process while another process repairs: every answer comes back.
      const sync = start(["sync", "--json"], env);
      let syncing = true;
      const finished = sync.done.finally(() => (syncing = false));
      let answered = 0;
      while (syncing) {
        expect((await call("query_documents", { query: "harbour crane" })).results.length).toBeGreaterThan(0);
        answered++;
      }
      expect((await finished).exitCode).toBe(0);
      expect(answered).toBeGreaterThan(0);

      const { jobId } = await call("sync_start");
      let job = await call("sync_status", { jobId });
      while (job.state === "pending" || job.state === "running") job = await call("sync_status", { jobId });
      expect(job.state).toBe("succeeded");
      expect(job.lostSources.map((l: { source: string }) => l.source)).toEqual(["lost-note"]);
      const after = await call("query_documents", { query: "boiler room" });
      expect(after.notice).toBeUndefined();
      expect(after.results.map((r: { source: string }) => r.source)).toContain(extra);
      expect((await call("status")).indexDamage).toBeUndefined();
    } finally {
      await server.client.close();
    }
  }, 120_000);
});

describe("a sync killed with SIGKILL while it repairs", () => {
  const seed = Number(process.env.DAMAGE_KILL_SEED ?? Math.floor(Math.random() * 2 ** 32));
  const RUNS = 6;

  test("leaves an index that status reads without a raw error, and the next sync finishes the repair", async () => {
    console.error(`damaged-index kill test: seed ${seed} (replay with DAMAGE_KILL_SEED=${seed})`);
    const random = rng(seed);
    // A sync timed once: its length, and when the repair's commit (the first new manifest) lands.
    const timed = damagedCopy();
    loseFile(await dataFileOf(timed.dbPath, extra));
    const versions = () => readdirSync(join(timed.dbPath, "chunks.lance", "_versions")).length;
    const before = versions();
    const started = performance.now();
    const timedSync = start(["sync"], timed.env);
    let repairMs = 0;
    let running = true;
    const timedDone = timedSync.done.finally(() => (running = false));
    while (running && repairMs === 0) {
      if (versions() > before) repairMs = performance.now() - started;
      await Bun.sleep(2);
    }
    expect((await timedDone).exitCode).toBe(0);
    const syncMs = performance.now() - started;
    const outcomes: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { dbPath, env } = damagedCopy();
      for (const file of [await dataFileOf(dbPath, extra), await dataFileOf(dbPath, "lost-note")]) loseFile(file);
      // Half the kills land within 150 ms of when the repair committed in the timed sync; the rest anywhere in a sync.
      const delay = i % 2 === 0 ? Math.max(0, repairMs + (random() - 0.5) * 300) : random() * syncMs;
      const sync = start(["sync"], env);
      await Bun.sleep(delay);
      sync.proc.kill(9);
      const killed = await sync.done;
      const status = (await cli(["status", "--json"], env)).json;
      expect(status.indexError).toBeUndefined();
      outcomes.push(`${Math.round(delay)} ms: ${killed.signalCode === "SIGKILL" ? (status.indexDamage ? "killed before the repair" : "killed after the repair") : "finished first"}`);
      const next = await cli(["sync", "--json"], env);
      expect(next.exitCode).toBe(0);
      expect(await fileRows(dbPath)).toEqual(await fileRows(reference));
      expect(next.json.lostSources.map((l: { source: string }) => l.source)).toEqual(["lost-note"]);
      expect((await cli(["read", "--source=kept-note", "--json"], env)).json.text).toContain("The pumps run at night.");
    }
    console.error(`damaged-index kill test (sync ${Math.round(syncMs)} ms, repair committed at ${Math.round(repairMs)} ms): ${outcomes.join("; ")}`);
  }, 300_000);
});
