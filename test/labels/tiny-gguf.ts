/**
 * A tiny llama-architecture GGUF written from scratch for tests: one layer,
 * 64 wide, a SentencePiece vocabulary of the byte tokens plus letters, F32
 * weights from a seeded generator. It knows nothing, but llama.cpp loads it
 * and runs it, so the label scorer's whole path (load, chat template,
 * evaluation, letter probabilities) can run where no real model is
 * reachable. Its output layer is rigged so the next token after any prompt
 * is most likely "B", then "C": a scorer that reads the option letters
 * correctly must answer the second option with the third as runner-up.
 */
import { writeFileSync } from "node:fs";

const EMBD = 64;
const FF = 128;
const HEADS = 4;
const ALIGN = 32;

const LETTERS = "ABCDEFGHIJKLMNOP";

function vocabulary(): { tokens: string[]; types: number[] } {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  const words = ["▁", ...[..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"].flatMap((c) => [c, `▁${c}`])];
  for (const w of words) {
    tokens.push(w);
    types.push(1);
  }
  return { tokens, types };
}

/** A deterministic generator (mulberry32), so the file is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

class Writer {
  private parts: Uint8Array[] = [];
  size = 0;
  bytes(b: Uint8Array) {
    this.parts.push(b);
    this.size += b.length;
  }
  u32(n: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    this.bytes(b);
  }
  i32(n: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, n, true);
    this.bytes(b);
  }
  u64(n: number) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
    this.bytes(b);
  }
  f32(n: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, n, true);
    this.bytes(b);
  }
  str(s: string) {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  pad() {
    const n = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (n) this.bytes(new Uint8Array(n));
  }
  join(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

const T = { U32: 4, I32: 5, F32: 6, STRING: 8, ARRAY: 9 };

/** Writes the tiny model to `path`. */
export function writeTinyGguf(path: string): void {
  const { tokens, types } = vocabulary();
  const rand = random(7);
  const small = (n: number, scale = 0.02) => Float32Array.from({ length: n }, () => rand() * scale);
  const ones = (n: number) => new Float32Array(n).fill(1);
  // Every embedding carries a large constant in dimension 0, so after the final norm that dimension is
  // about sqrt(64) = 8 whatever the prompt; the output rows of "B" and "C" read it, so they lead.
  const embd = small(EMBD * tokens.length);
  for (let t = 0; t < tokens.length; t++) embd[t * EMBD] = 10;
  const output = new Float32Array(EMBD * tokens.length);
  tokens.forEach((token, t) => {
    const letter = token.replace("▁", "");
    if (letter === "B") output[t * EMBD] = 1;
    if (letter === "C") output[t * EMBD] = 0.75;
  });
  const tensors: [string, number[], Float32Array][] = [
    ["token_embd.weight", [EMBD, tokens.length], embd],
    ["output_norm.weight", [EMBD], ones(EMBD)],
    ["output.weight", [EMBD, tokens.length], output],
    ["blk.0.attn_norm.weight", [EMBD], ones(EMBD)],
    ["blk.0.attn_q.weight", [EMBD, EMBD], small(EMBD * EMBD)],
    ["blk.0.attn_k.weight", [EMBD, EMBD], small(EMBD * EMBD)],
    ["blk.0.attn_v.weight", [EMBD, EMBD], small(EMBD * EMBD)],
    ["blk.0.attn_output.weight", [EMBD, EMBD], small(EMBD * EMBD)],
    ["blk.0.ffn_norm.weight", [EMBD], ones(EMBD)],
    ["blk.0.ffn_gate.weight", [EMBD, FF], small(EMBD * FF)],
    ["blk.0.ffn_up.weight", [EMBD, FF], small(EMBD * FF)],
    ["blk.0.ffn_down.weight", [FF, EMBD], small(FF * EMBD)],
  ];
  const kv: [string, number, (w: Writer) => void][] = [
    ["general.architecture", T.STRING, (w) => w.str("llama")],
    ["general.name", T.STRING, (w) => w.str("minirag tiny test model")],
    ["llama.context_length", T.U32, (w) => w.u32(4096)],
    ["llama.embedding_length", T.U32, (w) => w.u32(EMBD)],
    ["llama.block_count", T.U32, (w) => w.u32(1)],
    ["llama.feed_forward_length", T.U32, (w) => w.u32(FF)],
    ["llama.attention.head_count", T.U32, (w) => w.u32(HEADS)],
    ["llama.attention.head_count_kv", T.U32, (w) => w.u32(HEADS)],
    ["llama.rope.dimension_count", T.U32, (w) => w.u32(EMBD / HEADS)],
    ["llama.attention.layer_norm_rms_epsilon", T.F32, (w) => w.f32(1e-5)],
    ["tokenizer.ggml.model", T.STRING, (w) => w.str("llama")],
    ["tokenizer.ggml.tokens", T.ARRAY, (w) => (w.u32(T.STRING), w.u64(tokens.length), tokens.forEach((t) => w.str(t)))],
    ["tokenizer.ggml.scores", T.ARRAY, (w) => (w.u32(T.F32), w.u64(tokens.length), tokens.forEach((_, i) => w.f32(-i)))],
    ["tokenizer.ggml.token_type", T.ARRAY, (w) => (w.u32(T.I32), w.u64(types.length), types.forEach((t) => w.i32(t)))],
    ["tokenizer.ggml.unknown_token_id", T.U32, (w) => w.u32(0)],
    ["tokenizer.ggml.bos_token_id", T.U32, (w) => w.u32(1)],
    ["tokenizer.ggml.eos_token_id", T.U32, (w) => w.u32(2)],
  ];
  const w = new Writer();
  w.bytes(new TextEncoder().encode("GGUF"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, type, value] of kv) {
    w.str(key);
    w.u32(type);
    value(w);
  }
  let offset = 0;
  for (const [name, dims, data] of tensors) {
    w.str(name);
    w.u32(dims.length);
    for (const d of dims) w.u64(d);
    w.u32(0); // F32
    w.u64(offset);
    offset += Math.ceil(data.byteLength / ALIGN) * ALIGN;
  }
  w.pad();
  for (const [, , data] of tensors) {
    w.bytes(new Uint8Array(data.buffer));
    w.pad();
  }
  writeFileSync(path, w.join());
}

export { LETTERS };
