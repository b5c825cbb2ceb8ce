/**
 * ingest_url: fetch through the guard (url/fetch-url.ts), convert by content
 * type in the conversion worker (HTML keeps its main article), title, index.
 * The source id is the URL asked for, without its fragment, unless the caller
 * names one; a URL source has no pages, a PDF included.
 */
import type { App } from "../app.ts";
import { convertIsolated, releaseConverter } from "../convert/isolated-convert.ts";
import { AppError } from "../errors.ts";
import { ocrSettings } from "../ocr/settings.ts";
import { chooseSourceTitle } from "../title/choose-title.ts";
import { fetchUrl } from "../url/fetch-url.ts";
import { dataIdProblem } from "./ingest-data.ts";
import { indexMarkdown, type IngestResult } from "./index-markdown.ts";
import { finishWrite } from "./finish-write.ts";
import { sha256 } from "./prepare-file.ts";
import { extensionFor, standInPath, textInUtf8 } from "./url-format.ts";

export interface UrlInput {
  url: string;
  /** An id of the caller's own instead of the URL: a plain name, as for ingest_data. */
  source?: string;
  title?: string;
}

/** The id a URL is stored under: the URL as parsed, without its fragment (which names a place in the page, not another page). */
export function urlSourceId(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

function customId(source: string | undefined, app: App): string | undefined {
  const id = source?.trim();
  if (!id) return undefined;
  const problem = dataIdProblem(id, app.config.roots);
  if (problem) {
    throw new AppError(
      "INVALID_ARGUMENT",
      `Source id ${JSON.stringify(id)} ${problem}: an id given for a URL is a plain name, such as release-notes`,
      "Leave source out to store the page under its URL, or pick a plain name.",
    );
  }
  return id;
}

export async function ingestUrl(app: App, input: UrlInput): Promise<IngestResult> {
  const chosen = customId(input.source, app); // before the fetch: a bad id costs no network traffic
  const fetched = await fetchUrl(input.url, { allowPrivate: app.config.allowPrivateUrls, maxBytes: app.config.maxFileSize, network: app.network });
  const source = chosen ?? urlSourceId(fetched.url);
  if (fetched.finalUrl.href !== fetched.url.href) app.log(`${fetched.url.href} redirected to ${fetched.finalUrl.href}`);
  const ext = extensionFor(fetched.mediaType, fetched.finalUrl);
  const bytes = textInUtf8(fetched.bytes, ext, fetched.charset);
  const converted = await convertIsolated(standInPath(fetched.finalUrl, ext), bytes, {
    timeoutMs: app.config.convertTimeoutMs,
    maxBytes: app.config.maxFileSize,
    ocrMinCharsPerPage: app.config.ocrMinCharsPerPage,
    mainArticle: ext === ".html",
    ocr: ocrSettings(app.config),
  }).finally(releaseConverter);
  if (!converted.markdown.trim()) {
    throw new AppError("CONVERSION_FAILED", `${fetched.finalUrl.href} has no text to index`, "The page may build its text with JavaScript, which is not run; look for a printable or static version of it.");
  }
  for (const warning of converted.warnings ?? []) app.log(`warn: ${warning}`);
  const { title, seed } = chooseSourceTitle(source, converted.markdown, input.title, converted.metadataTitle);
  const result = await indexMarkdown(app, {
    source,
    sourceType: "url",
    markdown: converted.markdown,
    title,
    seedTitle: seed,
    contentHash: sha256(fetched.bytes),
    mtime: Date.now(),
    fileSize: fetched.bytes.length,
    ocrEngine: converted.ocrEngine,
  });
  await finishWrite(app, 1);
  return result;
}
