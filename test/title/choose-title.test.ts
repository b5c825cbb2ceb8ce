import { describe, expect, test } from "bun:test";
import { chooseFileTitle, chooseSourceTitle, isBoilerplateHeading, isInformativeStem } from "../../src/title/choose-title.ts";

describe("uninformative stems lose to an H1 (case 40)", () => {
  test.each([
    "Untitled-1", "New Document", "Copy of Report", "scan_001", "IMG_20260807_123456", "Копия документа (2)",
    "Document1", "DSC00042", "abc", "12345", "2026-08-07", "README", "index", "report", "v2",
  ])("%s", (stem) => {
    expect(isInformativeStem(stem.replace(/_/g, " "))).toBe(false);
    expect(chooseFileTitle(`/d/${stem}.md`, "# Real Heading\n\ntext")).toBe("Real Heading");
  });
});

describe("file titles (case 43)", () => {
  test.each([
    ["/d/doc.md", "# Общие положения\n\nтекст", "Общие положения"],
    ["/d/readme.txt", "no heading here", "readme"],
    ["/d/report.txt.txt", "plain", "report"],
    ["/d/И-112_ЗПС__Хранение   ТМЗ.txt", "# Общие положения\n\nтекст", "И-112 ЗПС Хранение ТМЗ"],
    ["/d/notes.md", "# ![logo](data:image/png;base64,AAAA)\n\ntext", "notes"],
    ["/d/IMG_20260807_123456.png", "", "IMG 20260807 123456"],
    ["/d/scan.png.png", "", "scan"],
    ["/d/x.md", "```\n# Fake\n```\n\n# Real", "Real"],
    ["/d/notes.md", "# Quarterly plan\r\n\r\ntext\r\n", "Quarterly plan"],
    ["/d/SPEC-112_Warehouse stock.docx", "# 1. General provisions\n\ntext", "SPEC-112 Warehouse stock"],
    ["/d/page.html", "# Heading", "Meta Title"],
  ])("%s", (path, markdown, title) => {
    expect(chooseFileTitle(path, markdown, path.endsWith(".html") ? "Meta Title" : undefined)).toBe(title);
  });
});

describe("boilerplate headings", () => {
  test.each([
    ["1. General provisions", true],
    ["IV) Introduction", true],
    ["**Содержание**", true],
    ["2.1 Термины и определения:", true],
    ["Introduction to Rust", false],
    ["Warehouse stock", false],
  ])("%s -> %s", (heading, boilerplate) => {
    expect(isBoilerplateHeading(heading)).toBe(boilerplate);
  });
});

describe("data and url titles", () => {
  test.each([
    [{ id: "note-1", md: "body", explicit: "Given" }, { title: "Given", seed: true }],
    [{ id: "note-1", md: "# Heading\n\nbody" }, { title: "Heading", seed: true }],
    [{ id: "note-1", md: "# Introduction\n\nbody" }, { title: "Introduction", seed: true }],
    [{ id: "note-1", md: "body", meta: "Page Title" }, { title: "Page Title", seed: true }],
    [{ id: "note-1", md: "body" }, { title: "note-1", seed: false }],
  ] as [{ id: string; md: string; explicit?: string; meta?: string }, { title: string; seed: boolean }][])("%o", (input, expected) => {
    expect(chooseSourceTitle(input.id, input.md, input.explicit, input.meta)).toEqual(expected);
  });
});
