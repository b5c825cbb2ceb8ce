/**
 * Writes the PDF fixtures the page-number and bad-input tests read, into
 * test/fixtures/pdf/ (run: bun scripts/make-pdf-fixtures.ts). A tiny PDF
 * writer of our own: text in the standard Courier font, whose glyphs are all
 * 0.6 em wide, so line ends and columns land where the layout says.
 *
 * - handbook.pdf: three pages, a running header and page numbers, a line that
 *   sits only on page 2, a line repeated on pages 1 and 3, a table, and
 *   hyphenation at line ends ("infor-" + "mation", "e-" + "mail").
 * - encrypted.pdf: the same kind of page under the standard security handler
 *   (RC4, 40-bit) with a user password, so it cannot be opened without one.
 * - scan.pdf: two pages that hold only an image, no text layer.
 * - broken-xref.pdf: handbook.pdf with every cross-reference offset wrong.
 * - truncated.pdf: handbook.pdf cut off after its first page's objects.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OUT = join(import.meta.dir, "../test/fixtures/pdf");

interface Text {
  x: number;
  y: number;
  size: number;
  text: string;
}

type Encrypt = (objectNumber: number, data: Uint8Array) => Uint8Array;

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));
const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function content(texts: Text[], extra = ""): string {
  const runs = texts.map((t) => `BT /F1 ${t.size} Tf ${t.x} ${t.y} Td (${escape(t.text)}) Tj ET`);
  return [...runs, extra].filter(Boolean).join("\n");
}

/** A PDF of the given page contents; objects in order, a classic xref table, an optional trailer extra. */
function writePdf(pages: string[], info: Record<string, string>, options: { encrypt?: Encrypt; trailerExtra?: string; extraObjects?: string[] } = {}): Uint8Array {
  const objects: Uint8Array[] = [];
  const enc = options.encrypt ?? ((_n: number, d: Uint8Array) => d);
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const add = (n: number, body: string | Uint8Array) => {
    objects[n] = typeof body === "string" ? latin1(`${n} 0 obj\n${body}\nendobj\n`) : body;
  };
  const stream = (n: number, data: string) => {
    const bytes = enc(n, latin1(data));
    add(n, Buffer.concat([latin1(`${n} 0 obj\n<< /Length ${bytes.length} >>\nstream\n`), bytes, latin1("\nendstream\nendobj\n")]));
  };
  const hex = (n: number, s: string) => `<${Buffer.from(enc(n, latin1(s))).toString("hex")}>`;
  add(1, "<< /Type /Catalog /Pages 2 0 R >>");
  add(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  add(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>");
  pages.forEach((page, i) => {
    const id = pageIds[i]!;
    add(id, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`);
    stream(id + 1, page);
  });
  const infoId = 4 + pages.length * 2;
  add(infoId, `<< ${Object.entries(info).map(([k, v]) => `/${k} ${hex(infoId, v)}`).join(" ")} >>`);
  (options.extraObjects ?? []).forEach((body, i) => add(infoId + 1 + i, body));
  const head = latin1("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
  const offsets: number[] = [];
  let at = head.length;
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = at;
    at += objects[n]!.length;
  }
  const xref = [`xref\n0 ${objects.length}\n0000000000 65535 f \n`, ...offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  const trailer = `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R ${options.trailerExtra ?? ""}>>\nstartxref\n${at}\n%%EOF\n`;
  return Buffer.concat([head, ...objects.slice(1), latin1(xref + trailer)]);
}

/** Lines of Courier 10 set 12 points apart from y downwards, padded to one width so that they end together like justified text. */
function lines(y: number, rows: string[], width = 78): Text[] {
  return rows.map((text, i) => ({ x: 72, y: y - i * 12, size: 10, text: text.endsWith("|") ? text.slice(0, -1) : text.padEnd(width) }));
}

const header = (page: number): Text[] => [
  { x: 72, y: 756, size: 8, text: "Fixture Handbook - Page Numbers in Practice" },
  { x: 300, y: 36, size: 8, text: String(page) },
];
const REPEATED = "Keep this handbook next to the printed manual.";

function handbookPages(): string[] {
  // A line ending in "|" is a paragraph's short last line, set without padding.
  const page1 = [
    { x: 72, y: 700, size: 16, text: "Page Numbers in Practice" },
    ...lines(660, [
      "A reader who finds a passage wants to know the page it sits on, so that the",
      "printed copy can be opened at the right place. The page map holds that infor-",
      "mation for every page of the converted text, and each chunk is given a page",
      "only when its own words are found there, and nowhere else.|",
    ]),
    ...lines(600, [
      "Write to the team by e-mail when a page number looks wrong; the e-mail should",
      "name the file and the page, and attach the PDF itself. Questions sent by e-",
      "mail are answered within a week by the people who keep the converter.|",
    ]),
    { x: 72, y: 540, size: 14, text: "Reminder" },
    ...lines(516, [`${REPEATED}|`]),
  ];
  const page2 = [
    { x: 72, y: 700, size: 16, text: "Parts on the Shelf" },
    ...lines(660, ["The second page is the only place where this sentence about lighthouses appears.|"], 0),
    ...[
      ["Part", "Count", "Shelf"],
      ["Bolt", "120", "A-1"],
      ["Nut", "300", "B-2"],
      ["Washer", "75", "C-3"],
    ].flatMap((row, i) => row.map((cell, j) => ({ x: 72 + j * 130, y: 620 - i * 14, size: 10, text: cell }))),
  ];
  const page3 = [
    { x: 72, y: 700, size: 16, text: "Closing Notes" },
    ...lines(660, ["Every chunk of this handbook should point back to the page it came from.|"]),
    { x: 72, y: 620, size: 14, text: "Reminder" },
    ...lines(596, [`${REPEATED}|`]),
  ];
  return [page1, page2, page3].map((texts, i) => content([...header(i + 1), ...texts]));
}

/** RC4, the cipher of the PDF standard security handler's revision 2. */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => new Uint8Array(createHash("md5").update(Buffer.concat(parts)).digest());
const PAD = Uint8Array.from([0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a]);
const padded = (password: string) => Uint8Array.from([...latin1(password), ...PAD].slice(0, 32));

/** Algorithms 2, 3 and 4 of ISO 32000-1 7.6.3 (revision 2, 40-bit key). */
function standardSecurity(user: string, owner: string) {
  const id = md5(latin1("minirag-mcp encrypted fixture"));
  const o = rc4(md5(padded(owner)).slice(0, 5), padded(user));
  const p = -44; // print and copy denied; any value works, it only has to be the one the key is made from
  const pBytes = new Uint8Array(new Int32Array([p]).buffer);
  const key = md5(padded(user), o, pBytes, id).slice(0, 5);
  const u = rc4(key, PAD);
  const hex = (b: Uint8Array) => `<${Buffer.from(b).toString("hex")}>`;
  const encrypt: Encrypt = (n, data) => rc4(md5(key, Uint8Array.from([n & 255, (n >> 8) & 255, (n >> 16) & 255, 0, 0])).slice(0, 10), data);
  return { encrypt, dictionary: `<< /Filter /Standard /V 1 /R 2 /O ${hex(o)} /U ${hex(u)} /P ${p} >>`, id: hex(id) };
}

/** A page that is one grey 8x8 image scaled to fill most of it: what a scanner writes, minus the resolution. */
function imagePage(): string {
  const pixels = Buffer.from(Array.from({ length: 64 }, (_, i) => ((i * 37) % 200) + 30)).toString("hex");
  return `q 468 0 0 648 72 72 cm BI /W 8 /H 8 /CS /G /BPC 8 /F /AHx ID ${pixels}> EI Q`;
}

mkdirSync(OUT, { recursive: true });
const info = { Title: "Page Numbers in Practice", Producer: "minirag-mcp scripts/make-pdf-fixtures.ts" };
const handbook = writePdf(handbookPages(), info);
writeFileSync(join(OUT, "handbook.pdf"), handbook);

const security = standardSecurity("secret", "owner");
const encryptId = 4 + 1 * 2 + 1;
const encrypted = writePdf([content(lines(700, ["This text can be read only with the password.|"]))], { Title: "Locked" }, {
  encrypt: security.encrypt,
  extraObjects: [security.dictionary],
  trailerExtra: `/Encrypt ${encryptId} 0 R /ID [${security.id} ${security.id}] `,
});
writeFileSync(join(OUT, "encrypted.pdf"), encrypted);

writeFileSync(join(OUT, "scan.pdf"), writePdf([imagePage(), imagePage()], { Title: "Scanned letter" }));

const text = Buffer.from(handbook).toString("latin1");
const brokenXref = text.replace(/^\d{10} 00000 n $/gm, () => "0000000999 00000 n ");
writeFileSync(join(OUT, "broken-xref.pdf"), latin1(brokenXref));

const cut = text.indexOf("6 0 obj");
writeFileSync(join(OUT, "truncated.pdf"), handbook.slice(0, cut));
console.log(`wrote ${OUT}: handbook.pdf (${handbook.length} bytes), encrypted.pdf, scan.pdf, broken-xref.pdf, truncated.pdf`);
