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
  | "MODEL_RUN"
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
  | "ROOT_MISSING"
  | "SYNC_BUSY"
  | "STORAGE"
  | "SYNC_JOB_UNKNOWN"
  | "URL_REFUSED"
  | "FETCH_FAILED"
  | "NOT_AVAILABLE"
  | "LIBRARY_CHANGED";

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

/** Any error on one line: an AppError with its fix (inOneLine), another by its message. */
export function describeErrorInOneLine(error: unknown): string {
  return error instanceof AppError ? inOneLine(error) : describeError(error);
}

/** An error and its fix as one line of prose: the message ends as a sentence before the fix begins. */
export function inOneLine(error: { message: string; hint?: string }): string {
  if (!error.hint) return error.message;
  return `${error.message}${/[.!?]["')]*$/.test(error.message) ? "" : "."} ${error.hint}`;
}

/** An error as plain data, to cross between threads: the fields of an AppError. */
export interface ErrorReply {
  code: ErrorCode;
  message: string;
  hint: string;
}

/** A thrown value as an ErrorReply: an AppError as it is, anything else under the fallback's code and hint, its message after the fallback's. */
export function errorReply(error: unknown, fallback: ErrorReply): ErrorReply {
  if (error instanceof AppError) return { code: error.code, message: error.message, hint: error.hint };
  return { ...fallback, message: `${fallback.message}: ${describeError(error)}` };
}

/** The AppError an ErrorReply stands for, on the thread that receives it. */
export function fromErrorReply(reply: ErrorReply): AppError {
  return new AppError(reply.code, reply.message, reply.hint);
}
