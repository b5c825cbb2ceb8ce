/**
 * Runs a tool body and shapes its answer: structured content plus the same
 * JSON as text, or an isError result whose text names the problem and the fix.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../errors.ts";
import { storageFailure } from "../store/storage-failure.ts";

export async function toolResult(body: () => Promise<object> | object): Promise<CallToolResult> {
  try {
    const value = await body();
    return {
      content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
      structuredContent: value as Record<string, unknown>,
    };
  } catch (error) {
    // A store that stopped answering is named in one line with its fix, as the CLI names it, not by LanceDB's 2 kB chain.
    return { isError: true, content: [{ type: "text", text: describeError(storageFailure(error) ?? error) }] };
  }
}
