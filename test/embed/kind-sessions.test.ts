/**
 * Under "by-kind" (the MCP server's policy, kind-sessions.ts) questions run through the first
 * session and passages through a second one whose threads spin during runs:
 * opened at the first passage, closed once no passage has come for the idle
 * time, opened again for the next. Both give a text the same vector as a
 * single-session embedder does. The idle time passes on a hand-moved clock.
 */
import { describe, expect, test } from "bun:test";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { KindSessions } from "../../src/embed/kind-sessions.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { fakeClock } from "../fake-clock.ts";
import { TINY_MODEL } from "../helpers.ts";

const folder = await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" });
const passages = Array.from({ length: 12 }, (_, i) => `pumps and valves in the secondary loop, line ${i}`);
const question = "which valve leaks?";

describe("sessions by the kind of text", () => {
  test("by-kind: questions use one session; passages open a second, closed after the idle time and opened again when needed", async () => {
    const clock = fakeClock();
    const embedder = await OnnxEmbedder.load(folder, { spin: "by-kind", passageIdleMs: 150, clock });
    const single = await OnnxEmbedder.load(folder, { spin: "never" });
    const [q] = await embedder.embed([question], "query");
    expect(await embedder.sessionSpins()).toEqual(["never"]);
    const vectors = await embedder.embed(passages);
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    // A question while the passage session is open still goes through the first session, and gets the same vector.
    expect([...(await embedder.embed([question], "query"))[0]!]).toEqual([...q!]);
    const expected = await single.embed(passages);
    vectors.forEach((v, i) => expect([...v]).toEqual([...expected[i]!]));
    clock.advance(149);
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    clock.advance(1);
    expect(await embedder.sessionSpins()).toEqual(["never"]);
    const again = await embedder.embed(passages.slice(0, 3));
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    again.forEach((v, i) => expect([...v]).toEqual([...expected[i]!]));
  });

  test("only by-kind's first session is marked as embedding questions alone (it gets one thread on 2 cores); a session that also embeds passages is not", async () => {
    const spec = { onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, ...folder.profile };
    const marked: Record<string, boolean> = {};
    for (const policy of ["by-kind", "never", "during-runs"] as const) {
      const kinds = await KindSessions.open(spec, policy);
      marked[policy] = kinds.main.questionsOnly;
      kinds.close();
    }
    expect(marked).toEqual({ "by-kind": true, never: false, "during-runs": false });
  });

  test("the idle clock waits for passages in progress: two overlapping embeddings keep the session until the later ends", async () => {
    const clock = fakeClock();
    const spec = { onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, ...folder.profile };
    const kinds = await KindSessions.open(spec, "by-kind", undefined, 100, clock);
    try {
      const later = Promise.withResolvers<void>();
      const first = kinds.with(true, async (session) => session.spin);
      const second = kinds.with(true, () => later.promise);
      expect(await first).toBe("during-runs");
      clock.advance(300);
      // The first call ended three idle times ago; the second still runs, so the session stays.
      expect(await kinds.spins()).toEqual(["never", "during-runs"]);
      later.resolve();
      await second;
      clock.advance(99);
      expect(await kinds.spins()).toEqual(["never", "during-runs"]);
      clock.advance(1);
      expect(await kinds.spins()).toEqual(["never"]);
    } finally {
      kinds.close();
    }
  });

  test("never and during-runs: one session for every text, waiting as the policy says", async () => {
    for (const spin of ["never", "during-runs"] as const) {
      const embedder = await OnnxEmbedder.load(folder, { spin });
      await embedder.embed(passages);
      await embedder.embed([question], "query");
      expect(await embedder.sessionSpins()).toEqual([spin]);
    }
  });
});
