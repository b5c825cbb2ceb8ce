/** Ingest content the client holds (text, markdown or html) under a source id it chooses. */
import type { App } from "../app.ts";
import { htmlToMarkdown } from "../convert/html.ts";
import { AppError } from "../errors.ts";
import { chooseSourceTitle } from "../title/choose-title.ts";
import { indexMarkdown, type IngestResult } from "./index-markdown.ts";
import { sha256, tooLarge } from "./ingest-file.ts";

export const DATA_FORMATS = ["text", "markdown", "html"] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

export interface DataInput {
  content: string;
  source: string;
  format?: string;
  title?: string;
}

export async function ingestData(app: App, input: DataInput): Promise<IngestResult> {
  const format = input.format ?? "text";
  if (!(DATA_FORMATS as readonly string[]).includes(format)) {
    throw new AppError("INVALID_ARGUMENT", `Unknown format "${format}"`, `format must be one of ${DATA_FORMATS.join(", ")}.`);
  }
  const source = input.source.trim();
  if (!source) throw new AppError("INVALID_ARGUMENT", "source must not be empty", "Give the content an id, e.g. meeting-notes-2026-08-05.");
  const size = Buffer.byteLength(input.content, "utf8");
  if (size > app.config.maxFileSize) throw tooLarge(`content for ${source}`, size, app.config.maxFileSize);
  if (!input.content.trim()) throw new AppError("INVALID_ARGUMENT", "content must not be empty", "Pass the text to index.");
  const converted = format === "html" ? htmlToMarkdown(input.content) : { markdown: input.content, metadataTitle: undefined };
  const { title, seed } = chooseSourceTitle(source, converted.markdown, input.title, converted.metadataTitle);
  return indexMarkdown(app, {
    source,
    sourceType: "data",
    markdown: converted.markdown,
    title,
    seedTitle: seed,
    contentHash: sha256(input.content),
    mtime: Date.now(),
    fileSize: size,
  });
}
