import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { configFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "ingest-url", description: "Fetch a web page and index it (not available in this build yet)" },
  args: { ...sharedArgs, url: { type: "positional", required: true }, source: { type: "string", description: "Id to store it under" } },
  run({ rawArgs, args }) {
    configFromArgs(rawArgs, args);
    throw new AppError("NOT_AVAILABLE", "ingest-url is not available in this build yet.", "Save the page as .html under a document root and run minirag-mcp ingest on it.");
  },
});
