import { describe, expect, test } from "bun:test";
import { utimesSync } from "node:fs";
import { parseTaxonomy } from "../../src/labels/parse-taxonomy.ts";
import { TaxonomyFile } from "../../src/labels/taxonomy-file.ts";
import { failure, tempDir, writeTree } from "../helpers.ts";

const MODEL = `[model]\npath = "/models/x.gguf"\ntemperature = 2.07\n`;

describe("classify.toml parsing", () => {
  test("the README's example parses: facets in order, defaults filled, paths NFC-normalised", () => {
    const taxonomy = parseTaxonomy(`
[model]
repo = "crh225/plumb-4b-GGUF"
file = "plumb-4b-v5-Q8_0.gguf"
revision = "71c1c57e523219124f7be9c486d475d19891185f"
sha256 = "a0d2974e04541b79e167d8acabfb7a7e4b4f93f3b47ac4a006d196d240f68177"
temperature = 2.07

[facets.project]
default = "main"
values.main = { description = "The main product." }
values.pilots = { description = "Pilot projects.", paths = ["./pilots/"] }

[facets.type]
question = "What kind of document is this?"
override_at = 0.9
values.minutes = { description = "Minutes." }
values.transcript = { description = "Transcript.", paths = ["Cafe\u0301"] }
`);
    expect(taxonomy.facets.map((f) => f.id)).toEqual(["project", "type"]);
    expect(taxonomy.facets[0]!.values[1]!.paths).toEqual(["pilots"]);
    expect(taxonomy.facets[1]!.values[1]!.paths).toEqual(["Café".normalize("NFC")]);
    expect(taxonomy.facets[0]!.question).toBe("What kind of document is this?");
    expect(taxonomy.model).toMatchObject({ temperature: 2.07, uncertainBelow: 0.7, fileNameLabel: "File name", source: { kind: "pinned", repo: "crh225/plumb-4b-GGUF" } });
    expect(taxonomy.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  test("the hash follows what decides labels and ignores comments and layout", () => {
    const a = parseTaxonomy(`[facets.kind]\ndefault = "a"\nvalues.a = { description = "A." }\n`);
    const b = parseTaxonomy(`# a comment\n[facets.kind]\nvalues.a = { description = "A." }\ndefault = "a"\n`);
    const c = parseTaxonomy(`[facets.kind]\ndefault = "a"\nvalues.a = { description = "A, reworded." }\n`);
    expect(b.hash).toBe(a.hash);
    expect(c.hash).not.toBe(a.hash);
  });

  test("a tilde in model.path is the home folder", () => {
    const taxonomy = parseTaxonomy(`[model]\npath = "~/m.gguf"\ntemperature = 1\n[facets.kind]\nvalues.a = { description = "A." }\n`);
    expect(taxonomy.model!.source).toEqual({ kind: "path", path: `${process.env.HOME}/m.gguf` });
  });

  const refused: [string, string, RegExp][] = [
    ["broken TOML", "[facets.kind\n", /not valid TOML at line 1/],
    ["a string not closed, on its line", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A. }\nvalues.b = { description = "B." }\n`, /not valid TOML at line 3: .*Unterminated string/],
    ["an array not closed, on its line", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }\nvalues.b = { description = "B.", paths = ["versions" }\nvalues.c = { description = "C." }\n`, /not valid TOML at line 4: .*Expected ',' or ']'/],
    ["an unknown top-level table", `[labels]\nx = 1\n[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }`, /unknown key labels/],
    ["an unknown facet key", `[facets.k]\ndefault = "a"\ndefualt = "a"\nvalues.a = { description = "A." }`, /unknown key facets\.k\.defualt/],
    ["an unknown value key", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A.", path = ["x"] }`, /unknown key facets\.k\.values\.a\.path/],
    ["an unknown model key", `${MODEL}gpu = true\n[facets.k]\nvalues.a = { description = "A." }`, /unknown key model\.gpu/],
    ["a facet name that is not a slug", `[facets.Kind]\ndefault = "a"\nvalues.a = { description = "A." }`, /facet name "Kind" is not a slug/],
    ["a value id that is not a slug", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }\nvalues."b c" = { description = "B." }`, /value "b c" is not a slug/],
    ["a value without a description", `[facets.k]\ndefault = "a"\nvalues.a = { paths = ["x"] }`, /facets\.k\.values\.a\.description must be a non-empty string/],
    ["an empty description", `[facets.k]\ndefault = "a"\nvalues.a = { description = " " }`, /description must be a non-empty string/],
    ["a facet with no values", `[facets.k]\ndefault = "a"`, /needs at least one value/],
    ["no facets", MODEL, /at least one \[facets/],
    ["a default that is not a value", `[facets.k]\ndefault = "z"\nvalues.a = { description = "A." }`, /default is "z", which is not one of its values \(a\)/],
    ["override_at of 0", `${MODEL}[facets.k]\noverride_at = 0\nvalues.a = { description = "A." }`, /override_at must be a number in \(0, 1\]/],
    ["override_at above 1", `${MODEL}[facets.k]\noverride_at = 1.5\nvalues.a = { description = "A." }`, /override_at must be a number in \(0, 1\]/],
    ["a model facet with 17 values", `${MODEL}[facets.k]\n${Array.from({ length: 17 }, (_, i) => `values.v${i} = { description = "V." }`).join("\n")}`, /has 17 values; the most is 16/],
    ["a model facet without [model]", `[facets.k]\nvalues.a = { description = "A." }`, /\[model\] table is required/],
    ["path and repo together", `[model]\npath = "/m.gguf"\nrepo = "a/b"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /model\.path and model\.repo are both set/],
    ["a pin without sha256", `[model]\nrepo = "a/b"\nfile = "m.gguf"\nrevision = "71c1c57e523219124f7be9c486d475d19891185f"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /missing: sha256/],
    ["a revision that is a branch", `[model]\nrepo = "a/b"\nfile = "m.gguf"\nrevision = "main"\nsha256 = "${"a".repeat(64)}"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /40-hex-digit commit/],
    ["no temperature", `[model]\npath = "/m.gguf"\n[facets.k]\nvalues.a = { description = "A." }`, /model\.temperature is required/],
    ["uncertain_below of 1", `${MODEL}uncertain_below = 1\n[facets.k]\nvalues.a = { description = "A." }`, /uncertain_below must be a number in \(0, 1\)/],
    ["an empty file_name_label", `${MODEL}file_name_label = ""\n[facets.k]\nvalues.a = { description = "A." }`, /file_name_label must be a non-empty string/],
    ["a path rule that leaves the root", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A.", paths = ["../elsewhere"] }`, /relative to the first root/],
    ["within that is not a list", `[facets.k]\ndefault = "a"\nwithin = "x"\nvalues.a = { description = "A." }`, /within must be a list/],
    ["a path rule of the root itself, which no file's folder would match", `[facets.k]\ndefault = "a"\nvalues.a = { description = "A.", paths = ["."] }`, /paths has "\.": give folders relative to the first root/],
    ["within as an empty list, which would leave the facet off everywhere", `[facets.k]\ndefault = "a"\nwithin = []\nvalues.a = { description = "A." }`, /within names no folder/],
    ["a model.file that climbs out of the model cache (a classify.toml travels with the documents, so it could write anywhere)", `[model]\nrepo = "a/b"\nfile = "../../../.bashrc"\nrevision = "71c1c57e523219124f7be9c486d475d19891185f"\nsha256 = "${"a".repeat(64)}"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /model\.file "\.\.\/\.\.\/\.\.\/\.bashrc" is not a file name in the repository/],
    ["an absolute model.file", `[model]\nrepo = "a/b"\nfile = "/etc/x.gguf"\nrevision = "71c1c57e523219124f7be9c486d475d19891185f"\nsha256 = "${"a".repeat(64)}"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /model\.file "\/etc\/x\.gguf" is not a file name in the repository/],
    ["a model.repo that is not owner/name", `[model]\nrepo = "../.."\nfile = "m.gguf"\nrevision = "71c1c57e523219124f7be9c486d475d19891185f"\nsha256 = "${"a".repeat(64)}"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /model\.repo "\.\.\/\.\." is not a Hugging Face repository/],
    ["a relative model.path, which the server and the CLI would look for in different working folders", `[model]\npath = "models/m.gguf"\ntemperature = 1\n[facets.k]\nvalues.a = { description = "A." }`, /model\.path "models\/m\.gguf" is relative/],
  ];
  for (const [what, text, message] of refused) {
    test(`refuses ${what}, naming the key`, async () => {
      const error = await failure(() => parseTaxonomy(text, "/r/.minirag/classify.toml"));
      expect(error.message).toMatch(message);
      expect(error.message).toStartWith("/r/.minirag/classify.toml: ");
      expect(error.hint).toContain("classify.toml");
    });
  }

  test("a path rule written with ./ inside or a doubled slash matches the folder it names", () => {
    const taxonomy = parseTaxonomy(`[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }\nvalues.b = { description = "B.", paths = ["notes/./minutes", "mail//in/"] }`);
    expect(taxonomy.facets[0]!.values[1]!.paths).toEqual(["notes/minutes", "mail/in"]);
  });

  test("a default-only facet needs no [model]", () => {
    expect(parseTaxonomy(`[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }`).model).toBeUndefined();
  });
});

describe("finding classify.toml", () => {
  test("no file means labels are off; the file in the first root turns them on; a later root's file is ignored", () => {
    const [first, second] = [tempDir(), tempDir()];
    writeTree(second, { ".minirag/classify.toml": `[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }` });
    const file = new TaxonomyFile([first, second]);
    expect(file.load()).toEqual({ state: "absent" });
    writeTree(first, { ".minirag/classify.toml": `[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }` });
    expect(file.load().state).toBe("ok");
  });

  test("an edit is picked up by the next use, and a file that stops parsing becomes an error", () => {
    const root = tempDir();
    writeTree(root, { ".minirag/classify.toml": `[facets.k]\ndefault = "a"\nvalues.a = { description = "A." }` });
    const file = new TaxonomyFile([root]);
    const before = file.load();
    writeTree(root, { ".minirag/classify.toml": `[facets.k]\ndefault = "b"\nvalues.b = { description = "B." }` });
    const later = new Date(Date.now() + 5000);
    utimesSync(`${root}/.minirag/classify.toml`, later, later);
    const after = file.load();
    expect(after.state === "ok" && before.state === "ok" && after.taxonomy.hash !== before.taxonomy.hash).toBe(true);
    writeTree(root, { ".minirag/classify.toml": "[facets.k" });
    utimesSync(`${root}/.minirag/classify.toml`, new Date(Date.now() + 9000), new Date(Date.now() + 9000));
    expect(file.load()).toMatchObject({ state: "error", message: expect.stringContaining("not valid TOML") });
  });

  test("a classify.toml that is a folder is an error, not silence", () => {
    const root = tempDir();
    writeTree(root, { ".minirag/classify.toml/x": "" });
    expect(new TaxonomyFile([root]).load()).toMatchObject({ state: "error", message: expect.stringContaining("is not a file") });
  });
});
