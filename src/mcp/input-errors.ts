/**
 * The text of the isError result for arguments that break a tool's schema.
 * MCP 2025-11-25 (SEP-1303) makes these tool execution errors so the model can
 * read them and retry, so the text names every bad field with the type or
 * range it needs and what came instead, and offers a corrected call built from
 * what was sent. It reads the same JSON Schema that tools/list advertises, so
 * the words match what the client was shown.
 */
import type { z } from "zod";

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  /** A record's values (labels: facet name to value). */
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
}

/** A record's value schema, when the schema is one. */
const recordValues = (schema: JsonSchema | undefined) => (typeof schema?.additionalProperties === "object" ? schema.additionalProperties : undefined);

type Args = Record<string, unknown>;

// zod writes the safe-integer bounds into every integer; they tell a reader nothing.
const bound = (n: number | undefined) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);

const PLURALS: Record<string, string> = { string: "strings", integer: "integers", number: "numbers", boolean: "booleans", object: "objects" };

/** What a schema accepts, in words: "an integer of at least 0", "a string or an array of strings". */
export function expectedText(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(expectedText).join(" or ");
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (schema.type === "integer" || schema.type === "number") {
    const noun = schema.type === "integer" ? "an integer" : "a number";
    const [min, max] = [bound(schema.minimum), bound(schema.maximum)];
    if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
    if (min !== undefined) return `${noun} of at least ${min}`;
    if (max !== undefined) return `${noun} of at most ${max}`;
    return noun;
  }
  if (schema.type === "array") return `${schema.minItems ? "a non-empty array" : "an array"} of ${PLURALS[schema.items?.type ?? ""] ?? "values"}`;
  if (schema.type === "string") return "a string";
  if (schema.type === "boolean") return "true or false";
  if (schema.type === "object" && recordValues(schema)) return `an object whose values are each ${expectedText(recordValues(schema)!)}`;
  if (schema.type === "object") return "an object";
  return "a value";
}

/** A value as the error text shows it: short, and typed where the type is the mistake. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return value.length ? `an array of ${value.length}` : "an empty array";
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

function subSchema(schema: JsonSchema, path: PropertyKey[]): JsonSchema | undefined {
  let at: JsonSchema | undefined = schema;
  for (const key of path) at = typeof key === "number" ? at?.items : (at?.properties?.[String(key)] ?? recordValues(at));
  return at;
}

function valueAt(args: Args, path: PropertyKey[]): unknown {
  let at: unknown = args;
  for (const key of path) at = typeof at === "object" && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

const fieldName = (path: PropertyKey[]) => path.map((k, i) => (typeof k === "number" ? `[${k}]` : i ? `.${String(k)}` : String(k))).join("");

/** What an empty string lacks: a min(1) check's message, also when it sits inside a union (scope's string or list). */
function emptyStringMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small") return issue.message;
  if (issue.code === "invalid_union") for (const issues of issue.errors) for (const inner of issues) if (inner.code === "too_small") return inner.message;
  return "must not be empty";
}

/** One line per problem zod found. */
function problemLines(tool: string, schema: JsonSchema, issues: z.core.$ZodIssue[], args: Args): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const field = fieldName(issue.path);
    const value = valueAt(args, issue.path);
    const sub = subSchema(schema, issue.path);
    if (issue.code === "unrecognized_keys") {
      const known = Object.keys(subSchema(schema, issue.path)?.properties ?? {});
      const takes = known.length ? `it takes ${known.join(", ")}` : "it takes none";
      for (const key of issue.keys) lines.push(`${fieldName([...issue.path, key])} is not an argument of ${tool}; ${takes}.`);
    } else if (value === undefined && sub) {
      lines.push(`${field} is required: ${expectedText(sub)}.`);
    } else if ((issue.code === "too_small" || issue.code === "too_big") && typeof value === "number") {
      const limit = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const word = issue.code === "too_small" ? (issue.inclusive ? "at least" : "more than") : issue.inclusive ? "at most" : "less than";
      lines.push(`${field} must be ${word} ${limit}, got ${value}.`);
    } else if (value === "") {
      // An empty string is the right type: say what it lacks (the schema's own words where it has them), not its type.
      lines.push(`${field} ${emptyStringMessage(issue)}.`);
    } else if (sub) {
      lines.push(`${field} must be ${expectedText(sub)}, got ${shown(value)}.`);
    } else {
      lines.push(`${field || "arguments"}: ${issue.message}.`);
    }
  }
  return [...new Set(lines)];
}

/** A value that fits the schema, as close to what was sent as the schema allows; undefined when none can be guessed. */
function corrected(schema: JsonSchema, value: unknown, name: string): unknown {
  if (schema.anyOf) {
    for (const option of schema.anyOf) {
      const fixed = corrected(option, value, name);
      if (fixed !== undefined) return fixed;
    }
    return undefined;
  }
  if (schema.enum) return schema.enum.find((v) => typeof value === "string" && String(v).toLowerCase() === value.trim().toLowerCase()) ?? schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") {
    const asNumber = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
    const min = bound(schema.minimum) ?? 0;
    const n = Number.isFinite(asNumber) ? asNumber : min;
    const clamped = Math.min(Math.max(n, min), bound(schema.maximum) ?? Number.MAX_SAFE_INTEGER);
    return schema.type === "integer" ? Math.round(clamped) : clamped;
  }
  if (schema.type === "string") {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
    if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string") return value[0];
    return `<${name}>`;
  }
  if (schema.type === "array" && schema.items) {
    const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => corrected(schema.items!, v, name));
    const kept = list.filter((v) => v !== undefined);
    return kept.length || !schema.minItems ? kept : [corrected(schema.items, undefined, name)];
  }
  if (schema.type === "boolean") return value === "true" ? true : value === "false" ? false : undefined;
  const values = recordValues(schema);
  if (schema.type === "object" && values) {
    // "lang=ru", as a command line would write it, is {"lang": "ru"}.
    const entries = typeof value === "string" && /^[^=]+=.+$/.test(value) ? [value.split(/=(.*)/s).slice(0, 2)] : typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
    const fixed = entries.map(([k, v]) => [k, corrected(values, v, String(k))] as const).filter(([, v]) => v !== undefined);
    return fixed.length ? Object.fromEntries(fixed) : undefined;
  }
  return undefined;
}

/** The call with unknown keys dropped and each bad or missing field corrected, or undefined if it still would not parse. */
function correctedCall(schema: JsonSchema, input: z.ZodType, issues: z.core.$ZodIssue[], args: Args): Args | undefined {
  const bad = new Set(issues.map((i) => i.path[0]).filter((k) => k !== undefined));
  const required = new Set(schema.required ?? []);
  const call: Args = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (!bad.has(name)) {
      if (args[name] !== undefined) call[name] = args[name];
    } else if (args[name] !== undefined || required.has(name)) {
      const fixed = corrected(field, args[name], name);
      if (fixed === undefined && required.has(name)) return undefined;
      if (fixed !== undefined) call[name] = fixed;
    }
  }
  return input.safeParse(call).success ? call : undefined;
}

/** The whole text: a line naming the tool, one line per problem, and a corrected call when there is one. */
export function describeInputErrors(tool: string, schema: JsonSchema, input: z.ZodType, issues: z.core.$ZodIssue[], args: Args): string {
  const lines = [`Invalid arguments for ${tool}:`, ...problemLines(tool, schema, issues, args).map((l) => `- ${l}`)];
  const example = correctedCall(schema, input, issues, args);
  if (example) lines.push(`Example: ${JSON.stringify(example)}`);
  lines.push(`Fix the arguments and call ${tool} again; tools/list has its full input schema.`);
  return lines.join("\n");
}
