/**
 * Acceptance: look-alikes against ../shared/corpus/office/lookalikes.json.
 * Every pair in a group marked as versions or near-duplicates must be named
 * (one document lists the other in lookAlikes), and no pair marked as not
 * duplicates (translations) may be. Groups of the same text in another
 * format are reported but not required; groups of scans and images (no OCR
 * in this build) and of folders are not applicable. Prints, per labelled
 * pair, the estimated overlap next to the exact five-word-run Jaccard
 * computed from the stored text, then precision and recall.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { joinDocument } from "../../src/chunk/join-parent.ts";
import { lookAlikesOf } from "../../src/lookalikes/look-alikes.ts";
import { decodeSignature, overlap } from "../../src/lookalikes/minhash.ts";
import { shingleHashes } from "../../src/lookalikes/shingles.ts";
import { readSignatures } from "../../src/store/signatures.ts";
import { CORPUS } from "../bench/lib/datasets.ts";
import { ROOTS, officeIndex } from "./mentions-office-index.ts";

type Kind = "required" | "format" | "negative" | "not applicable";

interface Pair {
  group: number;
  kind: Kind;
  a: string;
  b: string;
}

const GROUPS: { relation: string; files: string[] }[] = JSON.parse(readFileSync(join(CORPUS, "office/lookalikes.json"), "utf8"));

function kindOf(relation: string): Kind {
  if (/translation|not duplicates|different documents/i.test(relation)) return "negative";
  if (/^same (scan|image)|parallel corpora/i.test(relation)) return "not applicable";
  if (/different format|same content|same transcript/i.test(relation)) return "format";
  if (/version|near-duplicate/i.test(relation)) return "required";
  return "not applicable";
}

const key = (a: string, b: string) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);
const short = (source: string) => source.slice(CORPUS.length + 1);

let app: App;
let indexed: Set<string>;
const flagged = new Set<string>();
const pairs: Pair[] = [];
const rows: string[] = [];

/** The exact Jaccard overlap of two documents' five-word runs, from their stored chunks. */
async function exactOverlap(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map(async (s) => new Set(shingleHashes(joinDocument((await app.store.sourceChunks(s)).map((c) => ({ text: c.text, parentId: c.parent_id, contextLines: c.context_lines })))))));
  const shared = [...x!].filter((h) => y!.has(h)).length;
  return shared / (x!.size + y!.size - shared || 1);
}

beforeAll(async () => {
  const built = await officeIndex();
  app = built.app;
  const sources = await app.store.listSources();
  indexed = new Set(sources.map((s) => s.source));
  const table = (await app.store.open())!;
  const found = await lookAlikesOf(app.signatures, app.store, [...indexed], ROOTS);
  for (const [source, alikes] of found) for (const other of alikes) flagged.add(key(source, other.source));
  const signatures = new Map((await readSignatures(table)).map((r) => [r.source, decodeSignature(r.minhash)]));
  GROUPS.forEach((group, g) => {
    const files = group.files.map((f) => join(CORPUS, f)).filter((f) => indexed.has(f));
    for (let i = 0; i < files.length; i++) for (let j = i + 1; j < files.length; j++) pairs.push({ group: g, kind: kindOf(group.relation), a: files[i]!, b: files[j]! });
  });
  for (const p of pairs) {
    const estimate = overlap(signatures.get(p.a)!, signatures.get(p.b)!);
    rows.push(`| ${p.group} | ${p.kind} | ${short(p.a)} | ${short(p.b)} | ${estimate.toFixed(2)} | ${(await exactOverlap(p.a, p.b)).toFixed(2)} | ${flagged.has(key(p.a, p.b)) ? "yes" : "no"} |`);
  }
  const skipped = GROUPS.map((g, i) => [i, g.files.filter((f) => indexed.has(join(CORPUS, f))).length] as const).filter(([, n]) => n < 2);
  console.log(
    [
      `indexed ${indexed.size} documents in ${built.seconds.toFixed(0)} s; ${found.size} have look-alikes, ${flagged.size} pairs named`,
      `groups with fewer than two indexed files (not applicable): ${skipped.map(([i]) => i).join(", ")}`,
      "",
      "| group | kind | document | document | estimate | exact | named |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...rows,
    ].join("\n"),
  );
}, 600_000);

describe("look-alikes against lookalikes.json", () => {
  test("every pair of every versions or near-duplicate group is named", () => {
    const required = pairs.filter((p) => p.kind === "required");
    const missed = required.filter((p) => !flagged.has(key(p.a, p.b))).map((p) => `${short(p.a)} ~ ${short(p.b)}`);
    const labelledNamed = pairs.filter((p) => flagged.has(key(p.a, p.b)));
    const truePositives = labelledNamed.filter((p) => p.kind === "required" || p.kind === "format").length;
    const format = pairs.filter((p) => p.kind === "format");
    console.log(
      `recall (versions and near-duplicates): ${required.length - missed.length}/${required.length}; ` +
        `recall (same text, another format): ${format.filter((p) => flagged.has(key(p.a, p.b))).length}/${format.length}; ` +
        `precision over labelled pairs: ${truePositives}/${labelledNamed.length}`,
    );
    expect(required.length).toBeGreaterThan(5);
    expect(missed).toEqual([]);
  });

  test("no pair marked as not duplicates (translations) is named", () => {
    const negative = pairs.filter((p) => p.kind === "negative");
    expect(negative.length).toBeGreaterThan(0);
    expect(negative.filter((p) => flagged.has(key(p.a, p.b))).map((p) => `${short(p.a)} ~ ${short(p.b)}`)).toEqual([]);
  });
});
