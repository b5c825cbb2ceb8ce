/**
 * classify.toml, parsed with Bun's built-in TOML reader and checked strictly:
 * every problem is an error that names the key, because a typo that were
 * silently ignored would change labels without a word.
 */
import { createHash } from "node:crypto";
import { isAbsolute, join } from "node:path";
import { AppError } from "../errors.ts";
import { homeDir } from "../config/cache-dir.ts";
import {
  DEFAULT_FILE_NAME_LABEL,
  DEFAULT_QUESTION,
  DEFAULT_UNCERTAIN_BELOW,
  MAX_MODEL_VALUES,
  facetUsesModel,
  type Facet,
  type FacetValue,
  type ModelSettings,
  type Taxonomy,
} from "./taxonomy.ts";

const SLUG = /^[a-z0-9_-]+$/;
const TOP_KEYS = ["model", "facets"];
const MODEL_KEYS = ["path", "repo", "file", "revision", "sha256", "temperature", "uncertain_below", "file_name_label"];
const FACET_KEYS = ["values", "question", "within", "default", "override_at"];
const VALUE_KEYS = ["description", "paths"];

type Table = Record<string, unknown>;

function invalid(file: string, problem: string): AppError {
  return new AppError("CONFIG", `${file}: ${problem}`, "Fix classify.toml (see docs/labels.md); until then label filters are refused and status shows this error.");
}

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Files longer than this are not searched for the line of a parse error (each try parses a prefix). */
const LINE_SEARCH_LIMIT = 2000;

/**
 * The line a TOML parse error belongs to: the first line whose prefix of the
 * file fails with the same message. Bun's parser names no line (its error's
 * line and column point into Bun itself), and in a file of a dozen facets
 * "Expected ',' or ']' in an array" alone leaves the user to hunt.
 */
function tomlErrorLine(text: string, message: string): number | undefined {
  const lines = text.split("\n");
  if (lines.length > LINE_SEARCH_LIMIT) return undefined;
  for (let n = 1; n <= lines.length; n++) {
    try {
      Bun.TOML.parse(lines.slice(0, n).join("\n"));
    } catch (error) {
      if ((error as Error).message !== message) continue;
      // An error found at a line break ("found (0x0A)", a string not closed) belongs to the line the break ends,
      // which the prefix with one more line is the first to hold.
      if (/0x0A|newline/i.test(message) && n > 1) n--;
      while (n > 1 && !lines[n - 1]!.trim()) n--;
      return n;
    }
  }
  return undefined;
}

/** Parses and validates the text of classify.toml; `file` names it in errors. */
export function parseTaxonomy(text: string, file = "classify.toml"): Taxonomy {
  let raw: unknown;
  try {
    raw = Bun.TOML.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const line = tomlErrorLine(text, message);
    throw invalid(file, `not valid TOML${line ? ` at line ${line}` : ""}: ${message}`);
  }
  const fail = (problem: string) => invalid(file, problem);
  const doc = raw as Table;
  unknownKeys(doc, TOP_KEYS, "", fail);
  if (!isTable(doc.facets) || Object.keys(doc.facets).length === 0) throw fail("needs at least one [facets.<name>] table");
  const facets = Object.entries(doc.facets).map(([id, body]) => parseFacet(id, body, fail));
  const model = doc.model === undefined ? undefined : parseModel(doc.model, fail);
  const asking = facets.filter(facetUsesModel);
  for (const facet of asking) {
    if (facet.values.length > MAX_MODEL_VALUES) throw fail(`facets.${facet.id} is answered by the model and has ${facet.values.length} values; the most is ${MAX_MODEL_VALUES}`);
  }
  if (asking.length > 0 && !model) throw fail(`facets.${asking[0]!.id} is answered by the model (no default, or override_at), so a [model] table is required`);
  const hash = createHash("sha256").update(JSON.stringify({ facets, model })).digest("hex").slice(0, 16);
  return { facets, ...(model && { model }), hash };
}

function unknownKeys(table: Table, known: string[], prefix: string, fail: (p: string) => AppError): void {
  for (const key of Object.keys(table)) {
    if (!known.includes(key)) throw fail(`unknown key ${prefix}${key} (allowed here: ${known.join(", ")})`);
  }
}

function slug(id: string, what: string, fail: (p: string) => AppError): string {
  if (!SLUG.test(id)) throw fail(`${what} "${id}" is not a slug: use lowercase a-z, 0-9, _ and -`);
  return id;
}

function text(value: unknown, key: string, fail: (p: string) => AppError): string {
  if (typeof value !== "string" || !value.trim()) throw fail(`${key} must be a non-empty string`);
  return value;
}

/** A folder rule as compared: NFC, relative to the root, no "." segments and no empty ones ("a/./b" and "a//b/" are "a/b"). */
export function normaliseFolder(folder: string): string {
  return folder
    .normalize("NFC")
    .replace(/\\/g, "/")
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
}

function folders(value: unknown, key: string, fail: (p: string) => AppError): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw fail(`${key} must be a list of folder names, e.g. ["minutes"]`);
  // An empty within would switch the facet off for every document without a word.
  if (value.length === 0 && key.endsWith(".within")) throw fail(`${key} names no folder: list the folders the facet applies to, or remove within`);
  return (value as string[]).map((folder) => {
    const clean = normaliseFolder(folder);
    if (!clean || isAbsolute(folder) || clean.split("/").includes("..")) throw fail(`${key} has "${folder}": give folders relative to the first root, inside it`);
    return clean;
  });
}

function parseFacet(id: string, body: unknown, fail: (p: string) => AppError): Facet {
  slug(id, "facet name", fail);
  const at = `facets.${id}`;
  if (!isTable(body)) throw fail(`${at} must be a table`);
  unknownKeys(body, FACET_KEYS, `${at}.`, fail);
  if (!isTable(body.values) || Object.keys(body.values).length === 0) throw fail(`${at} needs at least one value: ${at}.values.<id> = { description = "..." }`);
  const values: FacetValue[] = Object.entries(body.values).map(([valueId, v]) => {
    slug(valueId, `${at} value`, fail);
    const key = `${at}.values.${valueId}`;
    if (!isTable(v)) throw fail(`${key} must be a table: { description = "..." }`);
    unknownKeys(v, VALUE_KEYS, `${key}.`, fail);
    return { id: valueId, description: text(v.description, `${key}.description`, fail), paths: v.paths === undefined ? [] : folders(v.paths, `${key}.paths`, fail) };
  });
  const facet: Facet = { id, question: body.question === undefined ? DEFAULT_QUESTION : text(body.question, `${at}.question`, fail), values };
  if (body.within !== undefined) facet.within = folders(body.within, `${at}.within`, fail);
  if (body.default !== undefined) {
    const value = text(body.default, `${at}.default`, fail);
    if (!values.some((v) => v.id === value)) throw fail(`${at}.default is "${value}", which is not one of its values (${values.map((v) => v.id).join(", ")})`);
    facet.default = value;
  }
  if (body.override_at !== undefined) {
    const n = body.override_at;
    if (typeof n !== "number" || !(n > 0 && n <= 1)) throw fail(`${at}.override_at must be a number in (0, 1], got ${JSON.stringify(n)}`);
    facet.overrideAt = n;
  }
  return facet;
}

function parseModel(body: unknown, fail: (p: string) => AppError): ModelSettings {
  if (!isTable(body)) throw fail("[model] must be a table");
  unknownKeys(body, MODEL_KEYS, "model.", fail);
  const pinned = ["repo", "file", "revision", "sha256"].filter((k) => body[k] !== undefined);
  if (body.path !== undefined && pinned.length > 0) throw fail(`model.path and model.${pinned[0]} are both set: name a local file or a pinned download, never both`);
  let source: ModelSettings["source"];
  if (body.path !== undefined) {
    const path = text(body.path, "model.path", fail);
    // A relative path would be looked for in the working folder, which differs between the MCP server and the CLI.
    if (!isAbsolute(path) && path !== "~" && !path.startsWith("~/")) throw fail(`model.path "${path}" is relative: give an absolute path to the GGUF file (~/ is the home folder)`);
    source = { kind: "path", path: path === "~" || path.startsWith("~/") ? join(homeDir(), path.slice(1)) : path };
  } else {
    if (pinned.length < 4) throw fail(`model needs path, or all of repo, file, revision and sha256 (missing: ${["repo", "file", "revision", "sha256"].filter((k) => !pinned.includes(k)).join(", ")})`);
    const sha256 = text(body.sha256, "model.sha256", fail).toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw fail("model.sha256 must be 64 hex digits");
    const revision = text(body.revision, "model.revision", fail);
    if (!/^[0-9a-f]{40}$/i.test(revision)) throw fail("model.revision must be a 40-hex-digit commit, so the download is pinned");
    // Both name a place under CACHE_DIR/classify (model-file.ts), and classify.toml travels with the documents: a
    // file of "../../.bashrc" would have the download written over that file.
    const repo = text(body.repo, "model.repo", fail);
    if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo) || repo.split("/").some((part) => part === "." || part === "..")) throw fail(`model.repo "${repo}" is not a Hugging Face repository: write it owner/name`);
    const file = text(body.file, "model.file", fail);
    if (file.startsWith("/") || file.split(/[\\/]/).some((part) => part === "" || part === "." || part === "..") || /^[A-Za-z]:/.test(file)) throw fail(`model.file "${file}" is not a file name in the repository: give its path there, e.g. "model-Q8_0.gguf"`);
    source = { kind: "pinned", repo, file, revision, sha256 };
  }
  const temperature = body.temperature;
  if (typeof temperature !== "number" || !(temperature > 0)) throw fail(`model.temperature is required and must be a number above 0 (the model card's calibration temperature), got ${JSON.stringify(temperature)}`);
  const below = body.uncertain_below ?? DEFAULT_UNCERTAIN_BELOW;
  if (typeof below !== "number" || !(below > 0 && below < 1)) throw fail(`model.uncertain_below must be a number in (0, 1), got ${JSON.stringify(below)}`);
  const label = body.file_name_label === undefined ? DEFAULT_FILE_NAME_LABEL : text(body.file_name_label, "model.file_name_label", fail);
  return { source, temperature, uncertainBelow: below, fileNameLabel: label };
}
