import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { configFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "find", description: "Every document that mentions a term (not available in this build yet)" },
  args: { ...sharedArgs, any: { type: "boolean", description: "Documents with any of the terms, not all" } },
  run({ rawArgs, args }) {
    configFromArgs(rawArgs, args); // a broken configuration is reported first, as by every command
    throw new AppError("NOT_AVAILABLE", "find is not available in this build yet.", "Use minirag-mcp query with the exact term; it ranks exact matches high but returns the best few, not every mention.");
  },
});
