/** MinHash and LSH banding, measured: the overlap estimate's error, the banding's recall at the threshold, and the stored form. */
import { describe, expect, test } from "bun:test";
import { LshIndex } from "../../src/lookalikes/lsh.ts";
import { PERMUTATIONS, decodeSignature, decodeSignatureBytes, encodeSignature, minhash, minhashSteps, overlap } from "../../src/lookalikes/minhash.ts";
import { inSlices, slices } from "../../src/slices.ts";
import { turnCounter } from "../helpers.ts";
import { SHINGLE_WORDS, shingleHashes, shingleSteps, wordsOf } from "../../src/lookalikes/shingles.ts";
import { hashString, hashWords } from "../../src/lookalikes/hash32.ts";
import { tablesByColumn } from "../../src/lookalikes/table-columns.ts";

/** Two sets of `size` random 32-bit values sharing enough to have Jaccard overlap `jaccard`. */
function pair(jaccard: number, size: number, random: () => number): [Uint32Array, Uint32Array] {
  // |A ∩ B| = s, |A| = |B| = size, J = s / (2·size − s)  =>  s = 2·size·J / (1 + J)
  const shared = Math.round((2 * size * jaccard) / (1 + jaccard));
  const value = () => Math.floor(random() * 2 ** 32) >>> 0;
  const common = Array.from({ length: shared }, value);
  return [Uint32Array.from([...common, ...Array.from({ length: size - shared }, value)]), Uint32Array.from([...common, ...Array.from({ length: size - shared }, value)])];
}

function seeded(seed: number): () => number {
  return () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

describe("MinHash overlap estimate", () => {
  test.each([0.2, 0.5, 0.8])("at overlap %p it is unbiased with a standard error under 0.05 over 300 pairs", (jaccard) => {
    const random = seeded(Math.round(jaccard * 1000));
    const errors = Array.from({ length: 300 }, () => {
      const [a, b] = pair(jaccard, 400, random);
      return overlap(minhash(a), minhash(b)) - jaccard;
    });
    const mean = errors.reduce((s, e) => s + e, 0) / errors.length;
    const sd = Math.sqrt(errors.reduce((s, e) => s + (e - mean) ** 2, 0) / errors.length);
    expect(Math.abs(mean)).toBeLessThan(0.015);
    expect(sd).toBeLessThan(0.05);
    // The theory the permutation count was chosen by: sqrt(J(1-J)/128), within sampling noise.
    expect(sd).toBeLessThan(Math.sqrt((jaccard * (1 - jaccard)) / PERMUTATIONS) * 1.25);
  });

  test("identical sets agree in every slot, disjoint ones in almost none", () => {
    const random = seeded(7);
    const [a] = pair(0, 300, random);
    const [b] = pair(0, 300, random);
    expect(overlap(minhash(a), minhash(Uint32Array.from(a)))).toBe(1);
    expect(overlap(minhash(a), minhash(b))).toBeLessThan(0.05);
  });

  test("a signature survives its stored form; an empty one or one of another length compares as no overlap", () => {
    const signature = minhash(Uint32Array.from([1, 2, 3, 0xffffffff]));
    expect(decodeSignature(encodeSignature(signature))).toEqual(signature);
    expect(encodeSignature(minhash(new Uint32Array(0)))).toBe("");
    expect(overlap(decodeSignature(""), signature)).toBe(0);
    expect(overlap(decodeSignature(Buffer.alloc(40).toString("base64")), signature)).toBe(0);
  });

  test("decoding the stored form's bytes gives what decoding its text gives, into the slots given, for any form", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const random = seeded(11);
    for (let n = 0; n < 200; n++) {
      // Every value a slot can hold, the extremes included: each byte position takes every value somewhere.
      const signature = Uint32Array.from({ length: PERMUTATIONS }, (_, i) => (i === n % PERMUTATIONS ? [0, 0xffffffff][n % 2]! : Math.floor(random() * 2 ** 32)));
      const slots = new Uint32Array(3 * PERMUTATIONS);
      const into = slots.subarray(PERMUTATIONS, 2 * PERMUTATIONS);
      expect(decodeSignatureBytes(bytes(encodeSignature(signature)), into)).toBe(into);
      expect(into).toEqual(signature);
      expect(slots.subarray(0, PERMUTATIONS).every((v) => v === 0) && slots.subarray(2 * PERMUTATIONS).every((v) => v === 0)).toBe(true);
      expect(decodeSignatureBytes(bytes(encodeSignature(signature)))).toEqual(signature);
    }
    const stored = encodeSignature(minhash(Uint32Array.from([5, 6, 7])));
    // Forms only another writer would store go the text's way: a letter outside base64, and base64 without its padding.
    for (const text of ["", stored.slice(0, 10) + "*" + stored.slice(11), stored.slice(0, -1), Buffer.alloc(40).toString("base64"), "A".repeat(stored.length - 2) + "=="]) {
      expect(decodeSignatureBytes(bytes(text))).toEqual(decodeSignature(text));
    }
    expect(() => decodeSignatureBytes(bytes(stored), new Uint32Array(PERMUTATIONS - 1))).toThrow(`a signature takes ${PERMUTATIONS} slots, not ${PERMUTATIONS - 1}`);
  });
});

describe("LSH banding", () => {
  test("finds every pair estimated at 0.5 or more among 200 documents, and no pair below", () => {
    const random = seeded(99);
    const signatures: Uint32Array[] = [];
    const truth: [number, number, number][] = [];
    for (let i = 0; i < 100; i++) {
      const jaccard = 0.3 + 0.6 * random();
      const [a, b] = pair(jaccard, 300, random);
      signatures.push(minhash(a), minhash(b));
      truth.push([2 * i, 2 * i + 1, overlap(signatures[2 * i]!, signatures[2 * i + 1]!)]);
    }
    const lsh = new LshIndex(signatures);
    for (const [a, b, estimate] of truth) {
      const found = lsh.similarTo(a, 0.5).map((s) => s.index);
      expect(found).toEqual(estimate >= 0.5 ? [b] : []);
    }
  });

  test("finds what comparing every pair finds among 600 documents in families of near and exact copies", () => {
    const random = seeded(7);
    const signatures: Uint32Array[] = [];
    for (let family = 0; family < 60; family++) {
      const base = Uint32Array.from({ length: 200 }, () => Math.floor(random() * 2 ** 32));
      for (let member = 0; member < 10; member++) {
        // Members keep 40-100% of the family's shingles (some exact copies), the rest their own.
        const kept = member % 4 === 0 ? 200 : Math.floor(80 + random() * 120);
        signatures.push(minhash(Uint32Array.from([...base.slice(0, kept), ...Array.from({ length: 200 - kept }, () => Math.floor(random() * 2 ** 32))])));
      }
    }
    const lsh = new LshIndex(signatures);
    for (let a = 0; a < signatures.length; a++) {
      const all = signatures
        .map((signature, b) => ({ index: b, overlap: overlap(signatures[a]!, signature) }))
        .filter((s) => s.index !== a && s.overlap >= 0.5)
        .sort((x, y) => y.overlap - x.overlap || x.index - y.index);
      expect(lsh.similarTo(a, 0.5)).toEqual(all);
    }
    // Past 32,768 documents the bands are sorted 16 bits a pass instead of 8: with 40,000 unrelated signatures
    // after the families, each member finds exactly what it found among the 600 alone.
    const crowd = [...signatures, ...Array.from({ length: 40_000 }, () => Uint32Array.from({ length: PERMUTATIONS }, () => Math.floor(random() * 2 ** 32)))];
    const crowded = new LshIndex(crowd);
    for (let a = 0; a < signatures.length; a++) expect(crowded.similarTo(a, 0.5)).toEqual(lsh.similarTo(a, 0.5));
  });

  test("results come most similar first, without the document itself", () => {
    const base = Uint32Array.from({ length: 400 }, (_, i) => i * 7919);
    const near = Uint32Array.from([...base.slice(0, 380), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const farther = Uint32Array.from([...base.slice(0, 300), ...Array.from({ length: 100 }, (_, i) => 10_000_000 + i)]);
    const lsh = new LshIndex([minhash(base), minhash(farther), minhash(near), minhash(new Uint32Array(0))]);
    expect(lsh.similarTo(0, 0.5).map((s) => s.index)).toEqual([2, 1]);
    expect(lsh.similarTo(3, 0.5)).toEqual([]);
  });

  test("a limit keeps the most similar; among exact copies, the first by index, as a full search would", () => {
    const base = Uint32Array.from({ length: 400 }, (_, i) => i * 7919);
    const near = Uint32Array.from([...base.slice(0, 380), ...Array.from({ length: 20 }, (_, i) => i + 1)]);
    const copies = Array.from({ length: 6 }, () => minhash(base));
    // The near document comes first by index, the copies after it: the copies still outrank it.
    const lsh = new LshIndex([minhash(near), ...copies]);
    expect(lsh.similarTo(1, 0.5, 3)).toEqual([2, 3, 4].map((index) => ({ index, overlap: 1 })));
    expect(lsh.similarTo(1, 0.5, 3)).toEqual(lsh.similarTo(1, 0.5).slice(0, 3));
    expect(lsh.similarTo(0, 0.5, 2)).toEqual(lsh.similarTo(0, 0.5).slice(0, 2));
    expect(lsh.similarTo(0, 0.5).length).toBe(6);
  });
});

describe("shingles", () => {
  test("are taken over normalised words, so case, ё, escapes, markup and line breaks do not change them", () => {
    const a = "# Акт сверки\n\n| ТЗ\\_2024 | ОТЧЁТ за год, **итоги**. |";
    const b = "акт  сверки тз 2024 отчет\nза год итоги";
    expect(wordsOf(a)).toEqual(["акт", "сверки", "тз", "2024", "отчет", "за", "год", "итоги"]);
    expect(shingleHashes(a)).toEqual(shingleHashes(b));
    expect(shingleHashes(a).length).toBe(4);
  });

  test("a text of fewer than five words is one shingle, and a text with no words has none", () => {
    expect(shingleHashes("two words").length).toBe(1);
    expect(shingleHashes("— | — ***").length).toBe(0);
  });

  test("word order matters", () => {
    expect(shingleHashes("one two three four five")).not.toEqual(shingleHashes("five four three two one"));
  });
});

describe("tables in shingles", () => {
  const table = (columns: number) =>
    [`| ${["Alpha", "Beta", "Gamma", "Delta", "Extra"].slice(0, columns).join(" | ")} |`, `|${" --- |".repeat(columns)}`, ...Array.from({ length: 20 }, (_, r) => `| ${Array.from({ length: columns }, (_, c) => String((r * 37 + c * 11) % 97)).join(" | ")} |`)].join("\n");

  test("are read column by column, header cell first, delimiter row dropped, escaped pipes kept in their cell", () => {
    expect(tablesByColumn("before\n| a | b |\n| --- | :-: |\n| 1 | x \\| y |\n| 2 |  |\nafter")).toBe("before\na\n1\n2\nb\nx \\| y\nafter");
  });

  test("a table of a million rows is read (its cells were once spread as arguments, which overflowed the stack)", () => {
    const text = tablesByColumn(`| id | name |\n| --- | --- |\n${"| 7 | alpha |\n".repeat(1_000_000)}`);
    expect(text.match(/^alpha$/gm)).toHaveLength(1_000_000);
  }, 60_000);

  test("so a version with one more column still overlaps by more than half", () => {
    const estimate = overlap(minhash(shingleHashes(table(4))), minhash(shingleHashes(table(5))));
    expect(estimate).toBeGreaterThan(0.5);
  });
});

describe("a signature made in slices", () => {
  test("is the signature made in one pass, and the event loop turns while it is made", async () => {
    const random = seeded(11);
    const shingles = Uint32Array.from({ length: 40_000 }, () => Math.floor(random() * 2 ** 32) >>> 0);
    const counter = turnCounter();
    const sliced = await inSlices(minhashSteps(shingles), slices(0));
    const turns = counter.stop();
    expect([...sliced]).toEqual([...minhash(shingles)]);
    // 8,192 shingles a step: four pauses, each a turn.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe("shingles read a stretch at a time", () => {
  /** Over 300k characters of paragraphs joined by `separator`: tables, escapes, Cyrillic, soft hyphens, long and short; `extra(i)` adds to paragraph i. */
  function text(separator: string, extra: (i: number) => string = () => " with cafe\u0301"): string {
    const parts: string[] = [];
    for (let i = 0, length = 0; length < 300_000; i++, length = parts.reduce((n, p) => n + p.length, 0)) {
      parts.push(`Paragraph ${i} о ёлках и ТЗ\\_2024\\_${i}${extra(i)} and inter\u00adnational words`);
      if (i % 7 === 0) parts.push(`| Name | Count ${i} |\n| --- | --- |\n| alpha | ${i} |\n| beta | ${i * 3} |`);
      if (i % 50 === 0) parts.push("word ".repeat(20_000).trim());
    }
    return parts.join(separator);
  }

  /** What reading the whole text at once gives: its words, then their distinct five-word runs. */
  function wholeTextRuns(text: string): Set<number> {
    const words = wordsOf(tablesByColumn(text)).map(hashString);
    const runs = new Set<number>();
    for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) runs.add(hashWords(words, i, SHINGLE_WORDS));
    return runs;
  }

  const cases: [string, string][] = [
    ["paragraphs apart, a combining mark in each", text("\n\n")],
    ["lines with no blank line between them", text("\n")],
    // Decomposed Korean holds no combining mark yet changes under NFC: composed as the whole text is, by the one mark far away.
    ["decomposed Korean, with one combining mark at the end", `${text("\n\n", () => " \u1112\u1161\u11ab\u1100\u1173\u11af")}\n\nOne mark: cafe\u0301.`],
    ["a compatibility ideograph, with one combining mark at the end", `${text("\n", (i) => (i === 1 ? " \uf900" : ""))}\nOne mark: cafe\u0301.`],
  ];
  for (const [name, sample] of cases) {
    test(`${name}: the runs of the whole text's words, in slices too`, async () => {
      expect(new Set(shingleHashes(sample))).toEqual(wholeTextRuns(sample));
      const counter = turnCounter();
      const sliced = await inSlices(shingleSteps(sample), slices(0));
      // Stretches of at least 64k characters, each a turn: 300k make at least two, whatever paragraph lengths do.
      expect(counter.stop()).toBeGreaterThanOrEqual(2);
      expect([...sliced]).toEqual([...shingleHashes(sample)]);
    });
  }

  test("a table longer than a stretch is not cut: its columns are read whole", () => {
    const rows = Array.from({ length: 8_000 }, (_, r) => `| row${r} | value${r % 13} |`).join("\n");
    const sample = `Before the table.\n| Key | Value |\n| --- | --- |\n${rows}\nAfter the table.\n${"more prose here ".repeat(10_000)}`;
    expect(new Set(shingleHashes(sample))).toEqual(wholeTextRuns(sample));
  });
});
