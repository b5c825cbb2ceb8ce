/** What every converter returns: Markdown, plus a title when the format carries one (HTML <title>, EPUB metadata). */
export interface Converted {
  markdown: string;
  metadataTitle?: string;
}

export type Converter = (bytes: Uint8Array, path: string) => Promise<Converted> | Converted;
