/**
 * The ingest pipeline: a group's commit runs while the next group embeds, so
 * the model does not wait on the index; commits still land one at a time, in
 * the order the groups were cut, however an embedding or a commit fails, and
 * at most one written group waits behind the commit under way. A failed group
 * is reported file by file while the groups after it land, and the ingest
 * returns only once every commit has settled.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { FIRST_GROUP_CHUNKS, GROUP_CHUNKS, ingestFiles } from "../../src/ingest/ingest-files.ts";
import { testApp, waitFor, writeTree } from "../helpers.ts";

/** Files of about ten chunks each (at a 40-token budget), enough for three groups or more. */
function manyFiles(root: string, count: number): string[] {
  const files: Record<string, string> = {};
  for (let f = 0; f < count; f++) {
    const paragraphs = Array.from({ length: 10 }, (_, p) => `File ${f} paragraph ${p} talks about topic ${f * 10 + p} at some length, enough to fill a chunk.`);
    files[`doc-${String(f).padStart(3, "0")}.md`] = `# Notes ${f}\n\n${paragraphs.join("\n\n")}`;
  }
  writeTree(root, files);
  return Object.keys(files).map((name) => join(root, name));
}

/**
 * An app whose embedding calls and commits are logged as they start and end; one of either may be made to fail.
 * Each commit of group n is held until group n + 1 has been embedded (or failed to), or until no group is left to
 * come: a commit slower than the next group's embedding, whatever this machine's pace, so the test sees whether the
 * next group embeds during it and whether the group after that waits for it. `ingest` runs ingestFiles over it.
 */
async function loggingApp({ failCommit, failEmbed }: { failCommit?: number; failEmbed?: number } = {}) {
  const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
  const embedder = await app.embedder();
  const events: string[] = [];
  const inFlight = { embeds: 0, commits: 0 };
  let lastFilePrepared = false;
  let embeds = 0;
  const embed = embedder.embed.bind(embedder);
  embedder.embed = async (texts, kind) => {
    const n = embeds++;
    events.push(`embed ${n}`);
    inFlight.embeds++;
    try {
      if (n === failEmbed) throw new Error("model crashed");
      const vectors = await embed(texts, kind);
      events.push(`embedded ${n}`);
      return vectors;
    } catch (error) {
      events.push(`embedding ${n} failed`);
      throw error;
    } finally {
      inFlight.embeds--;
    }
  };
  let commits = 0;
  const replace = app.store.replaceSources.bind(app.store);
  app.store.replaceSources = async (sources, rows, dimensions) => {
    const n = commits++;
    events.push(`commit ${n}`);
    inFlight.commits++;
    try {
      const next = [`embedded ${n + 1}`, `embedding ${n + 1} failed`];
      await waitFor(() => lastFilePrepared || events.some((e) => next.includes(e)), 60_000, `group ${n + 1}'s embedding, or the end of the files`);
      if (n === failCommit) throw new Error("disk full");
      await replace(sources, rows, dimensions);
      events.push(`committed ${n}`);
    } finally {
      inFlight.commits--;
    }
  };
  const ingest = (paths: string[]) => ingestFiles(app, paths, (event) => void (event.kind === "chunks" && event.path === paths.at(-1) && (lastFilePrepared = true)));
  return { app, root, events, inFlight, ingest };
}

describe("the ingest pipeline", () => {
  test("commits a group while the next one embeds, one commit at a time, in order", async () => {
    const { app, root, events, ingest } = await loggingApp();
    const paths = manyFiles(root, 60);
    const report = await ingest(paths);
    expect(report.errors).toEqual([]);
    expect(report.results.map((r) => r.source)).toEqual(paths);
    const chunks = report.results.reduce((n, r) => n + r.chunkCount, 0);
    expect(chunks).toBeGreaterThan(FIRST_GROUP_CHUNKS + 2 * GROUP_CHUNKS);
    expect(await app.store.countRows()).toBe(chunks);
    const at = (event: string) => events.indexOf(event);
    // The second group's embedding started while the first group's commit was under way.
    expect(at("embed 1")).toBeGreaterThan(at("commit 0"));
    expect(at("embed 1")).toBeLessThan(at("committed 0"));
    // Commits never overlap, and each follows its own group's embedding.
    const commits = events.filter((e) => e.startsWith("commit"));
    expect(commits).toEqual(commits.map((_, i) => (i % 2 === 0 ? `commit ${i / 2}` : `committed ${(i - 1) / 2}`)));
    for (let n = 0; n < commits.length / 2; n++) expect(at(`commit ${n}`)).toBeGreaterThan(at(`embedded ${n}`));
    // Memory stays bounded by the pipeline, not by the commits' speed: group n + 2 embeds only once group n is committed.
    for (let n = 0; at(`embed ${n + 2}`) !== -1; n++) expect(at(`embed ${n + 2}`)).toBeGreaterThan(at(`committed ${n}`));
  });

  test("a group whose embedding fails still waits for the commit before it, and the ingest returns after the last commit", async () => {
    const { app, root, events, inFlight, ingest } = await loggingApp({ failEmbed: 1 });
    const paths = manyFiles(root, 60);
    const report = await ingest(paths);
    // Nothing was still being embedded or written when the ingest returned.
    expect(inFlight).toEqual({ embeds: 0, commits: 0 });
    const failed = report.errors.map((e) => e.source);
    expect(failed.length).toBeGreaterThan(0);
    for (const e of report.errors) expect(e.error).toContain("model crashed");
    expect([...failed, ...report.results.map((r) => r.source)].sort()).toEqual(paths);
    const commits = events.filter((e) => e.startsWith("commit"));
    expect(commits).toEqual(commits.map((_, i) => (i % 2 === 0 ? `commit ${i / 2}` : `committed ${(i - 1) / 2}`)));
    expect(await app.store.countRows()).toBe(report.results.reduce((n, r) => n + r.chunkCount, 0));
  });

  test("a group whose commit fails is reported file by file, and the groups after it land", async () => {
    const { app, root, ingest } = await loggingApp({ failCommit: 0 });
    const paths = manyFiles(root, 40);
    const report = await ingest(paths);
    const failed = report.errors.map((e) => e.source);
    expect(failed.length).toBeGreaterThan(0);
    for (const e of report.errors) expect(e.error).toContain("disk full");
    expect([...failed, ...report.results.map((r) => r.source)].sort()).toEqual(paths);
    expect(report.results.length).toBeGreaterThan(0);
    const stored = new Set((await app.store.listSources()).map((s) => s.source));
    for (const source of failed) expect(stored.has(source)).toBe(false);
    for (const r of report.results) expect(stored.has(r.source)).toBe(true);
  });
});
