/**
 * Model ids MODEL_NAME accepts, each pinned to one Hugging Face revision with
 * the size and sha256 of every file. Every size and hash was taken from
 * independent public records of that revision, which agree (each entry says
 * which); a download that does not match is refused (download.ts).
 */
import type { ModelProfile } from "./model-profile.ts";

export interface HubFile {
  path: string;
  size: number;
  sha256: string;
}

export interface HubModel {
  /** The id users put in MODEL_NAME. */
  id: string;
  /** The Hugging Face repository the files are fetched from. */
  repo: string;
  revision: string;
  dimensions: number;
  /** Prefixes, pooling, normalisation and the trained length (input past it is never seen by the encoder). */
  profile: ModelProfile;
  /** The ONNX file within files. */
  onnxFile: string;
  files: HubFile[];
}

/** The default for a new index (config/defaults.ts names it; this is its pinned form). */
const MULTILINGUAL_E5_SMALL: HubModel = {
  id: "intfloat/multilingual-e5-small",
  // transformers.js's int8 export of intfloat's weights (MIT): dynamic quantisation with MatMulInteger, whose
  // kernels run on any x64 or arm64 CPU, 118 MB. intfloat's own onnx/ folder has the fp32 graph (470 MB: four
  // times the download and the offline bundle) and a qint8 export made for AVX-512 VNNI CPUs.
  repo: "Xenova/multilingual-e5-small",
  revision: "761b726dd34fb83930e26aab4e9ac3899aa1fa78",
  dimensions: 384,
  // As e5 was trained: "query: " before questions, "passage: " before stored text, mean pooling, normalised, 512 tokens.
  profile: { queryPrefix: "query: ", passagePrefix: "passage: ", pooling: "mean", normalize: true, maxLength: 512 },
  onnxFile: "onnx/model_quantized.onnx",
  // Sizes and sha256 at this revision as five independent public records give them, all five agreeing on every
  // file they list: a Node provisioning script that fetches the five files below from this revision and checks
  // size and hash; a TypeScript embedding-model catalogue (entry local/multilingual-e5-small, with a ModelScope
  // mirror's revision beside this one); a desktop app's design notes that hashed config.json and
  // tokenizer_config.json at this commit themselves and took the other two from the repository's LFS metadata;
  // a grep tool's pinned concept-model assets (config.json, tokenizer_config.json, tokenizer.json, the ONNX file);
  // and a Python installer's expected files (hashes only). The sizes also match ergosumx/tokenx's inventory of
  // the repository (model_quantized.onnx 112.83 MiB, sha256 f80102d3f2a1229f…). One script that fetches from
  // `main` states 655 bytes for config.json and 17,112,028 for tokenizer.json beside the same hashes: it only
  // re-downloads on a size mismatch and checks the hash, and 655 is the size of intfloat's own config.json,
  // another file; every record of this revision says 658 and 17,082,730.
  files: [
    { path: "config.json", size: 658, sha256: "cb99455288675345e1a4f411438d5d0adbba5fbd3a67ea4fb03c015433b996c1" },
    { path: "special_tokens_map.json", size: 167, sha256: "d05497f1da52c5e09554c0cd874037a083e1dc1b9cfd48034d1c717f1afc07a7" },
    { path: "tokenizer_config.json", size: 443, sha256: "a1d6bc8734a6f635dc158508bef000f8e2e5a759c7d92f984b2c86e5ff53425b" },
    { path: "tokenizer.json", size: 17082730, sha256: "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39" },
    { path: "onnx/model_quantized.onnx", size: 118308185, sha256: "f80102d3f2a1229f387d3c81909990d8945513e347b0eab049f7de3c6f98c193" },
  ],
};

export const KNOWN_MODELS: Record<string, HubModel> = {
  [MULTILINGUAL_E5_SMALL.id]: MULTILINGUAL_E5_SMALL,
  // The default before multilingual-e5-small, and the reference's: indexes built with it keep it.
  "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2": {
    id: "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
    // The export fastembed uses for this id: a graph ONNX Runtime's offline optimiser has already fused.
    repo: "qdrant/paraphrase-multilingual-MiniLM-L12-v2-onnx-Q",
    revision: "faf4aa4225822f3bc6376869cb1164e8e3feedd0",
    dimensions: 384,
    // As the reference embeds with it: no prefixes, mean pooling, normalised; trained on 128 tokens.
    profile: { queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 },
    onnxFile: "model_optimized.onnx",
    files: [
      { path: "config.json", size: 673, sha256: "c8ec081fdad2df991bf5abbf18418fec7a5cdaa421f60ffb060a30040b8c376f" },
      { path: "special_tokens_map.json", size: 964, sha256: "8c785abebea9ae3257b61681b4e6fd8365ceafde980c21970d001e834cf10835" },
      { path: "tokenizer_config.json", size: 1416, sha256: "0666eebf692422757e1dddf3c9fb1ded73ba3dc726c5828671fc89e45bf3609f" },
      { path: "tokenizer.json", size: 17083009, sha256: "fa685fc160bbdbab64058d4fc91b60e62d207e8dc60b9af5c002c5ab946ded00" },
      { path: "model_optimized.onnx", size: 235052644, sha256: "634d0f66c29dc934c8fa72b8a4fe91dd4d420a22f1d82a241058d4316e659a99" },
    ],
  },
};
