/**
 * A file that could not be read at all (gone, no permission) is not a broken
 * document: sync counts it as unreadable, keeps what is indexed for it, and
 * says what to do in words rather than as a raw errno.
 */
const READ_CODES = new Set(["ENOENT", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "ELOOP", "EIO", "EBUSY"]);

/** The message for a read failure, or null when the error is something else (a conversion failure, say). */
export function readProblem(path: string, error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (!code || !READ_CODES.has(code)) return null;
  if (code === "ENOENT" || code === "ENOTDIR") return `${path} was removed or renamed while the sync ran; the next sync picks up the change`;
  if (code === "EACCES" || code === "EPERM") return `${path} cannot be read: permission denied. Give this user read access to it, then sync again`;
  if (code === "ELOOP") return `${path} is a symlink loop; point the link at a file`;
  return `${path} cannot be read (${code}); check the disk or share it is on, then sync again`;
}
