/**
 * A LanceDB error that says the object store stopped answering (connection
 * refused or cut, a timeout, a DNS failure), as one line naming the fix.
 * LanceDB's own message repeats its chain of causes with Rust source
 * locations (2 kB for one refused GET), which says nothing to a user.
 */
import { AppError } from "../errors.ts";

const STORE_ERROR = /Generic (S3|GCS|MicrosoftAzure|Azure|HTTP) error/i;
const NETWORK = /error sending request|connection refused|connection reset|dns error|timed out|operation timed out|broken pipe|connection closed/i;

/** The error as a STORAGE AppError when it is an object-store failure of LanceDB's, else null. */
export function storageFailure(error: unknown): AppError | null {
  if (error instanceof AppError || !(error instanceof Error)) return null;
  const message = error.message;
  if (!STORE_ERROR.test(message)) return null;
  const request = /Error performing (GET|PUT|HEAD|DELETE|POST) (\S+?)(?: in [\d.]+m?s)?,?\s/.exec(message);
  const reason = NETWORK.exec(message)?.[0] ?? /HTTP error: ([^,]+)/.exec(message)?.[1] ?? "it failed";
  const what = request ? `${request[1]} ${request[2]}` : /list request/i.test(message) ? "listing the index" : "a request";
  return new AppError(
    "STORAGE",
    `The object store stopped answering: ${what} failed (${reason}).`,
    "Nothing indexed is lost (each document is written in one commit). Check that the store is up and reachable (AWS_ENDPOINT_URL, the network), then run the sync again; it goes on where this one stopped.",
  );
}
