/** The committed tiny model's own token counter (truncation off), as ingest uses it. */
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL } from "../helpers.ts";

const embedder = await OnnxEmbedder.load(await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" }));

export const tinyCount = (text: string): number => embedder.countTokens(text);
