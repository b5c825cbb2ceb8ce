/**
 * The model thread: holds each open model session and runs the batches it is
 * sent one at a time, so the main thread keeps reading files, committing and
 * answering requests while the model works. A separate entry point of the
 * compiled binary (scripts/build.ts lists it); model-thread.ts is its other
 * side.
 *
 * Batches wait here, not on the main thread: a run holds this thread, and
 * between two runs it takes in what arrived meanwhile, so a question sent
 * while a sync's group waits runs after the batch in progress.
 */
import { AppError, errorReply } from "../errors.ts";
import { ModelSession } from "./model-session.ts";
import { MODEL_RETRY_HINT, type ThreadReply, type ThreadRequest } from "./model-thread-protocol.ts";

declare const self: Worker;

type RunRequest = Extract<ThreadRequest, { type: "run" }>;

const sessions = new Map<number, ModelSession>();
const waiting: RunRequest[] = [];
let draining = false;

const reply = (message: ThreadReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

const LOAD_FAILED = { code: "MODEL_LOAD" as const, message: "The embedding model could not be opened", hint: MODEL_RETRY_HINT };
const RUN_FAILED = { code: "MODEL_RUN" as const, message: "The embedding model failed on a batch", hint: "Retry; if the same files fail again, move them out of the roots and report the model and the files." };

/** Runs waiting batches, urgent ones first, letting messages that arrived during a run in before picking the next. */
async function drain(): Promise<void> {
  draining = true;
  while (waiting.length > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    const request = waiting.shift()!;
    try {
      const session = sessions.get(request.session);
      if (!session) throw new AppError("MODEL_RUN", `No embedding session ${request.session} is open in the model thread.`, "This is a bug in minirag-mcp: a closed session was asked to run. Please report it with what led to it.");
      const output = await session.run(request.batch);
      reply({ type: "ran", id: request.id, ...output }, [output.vectors.buffer]);
    } catch (error) {
      reply({ type: "failed", id: request.id, ...errorReply(error, RUN_FAILED) });
    }
  }
  draining = false;
}

self.onmessage = async (event: MessageEvent<ThreadRequest>) => {
  const request = event.data;
  switch (request.type) {
    case "run": {
      // After the urgent ones already waiting, ahead of the rest.
      const at = request.urgent ? waiting.findIndex((w) => !w.urgent) : -1;
      waiting.splice(at === -1 ? waiting.length : at, 0, request);
      if (!draining) void drain();
      break;
    }
    case "open":
      try {
        const session = await ModelSession.open(
          request.spec,
          (line) => reply({ type: "log", id: request.id, line }),
          (step) => reply({ type: "step", step }),
        );
        sessions.set(request.session, session);
        reply({ type: "opened", id: request.id, declaredWidth: session.declaredWidth(), source: session.source });
      } catch (error) {
        reply({ type: "failed", id: request.id, ...errorReply(error, LOAD_FAILED) });
      }
      break;
    case "exit":
      process.exit(0);
    case "close": {
      const session = sessions.get(request.session);
      sessions.delete(request.session);
      await session?.release().catch(() => undefined);
      break;
    }
  }
};
