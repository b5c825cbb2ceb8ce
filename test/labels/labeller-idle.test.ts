/**
 * The label model of a single ingest is freed once it has gone unused for a
 * while. A document that starts labelling just before that moment must keep
 * the model until it is done: freeing a llama.cpp model mid-answer is a
 * use-after-free in the MCP server. Time is a hand-moved clock.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ScorerFactory } from "../../src/labels/label-scorer.ts";
import { Labeller } from "../../src/labels/labeller.ts";
import { TaxonomyFile } from "../../src/labels/taxonomy-file.ts";
import { fakeClock, type FakeClock } from "../fake-clock.ts";
import { promisesSettled, tempDir, waitFor, writeTree } from "../helpers.ts";

const IDLE_MS = 50;
const root = tempDir("minirag-idle-");
const modelFile = join(root, "model.gguf");
writeTree(root, {
  "model.gguf": "scripted",
  ".minirag/classify.toml": `[model]\npath = "${modelFile}"\ntemperature = 1\n\n[facets.type]\nvalues.minutes = { description = "Minutes." }\nvalues.report = { description = "Report." }\n`,
});
const doc = (name: string) => ({ source: join(root, name), sourceType: "file" as const, text: "# Notes", mtimeMs: 0 });

/**
 * A scripted model that logs its loads, questions, answers and release. An
 * answer takes `answerMs` on the clock (as a real model's takes time), and
 * waits for the gate when one is set.
 */
function scriptedModel(clock: FakeClock) {
  const events: string[] = [];
  let freed = false;
  let gate: Promise<void> | null = null;
  let answerMs = 0;
  const factory: ScorerFactory = async () => {
    events.push("loaded");
    return {
      logits: async () => {
        events.push(freed ? "asked a freed model" : "asked");
        clock.advance(answerMs);
        await gate;
        events.push(freed ? "answered from a freed model" : "answered");
        return [2, 1];
      },
      release: async () => {
        freed = true;
        events.push("freed");
      },
    };
  };
  return { events, factory, hold: (until: Promise<void>) => (gate = until), answerTakes: (ms: number) => (answerMs = ms) };
}

describe("the idle release of a single ingest's label model", () => {
  test("a document that starts before the idle time is up stops the release: the model stays loaded, and is freed the idle time after the last document", async () => {
    const clock = fakeClock();
    const model = scriptedModel(clock);
    const labeller = new Labeller({ roots: [root], taxonomy: new TaxonomyFile([root]), cacheDir: root, hfEndpoint: "http://127.0.0.1:9", log: () => {} }, model.factory, IDLE_MS, clock);
    await labeller.label(doc("a.md"));
    labeller.releaseWhenIdle();
    clock.advance(IDLE_MS - 1);
    // Its answer takes longer than the idle time: a release still armed would come due during it.
    model.answerTakes(2 * IDLE_MS);
    const { labels } = await labeller.label(doc("b.md"));
    expect(labels?.labels.type?.value).toBe("minutes");
    labeller.releaseWhenIdle();
    clock.advance(IDLE_MS - 1);
    await promisesSettled();
    expect(model.events).toEqual(["loaded", "asked", "answered", "asked", "answered"]);
    clock.advance(1);
    await waitFor(() => model.events.includes("freed"), 10_000, "the model to be freed");
    expect(model.events).toEqual(["loaded", "asked", "answered", "asked", "answered", "freed"]);
  });

  test("an idle release that falls due while a document is mid-answer waits for the answer, then frees the model", async () => {
    const clock = fakeClock();
    const model = scriptedModel(clock);
    const labeller = new Labeller({ roots: [root], taxonomy: new TaxonomyFile([root]), cacheDir: root, hfEndpoint: "http://127.0.0.1:9", log: () => {} }, model.factory, IDLE_MS, clock);
    await labeller.label(doc("a.md"));
    const answer = Promise.withResolvers<void>();
    model.hold(answer.promise);
    const second = labeller.label(doc("b.md"));
    await waitFor(() => model.events.length === 4, 10_000, "the second document's question");
    // Another ingest ends while this document waits for its answer: its idle release comes due now.
    labeller.releaseWhenIdle();
    clock.advance(IDLE_MS);
    // Everything the release could do without the answer is done: it has not freed the model.
    await promisesSettled();
    expect(model.events).toEqual(["loaded", "asked", "answered", "asked"]);
    answer.resolve();
    expect((await second).labels?.labels.type?.value).toBe("minutes");
    await waitFor(() => model.events.includes("freed"), 10_000, "the model to be freed");
    expect(model.events).toEqual(["loaded", "asked", "answered", "asked", "answered", "freed"]);
  });
});
