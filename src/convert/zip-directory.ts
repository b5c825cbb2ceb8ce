/**
 * The central directory of a zip file (APPNOTE 6.3.10, sections 4.3.6-4.3.16,
 * with ZIP64): names, sizes, methods and where each entry's data starts. It
 * only reads the directory; inflating is zip.ts's job.
 */
export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflate; anything else is refused when the directory is read. */
  method: number;
  compressedSize: number;
  /** The uncompressed size the directory declares (checked while inflating). */
  size: number;
  /** Offset of the entry's compressed bytes in the file. */
  dataStart: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** An OLE compound file: what Office writes for a password-protected document, and the old binary formats. */
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

type Fail = (reason: string) => Error;

function whyNotZip(bytes: Uint8Array): string {
  if (bytes.length === 0) return "the file is empty";
  if (OLE.every((b, i) => bytes[i] === b)) return "it is password-protected or in the old binary Office format (an OLE compound file, not a zip)";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return "the zip directory at its end is missing (the file is truncated)";
  return "it is not a zip container";
}

function findEndRecord(view: DataView, fail: Fail, bytes: Uint8Array): number {
  // The end record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw fail(whyNotZip(bytes));
}

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

/** Reads every entry of the central directory; throws fail(reason) on anything malformed. */
export function readDirectory(bytes: Uint8Array, maxEntries: number, fail: Fail): ZipEntry[] {
  if (bytes.length < 22) throw fail(whyNotZip(bytes));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view, fail, bytes);
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (end >= 20 && view.getUint32(end - 20, true) === EOCD64_LOCATOR) {
    const at = u64(view, end - 12);
    if (at + 56 > bytes.length || view.getUint32(at, true) !== EOCD64) throw fail("its ZIP64 end record is damaged");
    count = u64(view, at + 32);
    offset = u64(view, at + 48);
  }
  if (count > maxEntries) throw fail(`it has ${count} parts, more than the ${maxEntries} allowed`);
  const entries: ZipEntry[] = [];
  const utf8 = new TextDecoder("utf-8");
  const latin1 = new TextDecoder("latin1");
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL) throw fail("its zip directory is damaged");
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    let compressedSize = view.getUint32(offset + 20, true);
    let size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    let local = view.getUint32(offset + 42, true);
    const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
    // Bit 11 marks UTF-8 names; without it the name is CP437, of which Latin-1 is close enough for part names.
    const name = (flags & 0x800 ? utf8 : latin1).decode(nameBytes);
    const extraEnd = offset + 46 + nameLength + extraLength;
    for (let x = offset + 46 + nameLength; x + 4 <= extraEnd && x + 4 <= bytes.length; ) {
      const id = view.getUint16(x, true);
      const length = view.getUint16(x + 2, true);
      if (id === 0x0001) {
        // ZIP64 extra: only the fields saturated in the record are present, in this order.
        let f = x + 4;
        const next = () => {
          const value = f + 8 <= x + 4 + length ? u64(view, f) : Number.NaN;
          f += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (local === 0xffffffff) local = next();
      }
      x += 4 + length;
    }
    offset = extraEnd + commentLength;
    if (flags & 0x1) throw fail(`part ${name} is encrypted (password-protected)`);
    if (method !== 0 && method !== 8) throw fail(`part ${name} uses compression method ${method}, which is not supported (only stored and deflate)`);
    if (!(local + 30 <= bytes.length) || view.getUint32(local, true) !== LOCAL) throw fail(`part ${name} is missing (the file is truncated or damaged)`);
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (!(dataStart + compressedSize <= bytes.length)) throw fail(`part ${name} is cut short (the file is truncated)`);
    if (method === 0 && compressedSize !== size) throw fail(`part ${name} is damaged: its sizes disagree`);
    if (name.endsWith("/") && size === 0) continue; // a folder
    entries.push({ name, method, compressedSize, size, dataStart });
  }
  return entries;
}
