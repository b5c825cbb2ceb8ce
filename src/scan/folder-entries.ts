/**
 * A folder's entries under the names native/file-names.ts gives them, so a
 * CP1251 or CP866 name is found, read and indexed instead of reported as a
 * broken link. readdir's string names are lossy for bytes that are not UTF-8
 * (each becomes U+FFFD), and Bun ignores withFileTypes when names are asked
 * for as bytes (1.4.4 returns bare Buffers), so a folder holding such a name
 * is listed a second time as bytes, and each name that is not UTF-8 is
 * lstat'ed for its type. Folders without one cost nothing more.
 */
import { lstat, readdir } from "node:fs/promises";
import { diskPath, isUtf8, nameOfBytes } from "../native/file-names.ts";

/** What the scan asks of an entry: a Dirent, or the lstat of a name that is not UTF-8. */
export interface FolderEntry {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

const named = (name: string, kind: Omit<FolderEntry, "name">): FolderEntry => ({
  name,
  isDirectory: () => kind.isDirectory(),
  isFile: () => kind.isFile(),
  isSymbolicLink: () => kind.isSymbolicLink(),
});

/** The entries of a folder (given in its form), each named in its form; throws as readdir does. */
export async function folderEntries(folder: string): Promise<FolderEntry[]> {
  const target = diskPath(folder);
  const entries = await readdir(target, { withFileTypes: true });
  let result: FolderEntry[] = entries;
  // A UTF-8 name that starts with a label (cp1251:…) is shown with utf-8: before it, so it cannot pass for an encoded one.
  if (entries.some((e) => e.name.includes(":"))) result = entries.map((e) => (e.name.includes(":") ? named(nameOfBytes(Buffer.from(e.name)), e) : e));
  if (!entries.some((e) => e.name.includes("\uFFFD"))) return result;

  const raw = (await readdir(target, { encoding: "buffer" })) as Buffer[];
  const utf8Names = new Set<string>();
  const otherNames: Buffer[] = [];
  for (const bytes of raw) {
    if (isUtf8(bytes)) utf8Names.add(bytes.toString("utf8"));
    else otherNames.push(bytes);
  }
  // A U+FFFD that is really in a UTF-8 name stays; the lossy readings of the other names go.
  result = result.filter((e, i) => !entries[i]!.name.includes("\uFFFD") || utf8Names.has(entries[i]!.name));
  const prefix = Buffer.concat([typeof target === "string" ? Buffer.from(target) : target, Buffer.from("/")]);
  for (const bytes of otherNames) {
    // Gone since the listing: as if the listing had not seen it.
    const stats = await lstat(Buffer.concat([prefix, bytes])).catch(() => null);
    if (stats) result.push(named(nameOfBytes(bytes), stats));
  }
  return result;
}
