import { describe, expect, test } from "bun:test";
import { checkFilter, judge } from "../../src/labels/label-filter.ts";
import type { DocumentLabels } from "../../src/labels/label-document.ts";
import { parseTaxonomy } from "../../src/labels/parse-taxonomy.ts";
import { failure } from "../helpers.ts";

const taxonomy = parseTaxonomy(`
[model]
path = "/m.gguf"
temperature = 1
[facets.type]
values.minutes = { description = "Minutes." }
values.report = { description = "Report." }
values.mail = { description = "Mail." }
[facets.client]
within = ["clients"]
default = "acme"
values.acme = { description = "Acme." }
`);
const ok = { state: "ok" as const, taxonomy, file: "/r/.minirag/classify.toml" };
const filter = (input: Parameters<typeof checkFilter>[1]) => checkFilter(ok, input)!;
const label = (value: string, extra: object = {}) => ({ value, confidence: 1, source: "model" as const, runnerUp: null, uncertain: false, ...extra });
const doc = (labels: DocumentLabels["labels"], extra: Partial<DocumentLabels> = {}): DocumentLabels => ({ hash: taxonomy.hash, labels, problems: {}, date: "2026-08-05", dateSource: "document", ...extra });

describe("checking a filter", () => {
  test("no labels and no dates is no filter", () => {
    expect(checkFilter(ok, {})).toBeNull();
    expect(checkFilter(ok, { labels: {} })).toBeNull();
  });

  test("without a classify.toml any label or date filter is refused with the fix", async () => {
    const error = await failure(() => checkFilter({ state: "absent" }, { dateFrom: "2026-01-01" }));
    expect(error.message).toBe("Label and date filters need a taxonomy, and this corpus has none.");
    expect(error.hint).toContain(".minirag/classify.toml");
  });

  test("a classify.toml that cannot be parsed refuses with its own message", async () => {
    const error = await failure(() => checkFilter({ state: "error", file: "/r/x", message: "/r/x: not valid TOML: boom" }, { labels: { type: "minutes" } }));
    expect(error.message).toBe("/r/x: not valid TOML: boom");
  });

  test("an empty list of values is refused with the facet's values", async () => {
    expect((await failure(() => filter({ labels: { type: [] } }))).message).toBe("labels.type names no value. Its values: minutes, report, mail.");
  });

  test("dates must be real calendar days written YYYY-MM-DD", async () => {
    for (const bad of ["2026-8-5", "2026-13-01", "2026-02-29", "yesterday", "2026-08-05T00:00"]) {
      expect((await failure(() => filter({ dateTo: bad }))).message).toContain("dateTo must be a date written YYYY-MM-DD");
    }
    expect(filter({ dateFrom: "2024-02-29" }).from).toBe("2024-02-29");
  });

  test("a range whose start is after its end is refused with the swap, not answered with nothing", async () => {
    const error = await failure(() => filter({ dateFrom: "2026-09-01", dateTo: "2026-08-01" }));
    expect(error.message).toBe("dateFrom (2026-09-01) is after dateTo (2026-08-01), so no day is in the range.");
    expect(error.hint).toBe("Swap them: dateFrom 2026-08-01, dateTo 2026-09-01; both ends are included.");
    expect(filter({ dateFrom: "2026-08-01", dateTo: "2026-08-01" })).toMatchObject({ from: "2026-08-01", to: "2026-08-01" });
  });
});

describe("judging a document", () => {
  test("a confident label matches its own value only", () => {
    const f = filter({ labels: { type: "report" } });
    expect(judge(f, doc({ type: label("report") }))).toEqual({ match: true, unlabelled: false, undated: false });
    expect(judge(f, doc({ type: label("minutes", { runnerUp: "report" }) }))).toEqual({ match: false, unlabelled: false, undated: false });
  });

  test("an uncertain label also matches its runner-up, and only that", () => {
    const unsure = doc({ type: label("minutes", { confidence: 0.55, uncertain: true, runnerUp: "report" }) });
    expect(judge(filter({ labels: { type: "minutes" } }), unsure).match).toBe(true);
    expect(judge(filter({ labels: { type: "report" } }), unsure).match).toBe(true);
    expect(judge(filter({ labels: { type: "mail" } }), unsure).match).toBe(false);
  });

  test("values of one facet are alternatives", () => {
    expect(judge(filter({ labels: { type: ["mail", "report"] } }), doc({ type: label("report") })).match).toBe(true);
  });

  test("a facet the model could not answer, a document never labelled, and one labelled under an older taxonomy count as unlabelled", () => {
    const f = filter({ labels: { type: "report" } });
    expect(judge(f, doc({}, { problems: { type: "no model file" } }))).toEqual({ match: false, unlabelled: true, undated: false });
    expect(judge(f, null)).toEqual({ match: false, unlabelled: true, undated: false });
    expect(judge(f, doc({}, { hash: "older" }))).toEqual({ match: false, unlabelled: true, undated: false });
  });

  test("a facet absent under the current taxonomy (outside within) is a legitimate exclusion, not counted", () => {
    expect(judge(filter({ labels: { client: "acme" } }), doc({ type: label("report") }))).toEqual({ match: false, unlabelled: false, undated: false });
  });

  test("a confident different label is not counted even when the date is missing", () => {
    expect(judge(filter({ labels: { type: "report" }, dateFrom: "2026-01-01" }), doc({ type: label("mail") }, { date: null }))).toEqual({ match: false, unlabelled: false, undated: false });
  });

  test("dates are inclusive at both ends; an undated document is counted as undated", () => {
    const f = filter({ dateFrom: "2026-08-05", dateTo: "2026-08-05" });
    expect(judge(f, doc({})).match).toBe(true);
    expect(judge(f, doc({}, { date: "2026-08-06" })).match).toBe(false);
    expect(judge(f, doc({}, { date: null }))).toEqual({ match: false, unlabelled: false, undated: true });
  });
});
