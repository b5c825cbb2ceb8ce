import { defineCommand } from "citty";
import { readFile, stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { decodeText } from "../../convert/decode-text.ts";
import { AppError } from "../../errors.ts";
import { DATA_FORMATS, ingestData } from "../../ingest/ingest-data.ts";
import { tooLarge } from "../../ingest/prepare-file.ts";
import { printJson, printLines, warn } from "../output.ts";
import { escapeControls } from "../../text/control-escapes.ts";
import { writerAppFromArgs, positionals, sharedArgs } from "../shared-args.ts";

/** A file ingest-data cannot read, by name and with the fix (a bare ENOENT said neither). */
function unreadable(file: string, error: NodeJS.ErrnoException): AppError {
  if (error.code === "ENOENT") return new AppError("PATH_NOT_FOUND", `File does not exist: ${file}`, "Check the path, or pass - to read standard input.");
  if (error.code === "EACCES") return new AppError("INVALID_ARGUMENT", `File cannot be read: ${file} (permission denied)`, "Give this user read access to it, or pipe it in with -.");
  return new AppError("INVALID_ARGUMENT", `File cannot be read: ${file} (${error.code ?? error.message})`, "Check the path, or pass - to read standard input.");
}

/** The format a file's name suggests when --format is not given. */
function formatOfName(name: string): string {
  const ext = extname(name).toLowerCase();
  if (ext === ".html" || ext === ".htm") return "html";
  if (ext === ".md" || ext === ".markdown") return "markdown";
  return "text";
}

/** Standard input up to `limit` bytes; more is refused without reading the rest. */
async function readStdin(limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge("standard input", size, limit);
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export default defineCommand({
  meta: { name: "ingest-data", description: "Index text, Markdown or HTML from a file or standard input under an id you choose; the same id again replaces it" },
  args: {
    ...sharedArgs,
    source: { type: "string", required: true, description: "Your id for it, a plain name such as meeting-notes-2026-08-05" },
    title: { type: "string", description: "A title; otherwise the first heading or the HTML <title>" },
    format: { type: "string", description: `${DATA_FORMATS.join(", ")}; default: from the file's extension, else text` },
    file: { type: "positional", required: false, description: "A file to read, or - (the default) for standard input" },
  },
  async run({ rawArgs, args }) {
    const app = writerAppFromArgs(rawArgs, args);
    const given = positionals(args);
    if (given.length > 1) throw new AppError("INVALID_ARGUMENT", `ingest-data takes one file, not ${given.length}`, "Ingest each file under its own --source, or use minirag-mcp ingest for files under a root.");
    const file = given[0] && given[0] !== "-" ? resolve(given[0]) : undefined;
    let bytes: Uint8Array;
    if (file) {
      const size = (await stat(file).catch((error: NodeJS.ErrnoException) => {
        throw unreadable(file, error);
      })).size;
      if (size > app.config.maxFileSize) throw tooLarge(file, size, app.config.maxFileSize);
      bytes = new Uint8Array(await readFile(file));
    } else bytes = await readStdin(app.config.maxFileSize);
    // Bytes, not a string, came in: decoded as files are (UTF-8, UTF-16, Windows-1251, Shift-JIS).
    const { text, warnings } = decodeText(bytes, file ? basename(file) : "standard input");
    for (const w of warnings ?? []) warn(w);
    app.store.checkPath(true);
    const result = await ingestData(app, { content: text, source: args.source, format: args.format ?? (file ? formatOfName(file) : "text"), title: args.title });
    if (result.notice) warn(result.notice);
    if (result.labelProblem) warn(`${result.source}: ${result.labelProblem}`);
    if (args.json) return printJson(result);
    printLines(`ingested ${escapeControls(result.source)} (${escapeControls(result.title)}), chunks ${result.chunkCount}`);
  },
});
