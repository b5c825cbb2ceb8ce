import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { NEIGHBOR_CAP, readNeighbors } from "../../read/read-source.ts";
import { fileSourceToRead } from "../../read/file-source.ts";
import { printJson, printLines } from "../output.ts";
import { wholeFlag } from "../whole-flag.ts";
import { appFromArgs, sharedArgs } from "../shared-args.ts";

const whole = (name: string, value: string | undefined, fallback: number) => wholeFlag(name, value, "2") ?? fallback;

export default defineCommand({
  meta: { name: "read-neighbors", description: "Print the chunks around one chunk of a document" },
  args: {
    ...sharedArgs,
    "file-path": { type: "string", description: "A file under the roots" },
    source: { type: "string", description: "A data or url source id" },
    "chunk-index": { type: "string", description: "The chunk to centre on", required: true },
    before: { type: "string", description: `Chunks before (default 1, at most ${NEIGHBOR_CAP})` },
    after: { type: "string", description: `Chunks after (default 1, at most ${NEIGHBOR_CAP})` },
  },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const path = args["file-path"];
    if (!path && !args.source) throw new AppError("INVALID_ARGUMENT", "read-neighbors needs --file-path or --source", "Pass --file-path for a file or --source for a data or url item.");
    const source = path ? await fileSourceToRead(app, path, { requireAbsolute: false }) : args.source!;
    const result = await readNeighbors(app, source, whole("chunk-index", args["chunk-index"], 0), whole("before", args.before, 1), whole("after", args.after, 1));
    if (args.json) return printJson(result);
    if (result.notice) process.stderr.write(`${result.notice}\n`);
    for (const c of result.chunks) printLines(`--- #${c.chunkIndex}${c.pages ? ` p. ${c.pages}` : ""}`, c.text);
  },
});
