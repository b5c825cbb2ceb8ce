/**
 * Acceptance: a team index on Azure Blob Storage, against Azurite (npm
 * `azurite`, Microsoft's emulator; scripts/accept/azurite.ts) on a free port.
 * Machine A (its own HOME) syncs a folder into az://team/<prefix>; machine B
 * (another HOME, A's folder out of reach) gets the same answers from the
 * container alone. Two syncs started together: exactly one runs (the lease,
 * a blob written with Azure's conditional Put Blob). A wrong key, a SAS token
 * that does not sign and a missing container each give one line naming the
 * fix, and status still answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { tempDir } from "../../test/helpers.ts";
import { readerFollowsWriter } from "./reader-follows.ts";
import { watchStagedRewrite } from "./staged-rewrite.ts";
import { copyTeamLibrary, machineEnv, runAs, sameAnswersWithoutTheFolder, TEAM_FILES } from "./team-fixture.ts";
import { killSyncsAtRandom } from "./killed-syncs.ts";
import { interruptAndResume } from "./interrupted-store.ts";
import { tcpProxy } from "./tcp-proxy.ts";
import { accountSas, AZURITE_ACCOUNT, AZURITE_KEY, createContainer, startAzurite, type Azurite } from "./azurite.ts";

let azurite: Azurite;
const scratch = tempDir("minirag-team-azure-");
const docs = join(scratch, "library");
const FILES = TEAM_FILES;

beforeAll(async () => {
  azurite = await startAzurite();
  await createContainer(azurite.endpoint, "team");
  copyTeamLibrary(docs);
});
afterAll(() => azurite?.stop());

function machine(name: string, dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
  const azure = { AZURE_STORAGE_ACCOUNT_NAME: AZURITE_ACCOUNT, AZURE_STORAGE_ACCOUNT_KEY: AZURITE_KEY, AZURE_STORAGE_ENDPOINT: azurite.endpoint, AZURE_ALLOW_HTTP: "true" };
  return machineEnv(scratch, name, docs, dbPath, azure, extra);
}

/** A machine with a SAS token only. Unset, not empty: LanceDB's Azure client also reads AZURE_* from the environment, and an empty key there wins over the token. */
function withoutKey(env: Record<string, string>): Record<string, string> {
  const { AZURE_STORAGE_ACCOUNT_KEY: _key, ...rest } = env;
  return rest;
}

const cli = runAs;

describe("a team index on Azure Blob Storage (Azurite)", () => {
  test("machine B answers query, find, list and read from the container exactly as machine A does, without A's folder", async () => {
    const a = machine("a", "az://team/library");
    const sync = await cli(a, ["sync"]);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.stdout).toContain(`scanned ${FILES}, ingested ${FILES}`);
    // The lease and the commit-safety probe are ours, signed with the account key: nothing to warn of.
    expect(sync.stderr).toBe("");

    const b = machine("b", "az://team/library", { BASE_DIR: join(scratch, "home-b", "desk") });
    const [query, , find, list, read] = await sameAnswersWithoutTheFolder(a, b, docs, async () => {
      const status = JSON.parse((await cli(b, ["status", "--json"])).stdout);
      expect(status.storage).toEqual({ location: "az://team/library", endpoint: azurite.endpoint, credentials: "AZURE_STORAGE_ACCOUNT_NAME, AZURE_STORAGE_ACCOUNT_KEY" });
      expect(status.storageAccess).toEqual({ read: true, write: true });
      expect(status.sourceCount).toBe(FILES);
      expect(JSON.stringify(status)).not.toContain(AZURITE_KEY);
    });
    expect(query.results.length).toBeGreaterThan(0);
    expect(query.results.every((r: { source: string }) => r.source.startsWith("library/"))).toBe(true);
    expect(find.matchedDocuments).toBeGreaterThan(0);
    expect(list.files).toHaveLength(FILES);
    expect(read.text).toContain("oil");
  }, 300_000);

  test("a reader's server follows the writer: B's open app answers from the container, then from its local copy, the same, and sees A's next sync without a restart", async () => {
    const { warm, afterCommitMs } = await readerFollowsWriter(machine("a", "az://team/follow"), machine("b", "az://team/follow"), docs);
    console.log(`team index: on Azurite, warm hybrid query from the local copy p50 ${warm[7]!.toFixed(1)} ms; first query after the writer's commit ${afterCommitMs.toFixed(1)} ms`);
  }, 300_000);

  test("a second sync of an unchanged folder changes nothing; one changed file is read again on its own, and another machine reads its new text", async () => {
    const a = machine("a", "az://team/again");
    expect((await cli(a, ["sync"])).exitCode).toBe(0);
    const again = await cli(a, ["sync"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(`scanned ${FILES}, ingested 0, skipped ${FILES}`);
    const file = join(docs, "1973_oil_crisis-p01.md");
    const before = readFileSync(file, "utf8");
    writeFileSync(file, `${before}\n\nA paragraph added on machine A.\n`);
    try {
      const changed = await cli(a, ["sync"]);
      expect(changed.exitCode, changed.stderr).toBe(0);
      expect(changed.stdout).toContain(`scanned ${FILES}, ingested 1, skipped ${FILES - 1}`);
      const read = JSON.parse((await cli(machine("b", "az://team/again"), ["read", "--source", "library/1973_oil_crisis-p01.md", "--json"])).stdout);
      expect(read.text).toContain("A paragraph added on machine A.");
    } finally {
      writeFileSync(file, before);
    }
  }, 300_000);

  test("a SAS token instead of the key: the sync, its lease and the reads all work with it", async () => {
    const sas = withoutKey(machine("s", "az://team/by-sas", { AZURE_STORAGE_SAS_TOKEN: accountSas() }));
    const sync = await cli(sas, ["sync"]);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.stderr).toBe("");
    expect(sync.stdout).toContain(`scanned ${FILES}, ingested ${FILES}`);
    const status = JSON.parse((await cli(sas, ["status", "--json"])).stdout);
    expect(status.storage.credentials).toBe("AZURE_STORAGE_ACCOUNT_NAME, AZURE_STORAGE_SAS_TOKEN");
    expect(status.storageAccess).toEqual({ read: true, write: true });
    expect(JSON.stringify(status)).not.toContain("sig=");
    // The same index read with the key gives the same answer.
    const question = ["query", "oil crisis prices", "--json"];
    expect(JSON.parse((await cli(sas, question)).stdout)).toEqual(JSON.parse((await cli(machine("k", "az://team/by-sas"), question)).stdout));
  }, 300_000);

  test("a document too large for one commit is written in batches behind a marker blob, and a reader on another machine sees the old chunks or the new, never a mix", async () => {
    const folder = join(scratch, "large");
    mkdirSync(folder, { recursive: true });
    const [a, b] = ["a", "b"].map((name) => machine(name, "az://team/large", { BASE_DIR: folder }));
    const { before, after, seen, ms } = await watchStagedRewrite(folder, a!, b!);
    console.log(`team index: staged rewrite of ${after} chunks on Azurite took ${Math.round(ms)} ms; the reader's totals meanwhile: ${JSON.stringify([...seen])}`);
    expect(after).toBeGreaterThan(before);
    expect([...seen.keys()].every((n) => n === before || n === after)).toBe(true);
    expect(seen.get(before)).toBeGreaterThan(0);
  }, 300_000);

  test("two syncs started together from A and B: exactly one runs, the other is refused naming the holder's host and process", async () => {
    const [a, b] = [machine("a", "az://team/together"), machine("b", "az://team/together")];
    const runs = await Promise.all([a!, b!].map((m) => cli(m, ["sync"])));
    const ran = runs.filter((r) => r.exitCode === 0);
    const refused = runs.filter((r) => r.exitCode !== 0);
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.stderr).toContain(`Another sync is already running on az://team/together: host ${hostname()} (process ${ran[0]!.pid}) has held it for`);
    // The lease is gone with the sync that held it: the next one runs.
    const next = await cli(b, ["sync"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stdout).toContain(`scanned ${FILES}, ingested 0, skipped ${FILES}`);
  }, 300_000);

  test("a wrong key and a missing container: one line each naming the fix, and status still answers", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [machine("c", "az://team/library", { AZURE_STORAGE_ACCOUNT_KEY: Buffer.from("not the key").toString("base64") }), /The store refused the credentials for az:\/\/team\/library on \S+ \(AuthorizationFailure\)[\s\S]*AZURE_STORAGE_ACCOUNT_KEY/],
      [machine("c", "az://no-such-container/library"), /The container no-such-container does not exist[\s\S]*Create the container/],
      // With a SAS token instead of a key, the same refusal names the same variables.
      [withoutKey(machine("c", "az://team/library", { AZURE_STORAGE_SAS_TOKEN: "sv=2021-08-06&ss=b&srt=sco&sp=rwdlac&se=2030-01-01T00:00:00Z&sig=bm90IHRoZSBzaWduYXR1cmU%3D" })), /The store refused the credentials for az:\/\/team\/library[\s\S]*AZURE_STORAGE_SAS_TOKEN/],
    ];
    for (const [env, fix] of cases) {
      const run = await cli(env, ["query", "oil"]);
      expect(run.exitCode).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines[0]).toStartWith("error: ");
      expect(lines.join("\n")).toMatch(fix);
      expect(lines.length).toBeLessThanOrEqual(2);
      const status = await cli(env, ["status", "--json"]);
      expect(status.exitCode).toBe(0);
      const shown = JSON.parse(status.stdout);
      expect(shown.storageAccess.read).toBe(false);
      expect(shown.storageAccess.problem).toMatch(fix);
      expect(shown.indexError).toMatch(fix);
    }
  }, 120_000);

  test("kill -9 of a sync at random points (10 runs): the next sync on this machine takes its lease blob over at once, finishes, and holds every document once", async () => {
    const takenOver = await killSyncsAtRandom(10, (run) => machine("a", `az://team/killed-${run}`));
    console.log(`team index: on Azurite ${takenOver} of 10 killed syncs left a lease that the next sync took over at once`);
  }, 600_000);

  test("the store stopped in the middle of a sync and started again: the sync fails with one clear line, nothing indexed is lost, the next sync completes", async () => {
    const proxy = tcpProxy({ host: "127.0.0.1", port: Number(new URL(azurite.endpoint).port) });
    try {
      const endpoint = `${proxy.endpoint}/${AZURITE_ACCOUNT}`;
      await interruptAndResume(machine("a", "az://team/interrupted", { AZURE_STORAGE_ENDPOINT: endpoint }), proxy, endpoint, docs);
    } finally {
      proxy.stop();
    }
  }, 300_000);
});
