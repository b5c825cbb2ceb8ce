/** Names on one line of human output and back (src/text/control-escapes.ts). */
import { describe, expect, test } from "bun:test";
import { escapeControls, unescapeControls } from "../../src/text/control-escapes.ts";

describe("control escapes", () => {
  test("every C0 and C1 control and DEL is written as an escape and read back as itself", () => {
    const controls = [...Array.from({ length: 32 }, (_, i) => i), 0x7f, ...Array.from({ length: 32 }, (_, i) => 0x80 + i)].map((c) => String.fromCharCode(c)).join("");
    const name = `a${controls}z.md`;
    const shown = escapeControls(name);
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(unescapeControls(shown)).toBe(name);
  });

  test("backslashes that are no escape of ours stay as they are", () => {
    expect(unescapeControls("C:\\docs\\a.md")).toBe("C:\\docs\\a.md");
    expect(unescapeControls("x\\x41y")).toBe("x\\x41y");
    expect(unescapeControls("new\\nline")).toBe("new\nline");
  });
});
