/**
 * One shape for every tool: zod input and output schemas, MCP annotations and
 * a body. Listing turns the schemas into the JSON Schema clients see; calling
 * checks the arguments against the input schema (closed to unknown keys),
 * turns the body's value into structured content plus text, and any throw or
 * schema violation into an isError result that names the fix.
 */
import type { CallToolResult, ServerNotification, ServerRequest, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { z } from "zod";
import type { ToolContext } from "./context.ts";
import { describeInputErrors, type JsonSchema } from "./input-errors.ts";
import { unchosenRootsProblem } from "../config/unchosen-roots.ts";
import { toolResult } from "./tool-result.ts";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext, extra: ToolExtra): Promise<z.output<O>> | z.output<O>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}

interface Schemas {
  input: z.ZodObject;
  inputJson: JsonSchema;
  outputJson: JsonSchema;
}

const schemasByTool = new WeakMap<AnyTool, Schemas>();

// draft-07, as the SDK's own listing wrote it: the SDK client compiles these with Ajv's default (draft-07) dialect.
function schemas(tool: AnyTool): Schemas {
  let found = schemasByTool.get(tool);
  if (!found) {
    const input = z.strictObject(tool.input.shape);
    found = {
      input,
      inputJson: z.toJSONSchema(input, { io: "input", target: "draft-7" }) as JsonSchema,
      outputJson: z.toJSONSchema(tool.output, { io: "output", target: "draft-7" }) as JsonSchema,
    };
    schemasByTool.set(tool, found);
  }
  return found;
}

/** The tool as tools/list shows it, with its input schema closed to unknown keys (additionalProperties: false). */
export function toolListing(tool: AnyTool): Tool {
  const { inputJson, outputJson } = schemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJson as Tool["inputSchema"],
    outputSchema: outputJson as Tool["outputSchema"],
    annotations: tool.annotations,
  };
}

/** Runs one call: arguments that break the schema come back as an isError result naming each bad field (SEP-1303). */
export async function callTool(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext, extra: ToolExtra): Promise<CallToolResult> {
  const { input, inputJson } = schemas(tool);
  const parsed = input.safeParse(args);
  if (!parsed.success) return { isError: true, content: [{ type: "text", text: describeInputErrors(tool.name, inputJson, input, parsed.error.issues, args) }] };
  const result = await toolResult(() => {
    // A tool that writes the index writes none where the server has no folder of documents to index.
    const unchosen = tool.annotations.readOnlyHint === false && ctx.app ? unchosenRootsProblem(ctx.app.config) : null;
    if (unchosen) throw unchosen;
    return tool.run(parsed.data, ctx, extra);
  });
  // A client rejects structured content that breaks the advertised output schema; say so here, where the bug is.
  if (!result.isError && !tool.output.safeParse(result.structuredContent).success) {
    return { isError: true, content: [{ type: "text", text: `${tool.name} returned a result that does not match its output schema. This is a bug in minirag-mcp; please report it.` }] };
  }
  return result;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITES_INDEX: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
