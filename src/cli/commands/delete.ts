import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { deleteSource } from "../../read/read-source.ts";
import { resolveIndexedPath } from "../../scan/containment.ts";
import { printJson, printLines } from "../output.ts";
import { escapeControls, unescapeControls } from "../../text/control-escapes.ts";
import type { App } from "../../app.ts";
import { appFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "delete", description: "Remove a document from the index (the file on disk is untouched)" },
  args: { ...sharedArgs, path: { type: "positional", required: false, description: "A file under the roots" }, source: { type: "string", description: "A data or url source id" } },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    if (!args.path && !args.source) throw new AppError("INVALID_ARGUMENT", "delete needs a file path or --source", "Run minirag-mcp delete <file>, or minirag-mcp delete --source <id> with an id that minirag-mcp list shows.");
    const source = args.path ? app.names.sourceOf(resolveIndexedPath(args.path, app.config.roots, { requireAbsolute: false })) : args.source!;
    const result = await deleteTyped(app, source);
    if (args.json) return printJson(result);
    printLines(`deleted ${result.deletedChunks} chunks of ${escapeControls(result.source)}`);
  },
});

/**
 * Deletes the source named as typed or, when none is, as the CLI prints it: a
 * name holding a newline is shown (and so typed) as `\n`, and a file gone from
 * disk cannot be found by its spelling there. A name indexed exactly as typed
 * comes first.
 */
async function deleteTyped(app: App, source: string): Promise<{ source: string; deletedChunks: number }> {
  try {
    return await deleteSource(app, source);
  } catch (error) {
    const unescaped = unescapeControls(source);
    if (unescaped === source || !(error instanceof AppError && error.code === "SOURCE_NOT_FOUND")) throw error;
    return deleteSource(app, unescaped);
  }
}
