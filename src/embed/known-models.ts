/**
 * Model ids MODEL_NAME accepts, each pinned to one Hugging Face revision with
 * the size and sha256 of every file. The hashes of the default model were
 * taken from several independent public records of this revision, which agree.
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

export const KNOWN_MODELS: Record<string, HubModel> = {
  "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2": {
    id: "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
    // The quantized export fastembed uses for this id.
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
