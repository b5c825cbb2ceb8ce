/**
 * The fused stand-in for the old default's model_optimized.onnx
 * (scripts/onnx/make-fused-standin.py), built once per machine from the e5
 * weights in ../shared/models with the pinned Python packages and kept in the
 * system's temp folder under its sha256, which is checked on every use. Made
 * as a model folder: the ONNX file under the old default's name, e5's
 * tokenizer files, and a profile giving the old default's 128 tokens and no
 * prefixes, so it runs as that model would.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sha256File } from "../../src/download/verified-download.ts";

const REPO = resolve(import.meta.dir, "../..");
const SOURCE = resolve(REPO, "../shared/models/multilingual-e5-small-int8");
/** What the script made from the shared model with the pinned packages, on two runs. */
export const STANDIN_SHA256 = "99cfa19afafec7069fcd40370cc6c093d6c8fabe51ab430552bbf8b69786e7ce";
export const STANDIN_FILE = "model_optimized.onnx";

function run(cmd: string[], what: string): void {
  const proc = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`${what} failed (${cmd.join(" ")}): ${proc.stderr.toString().slice(-2000)}`);
}

/** The stand-in's model folder, built (a few minutes: a venv, the pinned packages, the script) when not there yet. */
export async function fusedStandin(): Promise<string> {
  const dir = join(tmpdir(), `minirag-fused-standin-${STANDIN_SHA256.slice(0, 12)}`);
  const model = join(dir, STANDIN_FILE);
  if (existsSync(model) && (await sha256File(model)) === STANDIN_SHA256) return dir;
  if (!existsSync(join(SOURCE, "model.onnx"))) throw new Error(`No e5 model at ${SOURCE}: the fused stand-in is made from it.`);
  mkdirSync(dir, { recursive: true });
  const venv = join(dir, "venv");
  const python = join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  if (!existsSync(python)) run(["python3", "-m", "venv", venv], "making a Python venv");
  run([python, "-m", "pip", "install", "--quiet", "-r", join(REPO, "scripts/onnx/fused-standin-requirements.txt")], "installing the pinned packages");
  const temp = join(dir, `building-${process.pid}.onnx`);
  try {
    run([python, join(REPO, "scripts/onnx/make-fused-standin.py"), join(SOURCE, "model.onnx"), temp], "making the fused stand-in");
    const digest = await sha256File(temp);
    if (digest !== STANDIN_SHA256) throw new Error(`the fused stand-in came out as sha256 ${digest}, not ${STANDIN_SHA256}: the script, the packages or the source model changed`);
    renameSync(temp, model);
  } finally {
    // With the script's own scratch files (470 MB each), left behind when it fails.
    for (const path of [temp, `${temp}.fp32.onnx`, `${temp}.fused-fp32.onnx`]) rmSync(path, { force: true });
  }
  for (const file of ["tokenizer.json", "tokenizer_config.json"]) copyFileSync(join(SOURCE, file), join(dir, file));
  writeFileSync(join(dir, "minirag-profile.json"), JSON.stringify({ queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 }));
  return dir;
}
