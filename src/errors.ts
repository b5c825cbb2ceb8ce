/**
 * One catalog of known failures. Each carries a code, a message that names
 * the thing that went wrong, and a hint that names the fix. The CLI prints
 * message and hint; MCP returns them as an isError result.
 */
export type ErrorCode =
  | "CONFIG"
  | "MODEL_UNKNOWN"
  | "MODEL_FOLDER"
  | "MODEL_LOAD"
  | "MODEL_DOWNLOAD"
  | "NATIVE_LIBRARY"
  | "INVALID_ARGUMENT"
  | "PATH_OUTSIDE_ROOTS"
  | "PATH_NOT_FOUND"
  | "NOT_A_FILE"
  | "PATH_EXCLUDED"
  | "IGNORE_FILE_UNREADABLE"
  | "SOURCE_NOT_FOUND"
  | "FILE_TOO_LARGE"
  | "UNSUPPORTED_FORMAT"
  | "CONVERSION_FAILED"
  | "CONVERSION_TIMEOUT"
  | "OCR_LANGUAGE_DATA"
  | "INDEX"
  | "SYNC_BUSY"
  | "SYNC_JOB_UNKNOWN"
  | "URL_REFUSED"
  | "FETCH_FAILED"
  | "NOT_AVAILABLE";

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** The text a user sees for any thrown value: message, then the hint on its own line. */
export function describeError(error: unknown): string {
  if (error instanceof AppError) return error.hint ? `${error.message}\n${error.hint}` : error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
