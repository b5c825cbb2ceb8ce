import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { storageFailure } from "../../src/store/storage-failure.ts";

/** The head of what LanceDB 0.31.0 threw when moto's port closed mid-sync (its causes repeat it twice more). */
const CUT =
  "lance error: LanceError(IO): Generic N/A error: Cloned error: LanceError(IO): Generic S3 error: Error performing GET http://127.0.0.1:34251/team/lib/chunks.lance/data/1110.lance in 384.061259ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_reader.rs:321:51";
const LISTING = "lance error: LanceError(IO): Generic S3 error: Error performing list request: HTTP error: error sending request, /rustc/x/library/core/src/result.rs:1896:29";

/** The heads of what LanceDB 0.31.0 threw against Azurite 3.37.0: a wrong account key, then a container that does not exist. */
const AZURE_LIST = "lance error: LanceError(IO): Generic MicrosoftAzure error: Error performing list request: Error performing GET http://127.0.0.1:10000/devstoreaccount1/team?restype=container&comp=list&prefix=lib%2F&delimiter=%2F in 1.841674ms - Server returned non-2xx status code: ";
const AZURE_WRONG_KEY = `${AZURE_LIST}403 Forbidden: <?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error>\n  <Code>AuthorizationFailure</Code>\n  <Message>Server failed to authenticate the request.</Message>\n</Error>, /usr/local/cargo/registry/src/lance-io-8.0.0/src/object_store.rs:836:22`;
const AZURE_NO_CONTAINER = `${AZURE_LIST}404 Not Found: <?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error>\n  <Code>ContainerNotFound</Code>\n  <Message>The specified container does not exist.</Message>\n</Error>, /usr/local/cargo/registry/src/lance-io-8.0.0/src/object_store.rs:836:22`;

/** The head of what LanceDB 0.31.0 threw for a sync to moto with no AWS keys set (the metadata service's 403 repeated three times more). */
const NO_KEYS =
  'lance error: LanceError(IO): Generic N/A error: Encountered internal error. Please file a bug report at https://github.com/lance-format/lance/issues. Failed to get AWS credentials: ProviderError(ProviderError { source: FailedToLoadToken(FailedToLoadToken { source: ServiceError(ServiceError { source: TokenError { kind: Forbidden }, raw: Response { status: StatusCode(403), headers: Headers { headers: {"content-type": HeaderValue { _private: H1("text/plain") }} }, body: SdkBody { inner: Once(Some(b"resolve_deny: denied destination")), retryable: true } } }) }) }), /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_store/providers/aws.rs:394:21';

/** The head of what LanceDB 0.31.0 threw when a sync filled the tmpfs holding a local index (found by a fault probe). */
const DISK_FULL =
  "lance error: LanceError(IO): Generic LocalFileSystem error: Unable to copy data to file: No space left on device (os error 28), /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-8.0.0/src/io/commit.rs:1519:50";

describe("a full disk under the index, as one line", () => {
  test("LanceDB's Rust text and Node's ENOSPC both name the full disk and the fix", () => {
    const nodeWrite = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", path: "/srv/idx/chunks.lance/_deletions/1-2-3.arrow" });
    for (const thrown of [new Error(DISK_FULL), nodeWrite]) {
      const error = storageFailure(thrown)!;
      expect(error.code).toBe("STORAGE");
      expect(error.message).toBe("The disk the index is written to is full (No space left on device).");
      expect(error.hint).toContain("Free space on it, or point DB_PATH (or --db-path) at a folder on a disk with room");
    }
    // Another disk full (a readable clone's folder in /tmp) is not the index's disk (a reviewer's find).
    expect(storageFailure(Object.assign(new Error("ENOSPC: no space left on device, mkdtemp '/tmp/minirag-clone-'"), { code: "ENOSPC", path: "/tmp/minirag-clone-" }))).toBeNull();
  });
});

describe("index files this user may not use, as one line", () => {
  test("a data file another account wrote (0600) names the file and the fix; a document that cannot be read is not the index's failure", () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open '/srv/idx/chunks.lance/data/0011.lance'"), { code: "EACCES", path: "/srv/idx/chunks.lance/data/0011.lance" });
    const error = storageFailure(denied)!;
    expect(error.message).toBe("This user may not use the index's files (permission denied: /srv/idx/chunks.lance/data/0011.lance).");
    expect(error.hint).toContain("give this user access to DB_PATH");
    expect(storageFailure(new Error("lance error: LanceError(IO): Permission denied (os error 13), /usr/local/cargo/registry/src/lance-io-8.0.0/src/object_store.rs:747:21"))!.code).toBe("STORAGE");
    expect(storageFailure(Object.assign(new Error("EACCES: permission denied, open '/docs/a.md'"), { code: "EACCES", path: "/docs/a.md" }))).toBeNull();
  });
});

describe("LanceDB's object-store errors as one line", () => {
  test("no AWS credentials anywhere names where they were looked for and the variables to set (found by a probe)", () => {
    const error = storageFailure(new Error(NO_KEYS))!;
    expect(error.code).toBe("STORAGE");
    expect(error.message).toBe("No AWS credentials were found for the index in DB_PATH: none in the environment, none in AWS_PROFILE's profile or ~/.aws, and none from the machine's metadata service.");
    expect(error.hint).toBe("Set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or AWS_PROFILE naming a profile in ~/.aws/credentials; nothing indexed was touched.");
  });

  test("another failure of the credential chain (an expired SSO login) is not called 'none found': its cause is named, without source locations (a reviewer's find)", () => {
    // In the shape Lance writes (the SSO provider's own words cannot be captured here: no SSO).
    const sso = "lance error: LanceError(IO): Generic N/A error: Failed to get AWS credentials: ProviderError(ProviderError { source: \"the SSO session has expired or is invalid\" }), /usr/local/cargo/registry/src/lance-io-8.0.0/src/object_store/providers/aws.rs:394:21";
    const error = storageFailure(new Error(sso))!;
    expect(error.code).toBe("STORAGE");
    expect(error.message).toBe('AWS credentials for the index in DB_PATH could not be loaded: ProviderError(ProviderError { source: "the SSO session has expired or is invalid" })');
    expect(error.hint).toContain("aws sso login");
  });

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

  test("Azure refusing the key names Azure's variables; a missing container is named as such", () => {
    const refused = storageFailure(new Error(AZURE_WRONG_KEY))!;
    expect(refused.message).toBe("The store refused the credentials (AuthorizationFailure): GET http://127.0.0.1:10000/devstoreaccount1/team?restype=container&comp=list&prefix=lib%2F&delimiter=%2F.");
    expect(refused.hint).toBe("Check AZURE_STORAGE_ACCOUNT_NAME with AZURE_STORAGE_ACCOUNT_KEY (or AZURE_STORAGE_SAS_TOKEN), and that they may read and write the container.");
    const missing = storageFailure(new Error(AZURE_NO_CONTAINER))!;
    expect(missing.message).toStartWith("The container in DB_PATH does not exist (ContainerNotFound): GET ");
    expect(missing.hint).toBe("Create the container, or correct DB_PATH; a wrong AZURE_STORAGE_ENDPOINT also shows as this.");
    // Another answer than these is the store failing, with its status.
    expect(storageFailure(new Error(AZURE_LIST + "503 Service Unavailable"))!.message).toEndWith("failed (HTTP 503).");
  });

  test("a table whose versions are gone (deleted, or the store emptied, while open) is named with the way back (found by a probe)", () => {
    const gone = storageFailure(new Error("lance error: Not found: idx1/chunks.lance/_versions, /usr/local/cargo/registry/src/lance-table-8.0.0/src/io/commit.rs:646:26 Caused by: …"))!;
    expect(gone.message).toBe("The index's table is gone from where it was (idx1/chunks.lance has no versions any more): it was deleted, or the store emptied, while this process had it open.");
    expect(gone.hint).toContain("Run sync");
    // One version's manifest missing (pruned under a reader) is not the table gone.
    expect(storageFailure(new Error("lance error: Not found: idx1/chunks.lance/_versions/12.manifest, /x/commit.rs:1:2"))).toBeNull();
  });

  test("anything else is left as it is: local LanceDB errors, our own errors, non-errors", () => {
    expect(storageFailure(new Error("lance error: LanceError(IO): No such file or directory (os error 2)"))).toBeNull();
    expect(storageFailure(new AppError("STORAGE", "Generic S3 error: already ours", "nothing to do"))).toBeNull();
    expect(storageFailure("Generic S3 error")).toBeNull();
  });
});
