/** Word lists of the title rules, as the reference implementation has them. */

/** Filename words machines hand out; a stem made only of these (and digits) says nothing. */
export const GENERIC_FILENAME_WORDS = new Set([
  "untitled", "document", "documents", "doc", "docs", "docx", "index", "readme", "new", "copy", "of",
  "scan", "image", "img", "file", "dsc", "screenshot", "report",
  "снимок", "документ", "документа", "документов", "копия", "копии", "безымянный",
]);

/** Opening-section headings shared across a document set; such an H1 names a section, not the document. */
export const BOILERPLATE_HEADINGS = new Set([
  "общие положения", "назначение", "введение", "назначение и область применения", "лист изменений",
  "история изменений", "содержание", "оглавление", "термины и определения", "список сокращений",
  "general provisions", "introduction", "overview", "purpose", "scope", "table of contents", "contents",
  "revision history", "change log", "definitions", "abbreviations",
]);
