/**
 * A LanceDB error from the index's storage (an object store that stopped
 * answering, refused the credentials, or has no such bucket or container; a
 * disk that filled), as one line naming the fix. LanceDB's own message repeats its chain of causes with Rust
 * source locations (2 kB for one refused GET), which says nothing to a user.
 */
import { AppError } from "../errors.ts";

const STORE_ERROR = /Generic (S3|GCS|MicrosoftAzure|Azure|HTTP) error/i;
const NETWORK = /error sending request|connection refused|connection reset|dns error|timed out|operation timed out|broken pipe|connection closed/i;
/** The store's answer, when it answered: the HTTP status and the service's error code (S3's and Azure's XML carry one). */
const ANSWERED = /Server returned non-2xx status code: (\d{3})[^<]*(?:[\s\S]*?<Code>(\w+)<\/Code>)?/;
const MISSING_CODES = new Set(["NoSuchBucket", "ContainerNotFound"]);

/** What each store's user sets: credentials, endpoint, and what holds the index. */
const STORES: Record<"s3" | "gs" | "az", { credentials: string; endpoint: string | null; holder: string }> = {
  s3: { credentials: "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN)", endpoint: "AWS_ENDPOINT_URL", holder: "bucket" },
  gs: { credentials: "GOOGLE_APPLICATION_CREDENTIALS", endpoint: null, holder: "bucket" },
  az: { credentials: "AZURE_STORAGE_ACCOUNT_NAME with AZURE_STORAGE_ACCOUNT_KEY (or AZURE_STORAGE_SAS_TOKEN)", endpoint: "AZURE_STORAGE_ENDPOINT", holder: "container" },
};

function storeOf(kind: string): (typeof STORES)["s3"] {
  return /azure/i.test(kind) ? STORES.az : /gcs/i.test(kind) ? STORES.gs : STORES.s3;
}

/** LanceDB's word for a table whose version history is gone: deleted, or the store emptied, while a process had it open. */
const VERSIONS_GONE = /Not found: (\S*?)\/?_versions(?=[,\s]|$)/;

/**
 * Lance's words for any failure of the AWS SDK's credential providers
 * (lance-io's aws.rs), before a 3 kB dump of the cause: an expired SSO login
 * or a refused AssumeRole as well as no credentials at all.
 */
const AWS_CREDENTIALS = /Failed to get AWS credentials: ?([^\n]*)/;
/**
 * The chain found nothing: with no keys and no profile it ends at the
 * machine's metadata service, whose token request outside a cloud is
 * refused, denied or silent (FailedToLoadToken, as captured against moto).
 */
const NONE_FOUND = /FailedToLoadToken|CredentialsNotLoaded|no providers in chain/i;

/** How an index this user may not read is named (status keys off it). */
export const NOT_READABLE = "This user may not use the index's files";

/** LanceDB's words for a file the operating system refused. */
const DENIED = /Permission denied \(os error 13\)/;

/** A write of LanceDB's that found no room: Rust's "No space left on device (os error 28)". */
const RUST_DISK_FULL = /No space left on device \(os error 28\)/;
/** A file of the index's own tables (create-table.ts, failed-files.ts), which our own reads open beside LanceDB's. */
const INDEX_FILE = /\/(chunks|failed_files)\.lance\//;

/**
 * The error as a STORAGE AppError when the index's storage failed under it
 * (an object store that stopped answering, refused the credentials or has no
 * such bucket; a disk that filled), else null.
 */
export function storageFailure(error: unknown): AppError | null {
  if (error instanceof AppError || !(error instanceof Error)) return null;
  const message = error.message;
  // Every write of the index failed with LanceDB's 1 kB of Rust causes, naming neither the disk nor a way out (found by a fault probe).
  const errno = (error as NodeJS.ErrnoException).code;
  const path = (error as NodeJS.ErrnoException).path ?? /'([^']+)'/.exec(message)?.[1];
  // Node's own errors count only on a file of the index's tables: a full /tmp or an unreadable document is not the index's.
  const onIndex = path !== undefined && INDEX_FILE.test(path);
  if (RUST_DISK_FULL.test(message) || (errno === "ENOSPC" && onIndex)) {
    return new AppError(
      "STORAGE",
      "The disk the index is written to is full (No space left on device).",
      "Free space on it, or point DB_PATH (or --db-path) at a folder on a disk with room. Nothing indexed is lost (each document is written in one commit); the next sync goes on where this one stopped.",
    );
  }
  // LanceDB writes its data files readable by their owner alone (0600): an index synced by another account (root) is
  // refused file by file, and every read said only "EACCES: permission denied, open …" (found by a fault probe).
  if (((errno === "EACCES" || errno === "EPERM") && onIndex) || DENIED.test(message)) {
    return new AppError(
      "STORAGE",
      `${NOT_READABLE} (permission denied${path ? `: ${path}` : ""}).`,
      "A sync run as another account (root, say) leaves files only that account may read: give this user access to DB_PATH (chown -R to this user, or chmod -R u+rwX,go+rX), or run as that account. Nothing indexed is lost.",
    );
  }
  const gone = VERSIONS_GONE.exec(message);
  if (gone) {
    return new AppError(
      "STORAGE",
      `The index's table is gone from where it was (${gone[1] || "its folder"} has no versions any more): it was deleted, or the store emptied, while this process had it open.`,
      "Run sync (or sync_start) to build it again; a server reads the new one by itself.",
    );
  }
  const credentials = AWS_CREDENTIALS.exec(message);
  if (credentials && NONE_FOUND.test(message)) {
    return new AppError(
      "STORAGE",
      "No AWS credentials were found for the index in DB_PATH: none in the environment, none in AWS_PROFILE's profile or ~/.aws, and none from the machine's metadata service.",
      `Set ${STORES.s3.credentials}, or AWS_PROFILE naming a profile in ~/.aws/credentials; nothing indexed was touched.`,
    );
  }
  if (credentials) {
    // Some provider of the chain failed (its cause is Rust's debug text): the head of it, without source locations.
    const cause = credentials[1]!.replace(/,?\s*\/\S+\.rs:\d+:\d+.*$/, "").slice(0, 200);
    return new AppError(
      "STORAGE",
      `AWS credentials for the index in DB_PATH could not be loaded: ${cause}`,
      "Check AWS_PROFILE and its profile in ~/.aws (an SSO profile needs `aws sso login` again once it expires), or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; nothing indexed was touched.",
    );
  }
  const kind = STORE_ERROR.exec(message)?.[1];
  if (!kind) return null;
  const store = storeOf(kind);
  const request = /Error performing (GET|PUT|HEAD|DELETE|POST) (\S+?)(?: in [\d.]+m?s)?,?\s/.exec(message);
  const what = request ? `${request[1]} ${request[2]}` : /list request/i.test(message) ? "listing the index" : "a request";
  const answered = ANSWERED.exec(message);
  const status = answered ? Number(answered[1]) : null;
  const code = answered?.[2];
  if (status === 401 || status === 403) {
    return new AppError("STORAGE", `The store refused the credentials (${code ?? `HTTP ${status}`}): ${what}.`, `Check ${store.credentials}, and that they may read and write the ${store.holder}.`);
  }
  if (status === 404 && code && MISSING_CODES.has(code)) {
    return new AppError("STORAGE", `The ${store.holder} in DB_PATH does not exist (${code}): ${what}.`, `Create the ${store.holder}, or correct DB_PATH${store.endpoint ? `; a wrong ${store.endpoint} also shows as this` : ""}.`);
  }
  const reason = NETWORK.exec(message)?.[0] ?? (status ? `HTTP ${status}${code ? ` ${code}` : ""}` : null) ?? /HTTP error: ([^,]+)/.exec(message)?.[1] ?? "it failed";
  return new AppError(
    "STORAGE",
    `The object store stopped answering: ${what} failed (${reason}).`,
    `Nothing indexed is lost (each document is written in one commit). Check that the store is up and reachable (${store.endpoint ? `${store.endpoint}, ` : ""}the network), then run the sync again; it goes on where this one stopped.`,
  );
}
