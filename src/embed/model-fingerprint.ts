/**
 * A model folder's identity by content, cheap enough to take on every load:
 * sha256 over each file's size, first MiB and last MiB (at most 4 MiB read
 * for model.onnx and tokenizer.json together, against 135 MB for a full hash
 * of e5-small). Other weights (a fine-tune, a re-quantisation, a re-export)
 * differ in practically every MiB and usually in size, so the ends catch
 * them; only an edit confined to the middle of a file would slip by, and no
 * model export makes one. A copy or a move of the folder keeps the value.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const MIB = 1024 * 1024;

/** 16 hex digits (64 bits) of the cheap hash over the files, in order. */
export function modelFingerprint(paths: string[]): string {
  const hash = createHash("sha256");
  for (const path of paths) {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      hash.update(`${size}\n`);
      hash.update(readAt(fd, 0, Math.min(MIB, size)));
      if (size > MIB) hash.update(readAt(fd, Math.max(MIB, size - MIB), Math.min(MIB, size - MIB)));
    } finally {
      closeSync(fd);
    }
  }
  return hash.digest("hex").slice(0, 16);
}

function readAt(fd: number, position: number, length: number): Uint8Array {
  const buffer = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return buffer.subarray(0, done);
}
