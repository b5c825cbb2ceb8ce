/**
 * Acceptance: a team index on Google Cloud Storage, against a GCS emulator
 * (fake-gcs-server behind the XML front LanceDB's storage layer needs:
 * scripts/accept/gcs-emulator.ts) on a free port, reached as a user reaches
 * one: STORAGE_EMULATOR_HOST with GOOGLE_ALLOW_HTTP=true. Machine A (its own
 * HOME) syncs a folder into gs://team/<prefix>; machine B (another HOME, A's
 * folder out of reach) gets the same answers from the bucket alone, and its
 * running server sees A's next sync. gs:// has no sync lease yet (our own
 * signed requests are S3's and Azure's), so a sync says it runs without one;
 * single-document ingests from two machines at once all land, through
 * LanceDB's conditional commits, which the emulator enforces.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, tempDir, waitFor, writeTree } from "../../test/helpers.ts";
import { openSession } from "../bench/lib/mcp-driver.ts";
import { startGcsEmulator, type GcsEmulator } from "./gcs-emulator.ts";
import { copyTeamLibrary, machineEnv, runAs, sameAnswersWithoutTheFolder, TEAM_FILES } from "./team-fixture.ts";

let gcs: GcsEmulator;
const scratch = tempDir("minirag-team-gcs-");
const docs = join(scratch, "library");
const FILES = TEAM_FILES;

beforeAll(async () => {
  gcs = await startGcsEmulator(["team"]);
  copyTeamLibrary(docs);
});
afterAll(() => gcs?.stop());

function machine(name: string, dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return machineEnv(scratch, name, docs, dbPath, { STORAGE_EMULATOR_HOST: gcs.endpoint, GOOGLE_ALLOW_HTTP: "true" }, extra);
}

const cli = runAs;
const json = (run: { stdout: string }) => JSON.parse(run.stdout);

describe("a team index on Google Cloud Storage (an emulator)", () => {
  test("machine B answers query, find, list and read from the bucket exactly as machine A does, without A's folder", async () => {
    const a = machine("a", "gs://team/library");
    const sync = await cli(a, ["sync"]);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.stdout).toContain(`scanned ${FILES}, ingested ${FILES}`);
    expect(sync.stderr).toContain("without a lock");

    const b = machine("b", "gs://team/library", { BASE_DIR: join(scratch, "home-b", "desk") });
    const [query, , find, list, read] = await sameAnswersWithoutTheFolder(a, b, docs, async () => {
      const status = json(await cli(b, ["status", "--json"]));
      expect(status.storage).toEqual({ location: "gs://team/library", endpoint: gcs.endpoint, credentials: "none (an emulator)" });
      expect(status.storageAccess).toEqual({ read: true, write: null });
      expect(status.sourceCount).toBe(FILES);
    });
    expect(query.results.length).toBeGreaterThan(0);
    expect(find.matchedDocuments).toBeGreaterThan(0);
    expect(list.files).toHaveLength(FILES);
    expect(read.text).toContain("oil");
  }, 300_000);

  test("a second sync of an unchanged folder changes nothing; one changed file is read again on its own, and B's running server sees its new text without a restart", async () => {
    const a = machine("a", "gs://team/again");
    expect((await cli(a, ["sync"])).exitCode).toBe(0);
    const again = await cli(a, ["sync"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(`scanned ${FILES}, ingested 0, skipped ${FILES}`);
    const b = machine("b", "gs://team/again");
    const session = await openSession({ command: BINARY, args: [], env: b, cwd: b.HOME });
    const file = join(docs, "1973_oil_crisis-p01.md");
    const before = readFileSync(file, "utf8");
    try {
      const find = async (word: string) => ((await session.client.callTool({ name: "find_mentions", arguments: { terms: [word] } })) as unknown as { structuredContent: { matchedDocuments: number } }).structuredContent.matchedDocuments;
      expect(await find("quetzalcoatlus")).toBe(0);
      writeFileSync(file, `${before}\n\nA quetzalcoatlus paragraph added on machine A.\n`);
      const changed = await cli(a, ["sync"]);
      expect(changed.exitCode, changed.stderr).toBe(0);
      expect(changed.stdout).toContain(`scanned ${FILES}, ingested 1, skipped ${FILES - 1}`);
      expect(await waitFor(async () => (await find("quetzalcoatlus")) === 1, 30_000, "B's server to see A's commit")).toBe(true);
    } finally {
      writeFileSync(file, before);
      await session.close();
    }
  }, 300_000);

  test("single-document ingests from two machines at once: every one lands once (LanceDB's conditional commits, retried)", async () => {
    const side = join(scratch, "side");
    for (let i = 1; i <= 6; i++) writeTree(side, { [`s${i}.md`]: `# Side ${i}\n\nSide document ${i} about harbour cranes.\n` });
    const a = machine("a", "gs://team/together", { BASE_DIR: side });
    const b = machine("b", "gs://team/together", { BASE_DIR: side });
    // The first ingest creates the table: the others then commit into it at once from both machines.
    expect((await cli(a, ["ingest", join(side, "s1.md")])).exitCode).toBe(0);
    const runs = await Promise.all([2, 3, 4, 5, 6].map((i) => cli(i % 2 ? a : b, ["ingest", join(side, `s${i}.md`)])));
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    const listed = json(await cli(a, ["list", "--json"])).files.map((f: { source: string }) => f.source);
    expect(listed.sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => `side/s${i}.md`));
    expect(json(await cli(b, ["status", "--json"])).chunkCount).toBe(6);
  }, 300_000);

  test("a plain-HTTP emulator without GOOGLE_ALLOW_HTTP: one line naming the fix, and status still answers", async () => {
    const env = machine("c", "gs://team/refused", { GOOGLE_ALLOW_HTTP: "" });
    const sync = await cli(env, ["sync"]);
    expect(sync.exitCode).toBe(1);
    expect(sync.stderr).toContain(`${gcs.endpoint}, a plain-HTTP endpoint`);
    expect(sync.stderr).toContain("Set GOOGLE_ALLOW_HTTP=true");
    const status = await cli(env, ["status", "--json"]);
    expect(status.exitCode).toBe(0);
    expect(json(status).configError).toContain("GOOGLE_ALLOW_HTTP=true");
  }, 120_000);
});
