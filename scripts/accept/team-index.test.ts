/**
 * Acceptance: a team index on a real S3 server (moto_server, PyPI's
 * moto[server], started on a free port; scripts/accept/moto-server.ts).
 *
 * Machine A (its own HOME) syncs a folder into s3://team/<prefix>; machine B
 * (another HOME, A's folder moved out of reach) asks the same questions and
 * must get the same answers from the bucket alone. Two syncs started together
 * from A and B: exactly one runs, the other names the holder. A sync killed
 * with kill -9 leaves its lease; the next sync is refused until the lease
 * expires, then takes it over and finishes, with every document indexed once.
 * A wrong key, a missing bucket and an unreachable endpoint each give one line
 * naming the fix, and status still answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { s3Objects } from "../../src/store/s3-objects.ts";
import { signS3 } from "../../src/store/sigv4.ts";
import { LEASE_MS } from "../../src/sync/lease-record.ts";
import { LEASE_KEY } from "../../src/sync/sync-lease.ts";
import { BINARY, tempDir, writeTree } from "../../test/helpers.ts";
import { createAccessKey, createBucket, startMoto, type Moto } from "./moto-server.ts";
import { tcpProxy } from "./tcp-proxy.ts";
import { watchStagedRewrite } from "./staged-rewrite.ts";
import { readerFollowsWriter } from "./reader-follows.ts";
import { openSession } from "../bench/lib/mcp-driver.ts";
import { copyTeamLibrary, machineEnv, runAs, TEAM_FILES, type Run } from "./team-fixture.ts";
import { killSyncsAtRandom, leaseOf } from "./killed-syncs.ts";
import { interruptAndResume } from "./interrupted-store.ts";

let moto: Moto;
const scratch = tempDir("minirag-team-");
const docs = join(scratch, "library");
const FILES = TEAM_FILES;

beforeAll(async () => {
  moto = await startMoto();
  await createBucket(moto.endpoint, "team");
  copyTeamLibrary(docs);
});
afterAll(() => moto?.stop());

interface Machine {
  home: string;
  env: Record<string, string>;
}

function machine(name: string, dbPath: string, extra: Record<string, string> = {}): Machine {
  const s3 = { AWS_ACCESS_KEY_ID: "team-key", AWS_SECRET_ACCESS_KEY: "team-secret", AWS_ENDPOINT_URL: moto.endpoint, AWS_ALLOW_HTTP: "true" };
  const env = machineEnv(scratch, name, docs, dbPath, s3, extra);
  return { home: env.HOME!, env };
}

const cli = (m: Machine, args: string[]): Promise<Run> => runAs(m.env, args);

const json = (run: Run) => JSON.parse(run.stdout);

/** The lease object in the bucket, read with a signed request as the program reads it, or null. */
const lease = (prefix: string) => leaseOf(machine("reader", `s3://team/${prefix}`).env);

describe("a team index on S3 (moto_server)", () => {
  test("machine B answers query, find, list and read from the bucket exactly as machine A does, without A's folder", async () => {
    const a = machine("a", "s3://team/library");
    const started = performance.now();
    const sync = await cli(a, ["sync"]);
    expect(sync.stderr).toBe("");
    expect(sync.exitCode).toBe(0);
    console.log(`team index: sync of ${FILES} files to moto took ${Math.round(performance.now() - started)} ms`);
    expect(sync.stdout).toContain(`scanned ${FILES}, ingested ${FILES}`);

    // Files are named by the root's folder name and the path inside it, the same on every machine.
    const questions = [
      ["query", "oil crisis prices", "--json"],
      ["query", "table", "--scope", "library/formats", "--json"],
      ["find", "Yom Kippur", "--json"],
      ["find", "the", "--scope", "library/formats", "--json"],
      ["list", "--json"],
      ["list", "--scope", "library/formats", "--json"],
      ["read", "--source", "library/1973_oil_crisis-p01.md", "--json"],
      ["read-neighbors", "--source", "library/1973_oil_crisis-p01.md", "--chunk-index", "1", "--json"],
    ];
    const fromA = await Promise.all(questions.map((q) => cli(a, q)));
    // A names its own files by path as well; the answers carry the shared names.
    const byPath = json(await cli(a, ["read", join(docs, "1973_oil_crisis-p01.md"), "--json"]));
    expect(byPath).toEqual(json(fromA[6]!));
    expect(json(await cli(a, ["query", "table", "--scope", join(docs, "formats"), "--json"]))).toEqual(json(fromA[1]!));
    renameSync(docs, `${docs}.away`);
    try {
      // B's own root is another folder: it has none of A's files, at any path.
      const b = machine("b", "s3://team/library", { BASE_DIR: join(scratch, "home-b", "desk") });
      mkdirSync(b.env.BASE_DIR!, { recursive: true });
      for (const [i, q] of questions.entries()) {
        const answer = await cli(b, q);
        expect(answer.exitCode, `${q.join(" ")}: ${answer.stderr}`).toBe(0);
        expect(json(answer), q.join(" ")).toEqual(json(fromA[i]!));
      }
      const { results, sources } = json(fromA[0]!) as { results: { source: string }[]; sources: { source: string; displayPath: string }[] };
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.source.startsWith("library/"))).toBe(true);
      expect(sources.every((s) => s.source.startsWith("library/") && s.displayPath === s.source)).toBe(true);
      expect(json(fromA[1]!).results.every((r: { source: string }) => r.source.startsWith("library/formats/"))).toBe(true);
      expect(json(fromA[2]!).matchedDocuments).toBeGreaterThan(0);
      expect(json(fromA[3]!).documents.every((d: { source: string }) => d.source.startsWith("library/formats/"))).toBe(true);
      expect(json(fromA[4]!).files).toHaveLength(FILES);
      expect(json(fromA[4]!).files.every((f: { state: string }) => f.state === "ingested")).toBe(true);
      expect(json(fromA[5]!).files.length).toBeGreaterThan(0);
      expect(json(fromA[5]!).files.length).toBeLessThan(FILES);
      expect(json(fromA[6]!).text).toContain("oil");
      expect(json(fromA[7]!).chunks.length).toBeGreaterThan(1);
      const status = json(await cli(b, ["status", "--json"]));
      expect(status.storage).toEqual({ location: "s3://team/library", endpoint: moto.endpoint, credentials: "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY", region: "us-east-1" });
      expect(status.storageAccess).toEqual({ read: true, write: true });
      expect(status.sourceCount).toBe(FILES);
      expect(JSON.stringify(status)).not.toContain("team-secret");
    } finally {
      renameSync(`${docs}.away`, docs);
    }
  }, 300_000);

  test("B's MCP server answers status (storage, access) and query_documents from the bucket, and does not watch by default", async () => {
    expect((await cli(machine("a", "s3://team/served"), ["sync"])).exitCode).toBe(0);
    const b = machine("b", "s3://team/served");
    const session = await openSession({ command: BINARY, args: [], env: b.env, cwd: b.home });
    try {
      const status = (await session.client.callTool({ name: "status", arguments: {} })).structuredContent as Record<string, any>;
      expect(status.storage.location).toBe("s3://team/served");
      expect(status.storageAccess).toEqual({ read: true, write: true });
      expect(status.sourceCount).toBe(FILES);
      expect(status.watch.enabled).toBe(false);
      const answer = (await session.client.callTool({ name: "query_documents", arguments: { query: "oil crisis prices" } })).structuredContent as { results: { source: string }[] };
      expect(answer.results.length).toBeGreaterThan(0);
      expect(answer.results[0]!.source.startsWith("library/")).toBe(true);
    } finally {
      await session.close();
    }
  }, 120_000);

  test("a file that fails to convert is remembered in the bucket under its shared name: neither this machine nor another with its own copy tries it again", async () => {
    const copies = ["a", "b"].map((name) => join(scratch, `failing-${name}`, "notes"));
    const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    for (const root of copies) {
      writeTree(root, { "broken.ipynb": "this is not a notebook", "fine.md": "# Fine\n\nFine text." });
      utimesSync(join(root, "broken.ipynb"), then, then);
    }
    const [a, b] = copies.map((root, i) => machine(["a", "b"][i]!, "s3://team/failing", { BASE_DIR: root }));
    const first = await cli(a!, ["sync", "--json"]);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(json(first).counts).toMatchObject({ ingested: 1, failed: 1 });
    for (const m of [a!, b!]) {
      const again = await cli(m, ["sync", "--json"]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(json(again).counts).toMatchObject({ failed: 0, failedBefore: 1 });
      expect(again.stderr).toContain("broken.ipynb");
      const listed = json(await cli(m, ["list", "--json"])).files as { source: string; state: string }[];
      expect(listed.find((f) => f.source === "notes/broken.ipynb")?.state).toBe("failed");
    }
    expect(json(await cli(b!, ["status", "--json"])).failedFileCount).toBe(1);
  }, 120_000);

  test("a reader's server follows the writer: B's open app sees A's next sync on its next query, without a restart", async () => {
    const { warm, afterCommitMs } = await readerFollowsWriter(machine("a", "s3://team/follow").env, machine("b", "s3://team/follow").env, docs);
    // Warm timings of B's hybrid query against moto on this machine (no added latency), for docs/team-index.md.
    console.log(`team index: warm hybrid query from the local copy (${FILES} documents), p50 ${warm[7]!.toFixed(1)} ms, max ${warm.at(-1)!.toFixed(1)} ms`);
    console.log(`team index: first query after the writer's commit took ${afterCommitMs.toFixed(1)} ms`);
  }, 300_000);

  test("a document too large for one commit is written in batches on S3, and a reader on another machine sees the old chunks or the new, never a mix", async () => {
    const folder = join(scratch, "large");
    mkdirSync(folder, { recursive: true });
    const [a, b] = ["a", "b"].map((name) => machine(name, "s3://team/large", { BASE_DIR: folder }).env);
    const { before, after, seen, ms } = await watchStagedRewrite(folder, a!, b!);
    console.log(`team index: staged rewrite of ${after} chunks on moto took ${Math.round(ms)} ms; the reader's totals meanwhile: ${JSON.stringify([...seen])}`);
    expect(after).toBeGreaterThan(before);
    expect([...seen.keys()].every((n) => n === before || n === after)).toBe(true);
    expect(seen.get(before)).toBeGreaterThan(0);
  }, 300_000);

  test("single-document ingests from B while A's sync creates the index: all of them and all of A's documents are indexed once (no create overwrites another)", async () => {
    const side = join(scratch, "side");
    for (let i = 1; i <= 8; i++) writeTree(side, { [`s${i}.md`]: `# Side ${i}\n\nSide document ${i} about harbour cranes.\n` });
    const a = machine("a", "s3://team/created-together");
    const b = machine("b", "s3://team/created-together", { BASE_DIR: side });
    const runs = await Promise.all([cli(a, ["sync"]), ...Array.from({ length: 8 }, (_, i) => cli(b, ["ingest", join(side, `s${i + 1}.md`)]))]);
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    expect(runs[0]!.stdout).toContain(`ingested ${FILES}`);
    const listed = json(await cli(a, ["list", "--json"])).files.map((f: { source: string }) => f.source);
    // B lists A's files too, from the index alone; its own are named under its root, "side".
    const sideListed = json(await cli(b, ["list", "--json"])).files.map((f: { source: string }) => f.source).filter((source: string) => source.startsWith("side/"));
    expect(json(await cli(a, ["status", "--json"])).sourceCount).toBe(FILES + 8);
    expect(new Set(listed).size).toBe(listed.length);
    expect(sideListed).toHaveLength(8);
  }, 300_000);

  test("two syncs started together from A and B: exactly one runs, the other is refused naming the holder's host and process", async () => {
    const [a, b] = [machine("a", "s3://team/together"), machine("b", "s3://team/together")];
    const [ra, rb] = await Promise.all([cli(a, ["sync"]), cli(b, ["sync"])]);
    const ran = [ra, rb].filter((r) => r.exitCode === 0);
    const refused = [ra, rb].filter((r) => r.exitCode !== 0);
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.stderr).toContain(`Another sync is already running on s3://team/together: host ${hostname()} (process ${ran[0]!.pid}) has held it for`);
    expect(await lease("together")).toBeNull();
    expect(json(await cli(b, ["status", "--json"])).sourceCount).toBe(FILES);
  }, 300_000);

  test("kill -9 of a sync at random points (10 runs): the next sync on this machine takes its lease over at once, finishes, and holds every document once", async () => {
    // Each run on a prefix of its own, so the kill lands in the first write of each file.
    const takenOver = await killSyncsAtRandom(10, (run) => machine("a", `s3://team/killed-${run}`).env);
    console.log(`team index: ${takenOver} of 10 killed syncs left a lease that the next sync took over at once`);
  }, 600_000);

  test("a lease held by another machine that stops renewing it is taken over once it expires, and not before", async () => {
    const a = machine("a", "s3://team/expired");
    const env = a.env;
    const objects = s3Objects(objectStorageFromEnv(env.DB_PATH!, env, "DB_PATH"));
    const other = { holder: "0dead0dead0dead0", host: "laptop-b", pid: 4242, started: new Date().toISOString(), renewed: new Date().toISOString(), boot: "another-boot" };
    expect((await objects.put(LEASE_KEY, JSON.stringify(other), { ifNoneMatch: true })).written).toBe(true);
    const plantedAt = Date.now();
    const refused = await cli(a, ["sync"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("Another sync is already running on s3://team/expired: host laptop-b (process 4242) has held it for");
    // The lease expires LEASE_MS after its last write, by moto's clock: syncs are refused until then, and the first after it takes over.
    const taken = await waitUntil(async () => {
      const run = await cli(a, ["sync"]);
      return run.exitCode === 0 ? run : null;
    }, LEASE_MS + 60_000, "a sync to take the expired lease over", 5_000);
    expect(Date.now() - plantedAt).toBeGreaterThan(LEASE_MS - 1_000);
    expect(taken.stderr).toContain("took over the sync lease of host laptop-b (process 4242), not renewed for 1m");
    expect(json(await cli(a, ["status", "--json"])).sourceCount).toBe(FILES);
  }, 300_000);

  test("the store stopped in the middle of a sync and started again: the sync fails with one clear line, nothing indexed is lost, the next sync completes", async () => {
    const proxy = tcpProxy({ host: "127.0.0.1", port: Number(new URL(moto.endpoint).port) });
    try {
      await interruptAndResume(machine("a", "s3://team/interrupted", { AWS_ENDPOINT_URL: proxy.endpoint }).env, proxy, proxy.endpoint, docs);
    } finally {
      proxy.stop();
    }
  }, 300_000);

  test("a data file lost from the bucket: status names it, reads refuse by name with the fix, and a sync repairs the index", async () => {
    const a = machine("a", "s3://team/damaged");
    expect((await cli(a, ["sync"])).exitCode).toBe(0);
    const keys = { accessKeyId: a.env.AWS_ACCESS_KEY_ID!, secretAccessKey: a.env.AWS_SECRET_ACCESS_KEY!, region: "us-east-1" };
    const listing = new URL(`${moto.endpoint}/team?list-type=2&prefix=damaged/chunks.lance/data/`);
    const dataFiles = async () =>
      [...(await (await fetch(listing, { headers: signS3("GET", listing, keys) })).text()).matchAll(/<Key>([^<]+)<\/Key>[\s\S]*?<Size>(\d+)</g)].map((m) => ({ key: m[1]!, size: Number(m[2]) }));
    const before = new Set((await dataFiles()).map((file) => file.key));
    writeFileSync(join(docs, "late.md"), "# Late\n\nA late document about a zebra quartz harbour.\n");
    try {
      expect((await cli(a, ["sync"])).stdout).toContain("ingested 1");
      // The late document's own fragment is the smallest data file the sync added (S3 times are to the second, so "newest" can be ambiguous,
      // and the sync's tidy step may have written a compacted file beside it).
      const added = (await dataFiles()).filter((file) => !before.has(file.key));
      const newest = added.sort((x, y) => x.size - y.size)[0]!.key;
      const target = new URL(`${moto.endpoint}/team/${newest}`);
      expect((await fetch(target, { method: "DELETE", headers: signS3("DELETE", target, keys) })).ok).toBe(true);
      const name = `data/${newest.split("/").at(-1)}`;
      const status = json(await cli(a, ["status", "--json"]));
      expect(status.indexDamage).toContain(`(${name} is missing), with 1 chunk in it`);
      const refused = await cli(a, ["query", "zebra quartz harbour"]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain("Reads fail until a sync repairs it: on object storage they cannot go around lost files yet.");
      expect(refused.stderr).toContain("Run sync");
      const repaired = await cli(a, ["sync"]);
      expect(repaired.exitCode).toBe(0);
      expect(repaired.stderr).toContain(`Dropped 1 chunk whose data file was lost or damaged (${name} is missing)`);
      const found = json(await cli(a, ["query", "zebra quartz harbour", "--json"]));
      expect(found.results[0].source).toBe("library/late.md");
      expect(json(await cli(a, ["status", "--json"])).indexDamage).toBeUndefined();
    } finally {
      rmSync(join(docs, "late.md"));
    }
  }, 300_000);

  test("a deletion file lost from the bucket: status names it, reads refuse by name, and a sync puts a stand-in through its own requests and repairs the index", async () => {
    const a = machine("a", "s3://team/deletions");
    const pier = join(docs, "pier.md");
    writeFileSync(pier, "# Pier\n\nThe pier's lamps are lit at a walrus hour.\n");
    try {
      expect((await cli(a, ["sync"])).exitCode).toBe(0);
      // An ingest of the changed file deletes its old chunk from the fragment it shares with the others (a sync's compaction would fold that away).
      writeFileSync(pier, "# Pier\n\nThe pier's lamps are lit at an otter hour.\n");
      expect((await cli(a, ["ingest", pier])).exitCode).toBe(0);
      const keys = { accessKeyId: a.env.AWS_ACCESS_KEY_ID!, secretAccessKey: a.env.AWS_SECRET_ACCESS_KEY!, region: "us-east-1" };
      const listing = new URL(`${moto.endpoint}/team?list-type=2&prefix=deletions/chunks.lance/_deletions/`);
      const [key] = [...(await (await fetch(listing, { headers: signS3("GET", listing, keys) })).text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
      const target = new URL(`${moto.endpoint}/team/${key}`);
      expect((await fetch(target, { method: "DELETE", headers: signS3("DELETE", target, keys) })).ok).toBe(true);
      const named = `_deletions/${key!.split("/").at(-1)} is missing`;
      expect(json(await cli(a, ["status", "--json"])).indexDamage).toContain(named);
      const refused = await cli(a, ["query", "otter hour"]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain("Reads fail until a sync repairs it: every read of the table opens each deletion file.");
      const repaired = await cli(a, ["sync"]);
      expect(repaired.exitCode).toBe(0);
      expect(repaired.stderr).toContain(`whose file was lost or damaged (${named})`);
      expect(json(await cli(a, ["status", "--json"]))).toMatchObject({ sourceCount: FILES + 1 });
      expect(json(await cli(a, ["status", "--json"])).indexDamage).toBeUndefined();
      const found = json(await cli(a, ["query", "otter hour", "--json"]));
      expect(found.results[0].source).toBe("library/pier.md");
      expect(found.results[0].text).toContain("otter");
    } finally {
      rmSync(pier);
    }
  }, 300_000);

  test("the index deleted from the bucket and built again under a running reader (a team changing its model): within one check the reader answers from the new index, with no error", async () => {
    const library = join(scratch, "rebuilt-library");
    mkdirSync(library, { recursive: true });
    const write = (word: string) => {
      for (const name of ["a", "b", "c"]) writeFileSync(join(library, `${name}.md`), `# ${name}\n\nThe ${word} of ${name} is ${word} all year.\n`);
    };
    write("harbour");
    const writer = machine("a", "s3://team/rebuilt", { BASE_DIR: library });
    const reader = machine("b", "s3://team/rebuilt", { BASE_DIR: library });
    expect((await cli(writer, ["sync"])).exitCode).toBe(0);
    const session = await openSession({ command: BINARY, args: [], env: reader.env, cwd: reader.home });
    try {
      const ask = async (name: string, args: Record<string, unknown>) => {
        const result = (await session.client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };
        expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
        return result.structuredContent!;
      };
      expect((await ask("find_mentions", { terms: ["harbour"] })).matchedDocuments).toBe(3);
      const objects = s3Objects(objectStorageFromEnv(writer.env.DB_PATH!, writer.env, "DB_PATH"));
      for (const object of await objects.list("")) await objects.delete(object.key);
      write("meadow");
      expect((await cli(writer, ["sync"])).exitCode).toBe(0);
      // Every answer meanwhile is whole (the old index's or the new one's); the new one's within one check (10 s) and a question.
      const found = await waitUntil(async () => ((await ask("find_mentions", { terms: ["meadow"] })).matchedDocuments === 3 ? true : null), 30_000, "the reader to find the new index", 500);
      expect(found).toBe(true);
      expect((await ask("find_mentions", { terms: ["harbour"] })).matchedDocuments).toBe(0);
      expect((await ask("query_documents", { query: "meadow all year" })).results[0].text).toContain("meadow");
    } finally {
      await session.close();
    }
  }, 300_000);

  test("on a store that checks signatures, a valid key reads and writes (our SigV4 requests as the store computes them) and a wrong secret is refused by name", async () => {
    const strict = await startMoto({ INITIAL_NO_AUTH_ACTION_COUNT: "4" });
    try {
      const key = createAccessKey(strict.endpoint, "team");
      const valid = machine("s", "s3://team/signed", { AWS_ENDPOINT_URL: strict.endpoint, AWS_ACCESS_KEY_ID: key.accessKeyId, AWS_SECRET_ACCESS_KEY: key.secretAccessKey });
      const status = json(await cli(valid, ["status", "--json"]));
      expect(status.storageAccess).toEqual({ read: true, write: true });
      const wrong = machine("s", "s3://team/signed", { AWS_ENDPOINT_URL: strict.endpoint, AWS_ACCESS_KEY_ID: key.accessKeyId, AWS_SECRET_ACCESS_KEY: "not-the-secret" });
      const refused = await cli(wrong, ["sync"]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toStartWith(`error: The store refused the credentials for s3://team/signed on ${strict.endpoint} (SignatureDoesNotMatch).`);
    } finally {
      await strict.stop();
    }
  }, 120_000);

  test("a wrong key, a missing bucket, an unreachable endpoint and a plain-HTTP endpoint without opt-in: one line each naming the fix, and status still answers", async () => {
    // moto checks credentials once INITIAL_NO_AUTH_ACTION_COUNT actions have passed: the bucket's creation is the one.
    const strict = await startMoto({ INITIAL_NO_AUTH_ACTION_COUNT: "1" });
    try {
      await createBucket(strict.endpoint, "team");
      const closed = `http://127.0.0.1:${new URL(moto.endpoint).port === "1" ? 2 : 1}`;
      const cases: [Machine, string, string][] = [
        [machine("c", "s3://team/library", { AWS_ENDPOINT_URL: strict.endpoint }), "The store refused the credentials for s3://team/library", "AWS_SECRET_ACCESS_KEY"],
        [machine("c", "s3://no-such-bucket/library"), "The bucket no-such-bucket does not exist", "Create the bucket"],
        [machine("c", "s3://team/library", { AWS_ENDPOINT_URL: closed }), `The object store at ${closed} cannot be reached`, "AWS_ENDPOINT_URL"],
      ];
      for (const [m, message, fix] of cases) {
        for (const args of [["sync"], ["query", "oil"]]) {
          const run = await cli(m, args);
          expect(run.exitCode).toBe(1);
          const lines = run.stderr.trim().split("\n");
          expect(lines[0]).toStartWith(`error: ${message}`);
          expect(lines.join("\n")).toContain(fix);
          expect(lines.length).toBeLessThanOrEqual(2);
        }
        const status = await cli(m, ["status", "--json"]);
        expect(status.exitCode).toBe(0);
        expect(json(status).indexError).toStartWith(message);
        expect(json(status).storageAccess.read).toBe(false);
      }
      const plain = await cli(machine("c", "s3://team/library", { AWS_ALLOW_HTTP: "" }), ["sync"]);
      expect(plain.exitCode).toBe(1);
      expect(plain.stderr).toContain(`DB_PATH is on ${moto.endpoint}, a plain-HTTP endpoint`);
      expect(plain.stderr).toContain("AWS_ALLOW_HTTP=true");
      // No keys at all: LanceDB's provider chain ends at the metadata service and threw 3 kB of its answer (found by a probe).
      const keyless = machine("c", "s3://team/library");
      delete keyless.env.AWS_ACCESS_KEY_ID;
      delete keyless.env.AWS_SECRET_ACCESS_KEY;
      for (const args of [["sync"], ["query", "oil"]]) {
        const run = await cli(keyless, args);
        expect(run.exitCode).toBe(1);
        const error = run.stderr.slice(run.stderr.indexOf("error: "));
        expect(error).toStartWith("error: No AWS credentials were found for the index in DB_PATH");
        expect(error).toContain("AWS_PROFILE naming a profile in ~/.aws/credentials");
        expect(error.trim().split("\n")).toHaveLength(2);
      }
      expect(json(await cli(keyless, ["status", "--json"])).storageAccess.problem).toStartWith("No AWS credentials were found");
    } finally {
      await strict.stop();
    }
  }, 300_000);
});

/** Polls `probe` every `everyMs` until it gives a value, or fails naming what it waited for. */
async function waitUntil<T>(probe: () => Promise<T | null>, timeoutMs: number, what: string, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await Bun.sleep(everyMs);
  }
}
