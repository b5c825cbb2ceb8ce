/** Ingest content the client holds (text, markdown or html) under a source id it chooses. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { App } from "../app.ts";
import { htmlToMarkdown } from "../convert/html.ts";
import { AppError } from "../errors.ts";
import { isInsideRoots } from "../scan/containment.ts";
import { hasUrlScheme, looksLikePath } from "../scan/scope.ts";
import { chooseSourceTitle } from "../title/choose-title.ts";
import { indexMarkdown, type IngestResult } from "./index-markdown.ts";
import { finishWrite } from "./finish-write.ts";
import { sha256, tooLarge } from "./prepare-file.ts";

export const DATA_FORMATS = ["text", "markdown", "html"] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

export interface DataInput {
  content: string;
  source: string;
  format?: string;
  title?: string;
}

const ALLOWED_IDS = "A data id is a name of your own, such as meeting-notes-2026-08-05 or team/minutes-1";

/** A "." or ".." part: such an id reads as a path that climbs out of where it is resolved (../outside/secret.txt). */
const DOT_SEGMENT = /(^|[/\\])\.{1,2}([/\\]|$)/;

/**
 * Why a data id may not be used, or undefined. A data id must never collide
 * with a file or a URL: `/docs/real file.md` was accepted, and read_file and
 * query_documents then served the injected text as that file's until the next
 * sync. So absolute paths (POSIX, Windows drive, UNC, home), anything that
 * starts with a URL scheme (a bare `C:` too), and any id that names an
 * existing path under a root (its displayPath would be that file's) are refused,
 * and so is any id with a "." or ".." part, which reads as a relative path
 * leaving the root it is resolved against.
 */
export function dataIdProblem(source: string, roots: string[]): string | undefined {
  if (looksLikePath(source)) return "is an absolute path";
  if (hasUrlScheme(source)) return "starts with a URL scheme";
  if (DOT_SEGMENT.test(source)) return 'has a "." or ".." part, so it reads as a relative path';
  if (roots.some((root) => existsSync(resolve(root, source)) && isInsideRoots(resolve(root, source), [root]))) return "names a path under a document root";
  return undefined;
}

export async function ingestData(app: App, input: DataInput): Promise<IngestResult> {
  const format = input.format ?? "text";
  if (!(DATA_FORMATS as readonly string[]).includes(format)) {
    throw new AppError("INVALID_ARGUMENT", `Unknown format "${format}"`, `format must be one of ${DATA_FORMATS.join(", ")}.`);
  }
  const source = input.source.trim();
  if (!source) throw new AppError("INVALID_ARGUMENT", "source must not be empty", "Give the content an id, e.g. meeting-notes-2026-08-05.");
  // On a shared index `<root name>/…` is how files under that root are named (scan/source-names.ts).
  const problem = dataIdProblem(source, app.config.roots) ?? (app.names.shared && app.names.isLocalFile(source) ? "is the name of a file under a document root in this shared index" : undefined);
  if (problem) {
    throw new AppError(
      "INVALID_ARGUMENT",
      `Data id ${JSON.stringify(source)} ${problem}. ${ALLOWED_IDS}: not an absolute path, not a URL, no "." or ".." parts, not a path under a document root.`,
      "Pick a plain name; to index a file under a root use ingest_file or sync.",
    );
  }
  // A byte-order mark a client left at the start is not text (a file's is removed when it is decoded): with it the heading was not seen as the title.
  const content = input.content.replace(/^\ufeff/, "");
  const size = Buffer.byteLength(content, "utf8");
  if (size > app.config.maxFileSize) throw tooLarge(`content for ${source}`, size, app.config.maxFileSize);
  // Whitespace alone is refused as a mistake, and said as such: "empty" read wrong for content that is not (found by a probe).
  if (!content.trim()) throw new AppError("INVALID_ARGUMENT", content ? "content holds only whitespace: there is nothing to index" : "content must not be empty", "Pass the text to index.");
  const converted = format === "html" ? htmlToMarkdown(content) : { markdown: content, metadataTitle: undefined, warnings: undefined };
  for (const warning of converted.warnings ?? []) app.log(`warn: ${source}: ${warning}`);
  const { title, seed } = chooseSourceTitle(source, converted.markdown, input.title, converted.metadataTitle);
  const result = await indexMarkdown(app, {
    source,
    sourceType: "data",
    markdown: converted.markdown,
    title,
    seedTitle: seed,
    contentHash: sha256(content),
    mtime: Date.now(),
    fileSize: size,
  });
  await finishWrite(app, 1);
  return result;
}
