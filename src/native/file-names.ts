/**
 * File names that are not UTF-8. POSIX stores a name as bytes, and archives
 * from old Russian systems carry names in CP1251 (Windows) or CP866 (DOS).
 * Read as UTF-8 such a name became "�����.txt", which opens nothing, so the
 * file was reported as a broken link and left out of the index.
 *
 * Each path component that is not UTF-8 is named `cp1251:Отчёт.txt` (or
 * `cp866:…`): a label, then the bytes read in that code page. Both code
 * pages give each of the 256 byte values a character of its own, so the
 * bytes come back exactly, across restarts, whatever the name's real
 * encoding was. The label is the code page that reads more of the name as
 * Russian letters, CP1251 on a tie; that choice only makes the name
 * readable, it never changes the bytes. A UTF-8 name that itself starts
 * with a label gets `utf-8:` in front, so no two names share a form.
 *
 * diskPath turns such a path back into bytes for a file system call. On
 * Windows names are UTF-16 and none of this applies.
 */
import { isUtf8 as bufferIsUtf8 } from "node:buffer";
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";

const CODE_PAGES = [
  { label: "cp1251", encoding: "windows-1251" },
  { label: "cp866", encoding: "ibm866" },
] as const;
const UTF8_LABEL = "utf-8";
const LABELLED = /^(cp1251|cp866|utf-8):/;
const SLASH = 0x2f;
const ACTIVE = process.platform !== "win32";

const utf8 = new TextDecoder("utf-8");
const decoders = CODE_PAGES.map((page) => new TextDecoder(page.encoding));
/** Character -> byte for each code page's upper half (the lower half is ASCII in both). */
const encoders = CODE_PAGES.map((_, i) => {
  const table = new Map<string, number>();
  for (let byte = 0x80; byte <= 0xff; byte++) table.set(decoders[i]!.decode(Uint8Array.of(byte)), byte);
  return table;
});

// isUtf8 rather than a fatal decoder: its thrown error cost 10 µs a name.
const utf8OrNull = (bytes: Uint8Array): string | null => (bufferIsUtf8(bytes) ? utf8.decode(bytes) : null);

/** Whether a name's bytes are UTF-8 (and so need no code page). */
export function isUtf8(bytes: Uint8Array): boolean {
  return bufferIsUtf8(bytes);
}

const russianLetters = (text: string) => text.match(/[А-яЁё]/g)?.length ?? 0;

/** A path component's form: itself when it is UTF-8 (with `utf-8:` before one that starts with a label), else labelled and read in a code page. */
export function nameOfBytes(bytes: Uint8Array): string {
  const text = utf8OrNull(bytes);
  if (text !== null) return LABELLED.test(text) ? `${UTF8_LABEL}:${text}` : text;
  let best = 0;
  const readings = decoders.map((d) => d.decode(bytes));
  for (let i = 1; i < readings.length; i++) if (russianLetters(readings[i]!) > russianLetters(readings[best]!)) best = i;
  return `${CODE_PAGES[best]!.label}:${readings[best]}`;
}

/** A whole path's form, component by component (a realpath read as bytes). */
export function pathOfBytes(bytes: Uint8Array): string {
  const text = utf8OrNull(bytes);
  if (text !== null && !text.includes(":")) return text;
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== SLASH) continue;
    parts.push(nameOfBytes(bytes.subarray(start, i)));
    start = i + 1;
  }
  return parts.join("/");
}

/** The bytes a component's form stands for; a label the rest cannot be written in is taken as part of a plain UTF-8 name. */
function componentBytes(name: string): Buffer {
  const label = LABELLED.exec(name)?.[1];
  if (!label) return Buffer.from(name);
  const rest = name.slice(label.length + 1);
  if (label === UTF8_LABEL) return Buffer.from(rest);
  const encoder = encoders[CODE_PAGES.findIndex((p) => p.label === label)]!;
  const bytes: number[] = [];
  for (const char of rest) {
    const code = char.charCodeAt(0);
    const byte = code < 0x80 ? code : encoder.get(char);
    if (byte === undefined) return Buffer.from(name);
    bytes.push(byte);
  }
  return Buffer.from(bytes);
}

/** What a file system call needs for a path: the string itself, or the bytes when a component is in a labelled form. */
export function diskPath(path: string): string | Buffer {
  if (!ACTIVE || !path.includes(":")) return path;
  const parts = path.split("/");
  if (!parts.some((part) => LABELLED.test(part))) return path;
  const bytes: Buffer[] = [];
  parts.forEach((part, i) => bytes.push(...(i ? [Buffer.of(SLASH)] : []), componentBytes(part)));
  return Buffer.concat(bytes);
}

/** A path as the scan would name it: a form typed another way (`cp866:` for a name the scan shows as `cp1251:`) made canonical. */
export function canonicalPath(path: string): string {
  const disk = diskPath(path);
  return typeof disk === "string" ? disk : pathOfBytes(disk);
}

/** A component without its label, for what only a reader sees (a title, a date in the name, a dot-name check). */
export function plainName(name: string): string {
  const label = LABELLED.exec(name)?.[1];
  return label ? name.slice(label.length + 1) : name;
}

/** The real path (symlinks followed) in the same form, so a link's non-UTF-8 target keeps its bytes. */
export async function realPathOf(path: string): Promise<string> {
  return ACTIVE ? pathOfBytes(await realpath(diskPath(path), { encoding: "buffer" })) : realpath(path);
}

/** realPathOf, synchronously. */
export function realPathOfSync(path: string): string {
  return ACTIVE ? pathOfBytes(realpathSync(diskPath(path), { encoding: "buffer" })) : realpathSync(path);
}
