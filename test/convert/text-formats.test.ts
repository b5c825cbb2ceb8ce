import { describe, expect, test } from "bun:test";
import { convertCsv } from "../../src/convert/csv.ts";
import { decodeText } from "../../src/convert/decode-text.ts";
import { htmlToMarkdown } from "../../src/convert/html.ts";
import { stripInlineImages } from "../../src/convert/inline-images.ts";
import { convertNotebook } from "../../src/convert/ipynb.ts";
import { AppError } from "../../src/errors.ts";

const utf16 = (text: string, le: boolean, bom: boolean) => {
  const out: number[] = bom ? (le ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (const c of text) {
    const code = c.charCodeAt(0);
    out.push(...(le ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff]));
  }
  return Uint8Array.from(out);
};
const cp1251 = (text: string) =>
  Uint8Array.from([...text].map((c) => (c === "ё" ? 0xb8 : c === "Ё" ? 0xa8 : c.charCodeAt(0) >= 0x410 ? c.charCodeAt(0) - 0x410 + 0xc0 : c.charCodeAt(0))));

describe("text encodings", () => {
  const russian = "Отчёт о работе склада за год";
  test.each([
    ["UTF-8", new TextEncoder().encode(russian)],
    ["UTF-8 with BOM", Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(russian)])],
    ["UTF-16LE with BOM", utf16(russian, true, true)],
    ["UTF-16BE with BOM", utf16(russian, false, true)],
    ["UTF-16LE without BOM", utf16("Plain ASCII text in UTF-16", true, false)],
    ["Windows-1251", cp1251(russian)],
  ])("%s", (_name, bytes) => {
    const { text, warnings } = decodeText(bytes, "f.txt");
    expect(warnings).toBeUndefined();
    expect(text === russian || text === "Plain ASCII text in UTF-16").toBe(true);
  });

  test("bytes that fit no known encoding are refused with the file name and the fix", () => {
    const junk = Uint8Array.from({ length: 400 }, (_, i) => [0x81, 0xfe, 0x02, 0xff, 0x9d][i % 5]!);
    try {
      decodeText(junk, "mystery.txt");
      throw new Error("expected a failure");
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message).toContain("mystery.txt");
      expect((error as AppError).hint).toContain("UTF-8");
    }
  });
});

describe("CSV", () => {
  test.each([
    ["commas", "a,b\n1,2\n3,4"],
    ["semicolons", "a;b\n1;2\n3;4"],
    ["tabs", "a\tb\n1\t2\n3\t4"],
  ])("the delimiter is detected: %s", (_name, csv) => {
    expect(convertCsv(new TextEncoder().encode(csv), "t.csv").markdown).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |");
  });

  test("a CSV of a million rows converts (its widest row was found by spreading every row as arguments, which overflowed the stack)", () => {
    const rows = "id,name\n" + "7,alpha\n".repeat(1_000_000);
    const md = convertCsv(new TextEncoder().encode(rows), "big.csv").markdown;
    expect(md.startsWith("| id | name |\n| --- | --- |\n| 7 | alpha |")).toBe(true);
    expect(md.split("\n")).toHaveLength(1_000_002);
  }, 60_000);

  test("quoted fields keep their commas, newlines become spaces and pipes are escaped", () => {
    const md = convertCsv(new TextEncoder().encode('name,note\n"Smith, J","line one\nline two | x"'), "t.csv").markdown;
    expect(md).toContain("| Smith, J | line one line two \\| x |");
  });
});

describe("HTML", () => {
  test("a <pre> without <code> is fenced, so a shell comment in it does not become a heading", async () => {
    const { convertHtml } = await import("../../src/convert/html.ts");
    const { markdown } = await convertHtml(new TextEncoder().encode("<h1>Install</h1><pre># install it\napt install foo\n</pre><p>Done.</p>"), "/d/x.html");
    expect(markdown).toContain("```\n# install it\napt install foo\n```");
    const outsideFences = markdown.replace(/```[\s\S]*?```/g, "");
    expect(outsideFences.split("\n").filter((l) => l.startsWith("# "))).toEqual(["# Install"]);
  });

  test("scripts, styles and navigation are dropped; tables stay tables; the title is metadata", () => {
    const r = htmlToMarkdown(
      "<html><head><title>Page</title><style>p{}</style></head><body><nav>Home | About</nav><h1>Head</h1><script>alert(1)</script>" +
        "<p>Body text.</p><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>",
    );
    expect(r.metadataTitle).toBe("Page");
    expect(r.markdown).toContain("# Head");
    expect(r.markdown).toContain("| k | v |\n| --- | --- |\n| a | 1 |");
    expect(r.markdown).not.toContain("alert");
    expect(r.markdown).not.toContain("About");
  });

  test("an inlined image keeps only its alt text", () => {
    expect(htmlToMarkdown('<p>See <img alt="chart" src="data:image/png;base64,AAAA"> here</p>').markdown).toBe("See chart here");
  });

  // Turndown walks linkedom's own nodes (one parse); these are what a second parse used to smooth over.
  test("an entity mid-sentence stays text: no escaped '>' as if a line started there", () => {
    expect(htmlToMarkdown("<p>when n &gt; 1 &amp; m &lt; 2, take the vote</p>").markdown).toBe("when n > 1 & m < 2, take the vote");
  });

  test("the newline HTML drops after <pre> does not open the code block with an empty line", () => {
    expect(htmlToMarkdown("<pre>\nPackage: hello\nVersion: 2.9\n</pre>").markdown).toBe("```\nPackage: hello\nVersion: 2.9\n```");
  });

  test("table cells are converted from their own nodes: markup, entities and pipes inside a cell", () => {
    const r = htmlToMarkdown("<table><tr><th>a &amp; b</th><th>v</th></tr><tr><td><b>bold</b> x|y</td><td><a href='/p'>link</a><br>next</td></tr></table>");
    expect(r.markdown).toBe("| a & b | v |\n| --- | --- |\n| **bold** x\\|y | [link](/p) next |");
  });

  test("a fetched page that is only a fragment still yields its article", async () => {
    const { convertHtml } = await import("../../src/convert/html.ts");
    const fragment = `<div><p>${"The pump order was approved after the second review of the budget. ".repeat(12)}</p></div>`;
    const r = convertHtml(new TextEncoder().encode(fragment), "/d/page.html", { mainArticle: true });
    expect(r.markdown).toContain("The pump order was approved");
  });
});

describe("inline images", () => {
  test.each([
    ["text ![a chart ](data:image/png;base64,AAAA) more", "text a chart more"],
    ["![](data:image/png;base64,AAAA)\n\nbody", "\n\nbody"],
    ["![logo](images/logo.png) stays", "![logo](images/logo.png) stays"],
    ["```\n![x](data:image/png;base64,AAAA)\n```", "```\n![x](data:image/png;base64,AAAA)\n```"],
    ["![](data:image/png;base64,AAAA)", "![](data:image/png;base64,AAAA)"],
    // A code span is code, as a fence is (found by a probe); text beside it is not.
    ["Inline: `![x](data:image/gif;base64,R0lG)` code, ![y](data:image/png;base64,AA) after", "Inline: `![x](data:image/gif;base64,R0lG)` code, y after"],
    ["``a ` ![x](data:image/png;base64,AA)`` and ![z](data:image/png;base64,AA)", "``a ` ![x](data:image/png;base64,AA)`` and z"],
    ["an unclosed ` then ![w](data:image/png;base64,AA)", "an unclosed ` then w"],
  ])("%o", (input, output) => {
    expect(stripInlineImages(input)).toBe(output);
  });
});

describe("notebooks", () => {
  test("markdown cells, fenced code with the language, text outputs, no images", () => {
    const nb = {
      metadata: { kernelspec: { language: "python" } },
      cells: [
        { cell_type: "markdown", source: ["# Title\n", "Intro"] },
        { cell_type: "code", source: "print(1)", outputs: [{ output_type: "stream", text: ["1\n"] }, { output_type: "display_data", data: { "image/png": "iVBOR" } }] },
      ],
    };
    const md = convertNotebook(new TextEncoder().encode(JSON.stringify(nb)), "n.ipynb").markdown;
    expect(md).toBe("# Title\nIntro\n\n```python\nprint(1)\n```\n\n```\n1\n```");
  });

  test("a file that is not JSON is a clear conversion error", () => {
    expect(() => convertNotebook(new TextEncoder().encode("{nope"), "bad.ipynb")).toThrow("bad.ipynb: not a valid notebook");
  });
});
