import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { fileSourceToRead } from "../../read/file-source.ts";
import { readSource } from "../../read/read-source.ts";
import { printDocument, printJson, warn } from "../output.ts";
import { appFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "read", description: "Print an indexed document back as Markdown, rebuilt from its chunks" },
  args: { ...sharedArgs, path: { type: "positional", required: false, description: "A file under the roots" }, source: { type: "string", description: "A data or url source id" } },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    if (!args.path && !args.source) throw new AppError("INVALID_ARGUMENT", "read needs a file path or --source", "e.g. minirag-mcp read notes.md, or minirag-mcp read --source release-notes");
    let source = args.source;
    if (args.path) source = await fileSourceToRead(app, args.path, { requireAbsolute: false });
    const result = await readSource(app, source!);
    if (args.json) return printJson(result);
    if (result.notice) warn(result.notice);
    printDocument(result.text);
  },
});
