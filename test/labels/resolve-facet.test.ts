import { describe, expect, test } from "bun:test";
import { calibrate } from "../../src/labels/label-scorer.ts";
import { labelDocument } from "../../src/labels/label-document.ts";
import { parseTaxonomy } from "../../src/labels/parse-taxonomy.ts";
import { resolveFacet } from "../../src/labels/resolve-facet.ts";
import type { LabelScorer } from "../../src/labels/label-scorer.ts";

const taxonomy = parseTaxonomy(`
[model]
path = "/nowhere/model.gguf"
temperature = 2
uncertain_below = 0.7

[facets.project]
default = "main"
values.main = { description = "The main product." }
values.pilots = { description = "Pilots.", paths = ["pilots"] }
values.deep = { description = "One pilot.", paths = ["pilots/deep"] }

[facets.type]
override_at = 0.9
values.minutes = { description = "Minutes." }
values.mail = { description = "Mail." }
values.transcript = { description = "Transcript.", paths = ["recordings"] }

[facets.client]
within = ["clients"]
values.acme = { description = "Acme." }
values.globex = { description = "Globex." }
`);
const [project, type, client] = taxonomy.facets as [any, any, any];
const model = taxonomy.model!;
/** Probabilities as given, whatever is asked. */
const answers = (p: number[]) => async () => p;
const broken = async (): Promise<number[]> => {
  throw new Error("no model file");
};

describe("resolving one facet", () => {
  test("the longest paths prefix wins, with confidence 1 and source path", async () => {
    expect(await resolveFacet(project, "pilots/deep/notes.md", model, broken)).toEqual({ kind: "label", label: { value: "deep", confidence: 1, source: "path", runnerUp: null, uncertain: false } });
    expect(await resolveFacet(project, "pilots/other/notes.md", model, broken)).toMatchObject({ label: { value: "pilots", source: "path" } });
  });

  test("a prefix matches whole folder names only", async () => {
    expect(await resolveFacet(project, "pilots-old/notes.md", model, broken)).toMatchObject({ label: { value: "main", source: "default" } });
  });

  test("paths compare after NFC on both sides: a decomposed name matches a composed rule", async () => {
    const nfc = parseTaxonomy(`[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }\nvalues.b = { description = "B.", paths = ["Caf\u00e9"] }`).facets[0]!;
    expect(await resolveFacet(nfc, "Cafe\u0301/menu.md", undefined, broken)).toMatchObject({ label: { value: "b", source: "path" } });
  });

  test("no path rule: the default, without asking the model", async () => {
    let asked = false;
    const outcome = await resolveFacet(project, "notes/a.md", model, async () => ((asked = true), [1, 0, 0]));
    expect(outcome).toMatchObject({ label: { value: "main", source: "default", confidence: 1 } });
    expect(asked).toBe(false);
  });

  test("with override_at, the model replaces a path rule only at that confidence or above", async () => {
    expect(await resolveFacet(type, "recordings/call.md", model, answers([0.9, 0.05, 0.05]))).toMatchObject({ label: { value: "minutes", source: "model", confidence: 0.9 } });
    expect(await resolveFacet(type, "recordings/call.md", model, answers([0.89, 0.06, 0.05]))).toMatchObject({ label: { value: "transcript", source: "path", confidence: 1 } });
  });

  test("with override_at, a model that cannot run leaves the path rule standing and says why", async () => {
    expect(await resolveFacet(type, "recordings/call.md", model, broken)).toMatchObject({ kind: "label", label: { value: "transcript", source: "path" }, problem: "no model file" });
  });

  test("no path rule and no default: the model answers with its top value and runner-up", async () => {
    expect(await resolveFacet(type, "notes/a.md", model, answers([0.2, 0.75, 0.05]))).toEqual({ kind: "label", label: { value: "mail", confidence: 0.75, source: "model", runnerUp: "minutes", uncertain: false } });
  });

  test("a model label under uncertain_below is uncertain", async () => {
    expect(await resolveFacet(type, "notes/a.md", model, answers([0.3, 0.69, 0.01]))).toMatchObject({ label: { value: "mail", uncertain: true, runnerUp: "minutes" } });
  });

  test("the model failing leaves the facet unset with the reason", async () => {
    expect(await resolveFacet(type, "notes/a.md", model, broken)).toEqual({ kind: "unset", problem: "no model file" });
  });

  test("outside within, the facet is absent; inside, it resolves", async () => {
    expect(await resolveFacet(client, "notes/a.md", model, answers([1, 0]))).toEqual({ kind: "absent" });
    expect(await resolveFacet(client, "clients/x/a.md", model, answers([0.1, 0.9]))).toMatchObject({ label: { value: "globex" } });
  });

  test("a text or URL document: no path rule or default places it, within excludes it, the model still answers", async () => {
    expect(await resolveFacet(project, null, model, answers([1, 0, 0]))).toEqual({ kind: "absent" });
    expect(await resolveFacet(client, null, model, answers([1, 0]))).toEqual({ kind: "absent" });
    expect(await resolveFacet(type, null, model, answers([0.95, 0.03, 0.02]))).toMatchObject({ label: { value: "minutes", source: "model" } });
  });
});

describe("calibration", () => {
  test("softmax of logits over the temperature: T = 1 is the plain softmax", () => {
    const p = calibrate([Math.log(0.8), Math.log(0.2)], 1);
    expect(p[0]).toBeCloseTo(0.8, 10);
    expect(p[1]).toBeCloseTo(0.2, 10);
  });

  test("a temperature above 1 pulls an overconfident answer toward uncertainty", () => {
    const p = calibrate([Math.log(0.9), Math.log(0.1)], 2.07);
    // 0.9^(1/2.07) / (0.9^(1/2.07) + 0.1^(1/2.07)) = 0.743
    expect(p[0]).toBeCloseTo(0.743, 3);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  test("huge logits do not overflow", () => {
    expect(calibrate([1000, 999], 1)[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 10);
  });
});

describe("labelling a whole document with a scripted scorer", () => {
  const scripted = (logits: Record<string, number[]>): (() => Promise<LabelScorer>) => async () => ({
    logits: async (request) => logits[request.options.map((o) => o.id).join(",")]!,
  });

  test("the scorer's logits are calibrated at the model's temperature before the uncertainty test", async () => {
    // Raw probabilities 0.8 / 0.15 / 0.05 would be certain; at T = 2 the top falls to 0.594: uncertain.
    const scorer = scripted({ "minutes,mail,transcript": [Math.log(0.8), Math.log(0.15), Math.log(0.05)], "acme,globex": [0, 0] });
    const doc = await labelDocument(taxonomy, { source: "/root/notes/2026-08-05 sync.md", sourceType: "file", text: "# Weekly sync\n\nAttendees: A, B", mtimeMs: Date.UTC(2026, 0, 2) }, ["/root"], scorer);
    expect(doc.labels.type).toMatchObject({ value: "minutes", source: "model", uncertain: true, runnerUp: "mail" });
    expect(doc.labels.type!.confidence).toBeCloseTo(0.594, 3);
    expect(doc.labels.project).toMatchObject({ value: "main", source: "default" });
    expect(doc.labels.client).toBeUndefined();
    expect(doc.problems).toEqual({});
    expect(doc).toMatchObject({ date: "2026-08-05", dateSource: "name", hash: taxonomy.hash });
  });

  test("the request carries the question, the values' descriptions, the file name under its label, and the start of the text", async () => {
    const seen: any[] = [];
    const scorer = async () => ({ logits: async (request: any) => (seen.push(request), [0, 0, 0]) });
    await labelDocument(taxonomy, { source: "/root/a/memo.md", sourceType: "file", text: "x".repeat(5000) }, ["/root"], scorer);
    expect(seen[0]).toMatchObject({ question: "What kind of document is this?", fileName: "memo.md", fileNameLabel: "File name", options: [{ id: "minutes", description: "Minutes." }, { id: "mail", description: "Mail." }, { id: "transcript", description: "Transcript." }] });
    expect(seen[0].text).toHaveLength(2000);
  });

  test("a shared index's source, `<root name>/<path>`, meets path rules by the path inside its root, on any machine", async () => {
    const never = async (): Promise<LabelScorer> => {
      throw new Error("no model is asked: the path decides");
    };
    const doc = await labelDocument(taxonomy, { source: "handbook/pilots/deep/plan.md", sourceType: "file", text: "x" }, ["/elsewhere"], never);
    expect(doc.labels.project).toMatchObject({ value: "deep", source: "path" });
    const onTheWriter = await labelDocument(taxonomy, { source: "/root/pilots/deep/plan.md", sourceType: "file", text: "x" }, ["/root"], never);
    expect(onTheWriter.labels.project).toEqual(doc.labels.project);
  });

  test("a scorer that cannot load leaves model facets unset, with the reason per facet", async () => {
    const doc = await labelDocument(taxonomy, { source: "/root/notes/a.md", sourceType: "file", text: "hello" }, ["/root"], async () => {
      throw new Error("The label model file /nowhere/model.gguf does not exist");
    });
    expect(doc.labels.type).toBeUndefined();
    expect(doc.problems).toEqual({ type: "The label model file /nowhere/model.gguf does not exist" });
    expect(doc.labels.project).toMatchObject({ value: "main" });
  });
});
