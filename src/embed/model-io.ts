/**
 * What the embedder needs of an ONNX graph's inputs and outputs, checked when
 * its session opens: BERT-style int64 inputs of any batch size and length,
 * and a float output of token states ([texts, tokens, width]) or sentence
 * vectors ([texts, width]). A graph that fails these cannot embed, so the
 * load fails and keyword-only mode takes over (no-model.ts); before, some of
 * them (an int64 output, a rank-1 output) loaded and then failed every file
 * of a sync, and one whose output width followed the input's length stored
 * vectors of varying width.
 */
import type { InferenceSession } from "onnxruntime-node";
import { AppError } from "../errors.ts";

/** The inputs the embedder can feed, each int64 [batch, sequence]. */
export const SUPPLIED_INPUTS = ["input_ids", "attention_mask", "token_type_ids"];
const BERT_INPUTS_HINT = "MODEL_NAME must name a BERT-style sentence-embedding model (inputs input_ids, attention_mask, optionally token_type_ids); unset it to use the default.";
const DYNAMIC_AXES_HINT = "Export the model with dynamic batch and sequence axes (optimum-cli export onnx does), or unset MODEL_NAME to use the default model.";
const OUTPUT_HINT = "MODEL_NAME must name a sentence-embedding model whose output is float token states [batch, sequence, width] or sentence vectors [batch, width]; unset it to use the default.";

type Session = Pick<InferenceSession, "inputNames" | "outputNames" | "inputMetadata" | "outputMetadata">;

/** The output read: the token states when the model names them, else its first output (a pooled sentence_embedding, say). */
export function outputName(session: Pick<InferenceSession, "outputNames">): string {
  const outputs = session.outputNames;
  return outputs.includes("last_hidden_state") ? "last_hidden_state" : outputs[0]!;
}

/** Throws MODEL_LOAD naming the model file and what it asks or gives that the embedder cannot use. */
export function checkModelIo(session: Session, onnxPath: string): void {
  if (!session.inputNames.includes("input_ids")) {
    throw new AppError("MODEL_LOAD", `The model ${onnxPath} has no input_ids input (inputs: ${session.inputNames.join(", ")}).`, BERT_INPUTS_HINT);
  }
  const unsupported = session.inputNames.find((name) => !SUPPLIED_INPUTS.includes(name));
  if (unsupported) throw new AppError("MODEL_LOAD", `The model asks for an input this embedder cannot supply: ${unsupported}`, BERT_INPUTS_HINT);
  for (const input of session.inputMetadata ?? []) {
    if (!input.isTensor) continue;
    if (input.type !== "int64") throw new AppError("MODEL_LOAD", `The model ${onnxPath} takes ${input.name} as ${input.type}; this embedder feeds int64.`, BERT_INPUTS_HINT);
    if (input.shape.length === 0) continue;
    if (input.shape.length !== 2) throw new AppError("MODEL_LOAD", `The model ${onnxPath} takes ${input.name} of shape [${input.shape.join(", ")}]; this embedder feeds [batch, sequence].`, BERT_INPUTS_HINT);
    if (input.shape.some((d) => typeof d === "number" && d > 0)) {
      throw new AppError("MODEL_LOAD", `The model ${onnxPath} takes ${input.name} of the fixed shape [${input.shape.join(", ")}]; this embedder feeds batches of any size and length.`, DYNAMIC_AXES_HINT);
    }
  }
  const output = session.outputMetadata?.find((m) => m.name === outputName(session));
  if (!output?.isTensor) return;
  if (output.type !== "float32") throw new AppError("MODEL_LOAD", `The model ${onnxPath} returns ${output.name} as ${output.type}, not float32.`, OUTPUT_HINT);
  if (output.shape.length > 0 && output.shape.length !== 2 && output.shape.length !== 3) {
    throw new AppError("MODEL_LOAD", `The model ${onnxPath} returns ${output.name} of shape [${output.shape.join(", ")}]; an embedding model returns [batch, sequence, width] or [batch, width].`, OUTPUT_HINT);
  }
}

/** Throws MODEL_RUN unless a run's output has the shape checkModelIo expects for a batch of rows x width. */
export function checkOutput(type: string, dims: readonly number[], rows: number, width: number): void {
  const fits = type === "float32" && dims[0] === rows && (dims.length === 2 || (dims.length === 3 && dims[1] === width)) && dims.at(-1)! > 0;
  if (!fits) throw new AppError("MODEL_RUN", `The embedding model returned ${type} [${dims.join(", ")}] for a batch of ${rows} x ${width} tokens.`, OUTPUT_HINT);
}
