/**
 * The embedding models' thread: holds each open model session and runs one
 * batch per message, so the main thread keeps reading files, committing and
 * answering requests while the model works. A separate entry point of the
 * compiled binary (scripts/build.ts lists it); session-worker.ts is its other
 * side and documents the messages.
 */
import { AppError, describeError } from "../errors.ts";
import { ModelSession } from "./model-session.ts";
import type { WorkerReply, WorkerRequest } from "./session-worker.ts";

declare const self: Worker;

const sessions = new Map<number, ModelSession>();

function failure(error: unknown): { code: AppError["code"]; message: string; hint: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message, hint: error.hint };
  return { code: "MODEL_LOAD", message: `The embedding model failed: ${describeError(error)}`, hint: "Retry; if it repeats, delete CACHE_DIR's optimised model copy or reinstall." };
}

const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    switch (request.type) {
      case "open": {
        const session = await ModelSession.open(
          request.spec,
          (line) => reply({ type: "log", id: request.id, line }),
          (step) => reply({ type: "step", step }),
        );
        sessions.set(request.session, session);
        reply({ type: "opened", id: request.id, inputNames: [...session.inputNames], declaredWidth: session.declaredWidth(), source: session.source });
        break;
      }
      case "run": {
        const session = sessions.get(request.session);
        if (!session) throw new AppError("MODEL_LOAD", `No embedding session ${request.session} is open in the model thread.`, "Retry; the model is loaded again.");
        const output = await session.run(request.batch);
        reply({ type: "ran", id: request.id, ...output }, [output.vectors.buffer]);
        break;
      }
      case "close": {
        const session = sessions.get(request.session);
        sessions.delete(request.session);
        await session?.release();
        break;
      }
    }
  } catch (error) {
    reply({ type: "failed", id: request.type === "close" ? -1 : request.id, ...failure(error) });
  }
};
