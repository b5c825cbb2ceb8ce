/**
 * The label model through llama.cpp (node-llama-cpp): the question, lettered
 * options, the file name and the start of the document go in as one user
 * turn of the model's own chat template, and the next-token probability of
 * each option letter is read out. Nothing is generated. Its log-probabilities
 * are the logits calibrate() scales by the model card's temperature.
 *
 * Never run against a trained model: none is reachable from the machines
 * this was built on. Tests run it on a tiny GGUF they write themselves
 * (test/labels/tiny-gguf.ts), which llama.cpp loads and evaluates like any
 * model, so everything but the quality of a real model's answers is covered.
 */
import { AppError } from "../errors.ts";
import { loadLlama } from "../native/llama.ts";
import { ensureLlama } from "./llama-addon.ts";
import type { LoadedScorer, ScorerPlace, ScoreRequest } from "./label-scorer.ts";
import { ensureModelFile } from "./model-file.ts";
import type { ModelSettings } from "./taxonomy.ts";

const LETTERS = "ABCDEFGHIJKLMNOP";
/** Room for the prompt: the question, up to 16 descriptions and MODEL_TEXT_CHARS of text. */
const CONTEXT_TOKENS = 4096;

/** The user turn: question, lettered options, file name, text, and the instruction to answer with a letter. */
export function labelPrompt(request: ScoreRequest): string {
  const options = request.options.map((o, i) => `${LETTERS[i]}. ${o.description}`).join("\n");
  const name = request.fileName ? `${request.fileNameLabel}: ${request.fileName}\n\n` : "";
  return `${request.question}\n\n${options}\n\n${name}${request.text}\n\nAnswer with the letter of one option.`;
}

export async function loadLlamaScorer(model: ModelSettings, ctx: ScorerPlace): Promise<LoadedScorer> {
  const files = { cacheDir: ctx.cacheDir, endpoint: ctx.hfEndpoint, log: ctx.log };
  // A model.path that is not there is named before the add-on is fetched: the network is not what to fix then.
  const localPath = model.source.kind === "path" ? await ensureModelFile(model.source, files) : undefined;
  const { lib, llama } = await loadLlama(await ensureLlama({ cacheDir: ctx.cacheDir, downloadUrl: ctx.downloadUrl }, ctx.log));
  const modelPath = localPath ?? (await ensureModelFile(model.source, files));
  const loaded = await llama.loadModel({ modelPath }).catch((error: Error) => {
    throw new AppError("MODEL_LOAD", `The label model ${modelPath} could not be loaded: ${error.message}`, "Check that the file is a complete GGUF (delete it to download it again), or point model.path at another one.");
  });
  let context;
  try {
    context = await loaded.createContext({ contextSize: CONTEXT_TOKENS });
  } catch (error) {
    // The model is loaded by now: free it, or every failed attempt would keep one in memory.
    await loaded.dispose();
    throw new AppError("MODEL_LOAD", `The label model ${modelPath} loaded, but no context of ${CONTEXT_TOKENS} tokens could be made for it: ${(error as Error).message}`, "The machine may be short of memory; close other programs, or point model.path at a smaller model.");
  }
  const wrapper = lib.resolveChatWrapper(loaded);
  const letterTokens = [...LETTERS].map((letter) => loaded.tokenize(letter, false)[0]!);
  // One sequence for the model's life, emptied before each document: a disposed sequence's slot is not
  // free again at once, so a sequence per call ran out of slots on the second document (tiny-GGUF test).
  const sequence = context.getSequence();
  const score = async (request: ScoreRequest): Promise<number[]> => {
    const history = [{ type: "user" as const, text: labelPrompt(request) }, { type: "model" as const, response: [] }];
    const { contextText } = wrapper.generateContextState({ chatHistory: history });
    const tokens = contextText.tokenize(loaded.tokenizer).slice(-CONTEXT_TOKENS + 8);
    await sequence.clearHistory();
    const last = tokens.length - 1;
    const input = tokens.map((t, i) => (i === last ? ([t, { generateNext: { probabilities: true } }] as const) : t));
    const output = await sequence.controlledEvaluate(input as Parameters<typeof sequence.controlledEvaluate>[0]);
    const probabilities = output[last]?.next.probabilities ?? new Map();
    return request.options.map((_, i) => Math.log(Math.max(probabilities.get(letterTokens[i]!) ?? 0, 1e-12)));
  };
  // Calls take turns on the one sequence: one call's clearHistory must not land between another's clear and evaluate.
  let turn: Promise<unknown> = Promise.resolve();
  return {
    logits(request) {
      const answer = turn.then(() => score(request));
      turn = answer.catch(() => undefined);
      return answer;
    },
    async release() {
      await turn;
      sequence.dispose();
      await context.dispose();
      await loaded.dispose();
    },
  };
}
