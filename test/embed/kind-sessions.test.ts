/**
 * Under "by-kind" (the MCP server's policy, kind-sessions.ts) questions run through the first
 * session and passages through a second one whose threads spin during runs:
 * opened at the first passage, closed once no passage has come for the idle
 * time, opened again for the next. Both give a text the same vector as a
 * single-session embedder does.
 */
import { describe, expect, test } from "bun:test";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { KindSessions } from "../../src/embed/kind-sessions.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL } from "../helpers.ts";

const folder = await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" });
const passages = Array.from({ length: 12 }, (_, i) => `pumps and valves in the secondary loop, line ${i}`);
const question = "which valve leaks?";

describe("sessions by the kind of text", () => {
  test("by-kind: questions use one session; passages open a second, closed after the idle time and opened again when needed", async () => {
    const embedder = await OnnxEmbedder.load(folder, { spin: "by-kind", passageIdleMs: 150 });
    const single = await OnnxEmbedder.load(folder, { spin: "never" });
    const [q] = await embedder.embed([question], "query");
    expect(await embedder.sessionSpins()).toEqual(["never"]);
    const vectors = await embedder.embed(passages);
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    // A question while the passage session is open still goes through the first session, and gets the same vector.
    expect([...(await embedder.embed([question], "query"))[0]!]).toEqual([...q!]);
    const expected = await single.embed(passages);
    vectors.forEach((v, i) => expect([...v]).toEqual([...expected[i]!]));
    await Bun.sleep(400);
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
    const embedder = await OnnxEmbedder.load(folder, { spin: "by-kind", passageIdleMs: 100 });
    // Long enough to run well past the sleeps below: sized from this machine's own pace, which differs
    // between machines by 10x (600 such texts a second on one, 5,000 on another), measured on a separate embedder.
    const text = (i: number) => Array.from({ length: 90 }, (_, w) => `passage${i} word${w % 11}`).join(" ");
    const timing = await OnnxEmbedder.load(folder, { spin: "never" });
    const started = performance.now();
    await timing.embed(Array.from({ length: 200 }, (_, i) => text(i)));
    const perText = (performance.now() - started) / 200;
    const long = Array.from({ length: Math.ceil(2000 / perText) }, (_, i) => text(i));
    const first = embedder.embed(passages);
    let secondDone = false;
    const second = embedder.embed(long).then(() => (secondDone = true));
    await first;
    await Bun.sleep(300);
    // The first call ended three idle times ago; the second still runs, so the session stays.
    expect(secondDone).toBe(false);
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    await second;
    expect(await embedder.sessionSpins()).toEqual(["never", "during-runs"]);
    await Bun.sleep(300);
    expect(await embedder.sessionSpins()).toEqual(["never"]);
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
