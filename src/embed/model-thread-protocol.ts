/** The messages between the main thread (model-thread.ts) and the model thread (embed-worker.ts). */
import type { ErrorReply } from "../errors.ts";
import type { BatchInput, BatchOutput, SessionSpec } from "./model-session.ts";
import type { CachedSession } from "./optimized-model-cache.ts";

/** What to do when the model's thread could not open a session or stopped: said by both sides. */
export const MODEL_RETRY_HINT = "Retry: the next call loads the model again. If this repeats, delete the optimised model copy in CACHE_DIR or reinstall.";

export type ThreadRequest =
  | { type: "open"; id: number; session: number; spec: SessionSpec }
  /** urgent: run before the batches already waiting that are not (a question during a sync). */
  | { type: "run"; id: number; session: number; batch: BatchInput; urgent: boolean }
  | { type: "close"; session: number }
  /** End the thread once the batch in progress is done (model-thread.ts stopModelThread). */
  | { type: "exit" };

export type Opened = { type: "opened"; id: number; declaredWidth: number | undefined; source: CachedSession["source"] };
export type Ran = { type: "ran"; id: number } & BatchOutput;
export type Failed = { type: "failed"; id: number } & ErrorReply;

/** The answer to an open or a run. */
export type ThreadAnswer = Opened | Ran | Failed;

export type ThreadReply =
  | ThreadAnswer
  /** A line for the log of the load that asked (the optimised-model cache's notes). */
  | { type: "log"; id: number; line: string }
  /** A start-up step the model thread finished, traced on the main thread's clock (config/startup-trace.ts). */
  | { type: "step"; step: string };
