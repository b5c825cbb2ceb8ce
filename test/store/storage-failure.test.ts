import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { storageFailure } from "../../src/store/storage-failure.ts";

/** The head of what LanceDB 0.31.0 threw when moto's port closed mid-sync (its causes repeat it twice more). */
const CUT =
  "lance error: LanceError(IO): Generic N/A error: Cloned error: LanceError(IO): Generic S3 error: Error performing GET http://127.0.0.1:34251/team/lib/chunks.lance/data/1110.lance in 384.061259ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_reader.rs:321:51";
const LISTING = "lance error: LanceError(IO): Generic S3 error: Error performing list request: HTTP error: error sending request, /rustc/x/library/core/src/result.rs:1896:29";

describe("LanceDB's object-store errors as one line", () => {
  test("a cut connection names the request and the reason, and says nothing indexed is lost", () => {
    const error = storageFailure(new Error(CUT))!;
    expect(error.code).toBe("STORAGE");
    expect(error.message).toBe("The object store stopped answering: GET http://127.0.0.1:34251/team/lib/chunks.lance/data/1110.lance failed (error sending request).");
    expect(error.hint).toContain("Nothing indexed is lost");
    expect(`${error.message}${error.hint}`).not.toContain(".rs:");
  });

  test("a failed listing is named as such", () => {
    expect(storageFailure(new Error(LISTING))!.message).toBe("The object store stopped answering: listing the index failed (error sending request).");
  });

  test("anything else is left as it is: local LanceDB errors, our own errors, non-errors", () => {
    expect(storageFailure(new Error("lance error: LanceError(IO): No such file or directory (os error 2)"))).toBeNull();
    expect(storageFailure(new AppError("STORAGE", "Generic S3 error: already ours", "nothing to do"))).toBeNull();
    expect(storageFailure("Generic S3 error")).toBeNull();
  });
});
