/** A model folder's profile without a profile file: the e5 family by name, the trained length from the folder's files. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { e5Evidence, statedMaxLength, type FolderFiles } from "../../src/embed/folder-profile.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { tinyCopy } from "./model-copies.ts";

const options = { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" };
const none: FolderFiles = { tokenizer: {}, tokenizerConfig: {}, config: {} };

describe("the e5 family is recognised by names Hugging Face writes, and by the folder name", () => {
  test.each([
    ["/models/multilingual-e5-small-int8", none, "the folder name"],
    ["/models/e5-base-v2", none, "the folder name"],
    ["/cache/models--intfloat--multilingual-e5-small/snapshots/0123abc", none, "the hub cache folder name"],
    ["/models/mine", { ...none, config: { _name_or_path: "intfloat/e5-large-v2" } }, "config.json _name_or_path"],
    ["/models/mine", { ...none, tokenizerConfig: { name_or_path: "intfloat/multilingual-e5-base" } }, "tokenizer_config.json name_or_path"],
  ] as const)("%s (%o) by %s", (dir, files, by) => {
    expect(e5Evidence(dir, files)).toContain(by);
  });

  test.each([
    "/models/multilingual-e5-large-instruct",
    "/models/e5-mistral-7b-instruct",
    "/models/paraphrase-multilingual-MiniLM-L12-v2",
    "/models/bge-m3",
    "/models/me5-small",
  ])("%s is not taken for e5 (instruct variants want an instruction, not a prefix)", (dir) => {
    expect(e5Evidence(dir, none)).toBeNull();
  });

  test("a folder named for e5 gets its prefixes, within the length its tokenizer states, and the choice is marked for the log", async () => {
    const folder = await resolveModelFolder(tinyCopy("multilingual-e5-small-int8"), options);
    expect(folder.profile).toEqual({ queryPrefix: "query: ", passagePrefix: "passage: ", pooling: "mean", normalize: true, maxLength: 128 });
    expect(folder.profileRead).toBe(true);
    expect(folder.profileSource).toContain('the folder name "multilingual-e5-small-int8"');
  });

  test("a profile file wins over the recognised family", async () => {
    const folder = await resolveModelFolder(tinyCopy("multilingual-e5-small-int8", { queryPrefix: "", passagePrefix: "" }), options);
    expect(folder.profile.queryPrefix).toBe("");
    expect(folder.profile.passagePrefix).toBe("");
    expect(folder.profileSource).toContain("minirag-profile.json");
  });

  test("a hub cache snapshot of e5 is recognised two levels up", async () => {
    const copy = tinyCopy("source");
    const snapshot = join(dirname(copy), "models--intfloat--multilingual-e5-small", "snapshots", "0123abc");
    mkdirSync(dirname(snapshot), { recursive: true });
    renameSync(copy, snapshot);
    expect((await resolveModelFolder(snapshot, options)).profile.passagePrefix).toBe("passage: ");
  });
});

describe("the trained length a folder states", () => {
  test.each([
    ["nothing stated: 512", none, 512],
    ["tokenizer.json truncation", { ...none, tokenizer: { truncation: { max_length: 128 } } }, 128],
    ["tokenizer_config model_max_length", { ...none, tokenizerConfig: { model_max_length: 256 } }, 256],
    ["the 1e30 sentinel means unset", { ...none, tokenizerConfig: { model_max_length: 1e30 } }, 512],
    ["XLM-R's 514 positions are 512 tokens", { ...none, config: { max_position_embeddings: 514, model_type: "xlm-roberta" } }, 512],
    ["BERT's positions count as they are", { ...none, config: { max_position_embeddings: 256, model_type: "bert" } }, 256],
    ["the shortest statement wins", { tokenizer: { truncation: { max_length: 200 } }, tokenizerConfig: { model_max_length: 512 }, config: {} }, 200],
    ["long-context models are capped at 512 unless a profile file says more", { ...none, tokenizerConfig: { model_max_length: 8192 } }, 512],
  ] as const)("%s", (_name, files, expected) => {
    expect(statedMaxLength(files)).toBe(expected);
  });
});
