/**
 * The main thread's side of the model thread (embed-worker.ts). One worker
 * per process holds every open model session; each batch goes to it as a
 * message and comes back as pooled vectors. The main thread meanwhile reads
 * and chunks the next files, commits the last group and, in server mode,
 * answers other requests: onnxruntime-node runs a session on the calling
 * thread, which before blocked all of that for each batch's 100-200 ms.
 *
 * Every batch is sent at once and waits in the worker, which never idles for
 * want of the main thread; a question is marked urgent there and waits only
 * for the batch in progress, not for the sync's whole group.
 */
import { traceStartup } from "../config/startup-trace.ts";
import { fromErrorReply } from "../errors.ts";
import { workerEntryUrl } from "../native/worker-url.ts";
import type { BatchInput, BatchOutput, SessionSpec } from "./model-session.ts";
import type { Failed, Opened, Ran, ThreadAnswer, ThreadReply, ThreadRequest } from "./model-thread-protocol.ts";

interface Pending {
  resolve(answer: ThreadAnswer): void;
  log?: (line: string) => void;
}

let worker: Worker | null = null;
/** Counts the threads started: a session opened in an earlier one is opened again in the current one. */
let generation = 0;
let nextId = 0;
let nextSession = 0;
const pending = new Map<number, Pending>();

function startWorker(): Worker {
  const started = new Worker(workerEntryUrl("embed/embed-worker.ts"));
  started.onmessage = (event: MessageEvent<ThreadReply>) => {
    const reply = event.data;
    if (reply.type === "log") return pending.get(reply.id)?.log?.(reply.line);
    if (reply.type === "step") return traceStartup(reply.step);
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    idleCheck();
    waiting?.resolve(reply);
  };
  // The thread's own failure (a run's error comes back as a reply) or its exit. An old thread's late event is ignored.
  started.addEventListener("error", (event) => worker === started && threadEnded(String(event.message).split("\n")[0]!));
  started.addEventListener("close", () => worker === started && threadEnded(stopReason ?? "it exited"));
  return started;
}

/** Why stopModelThread asked the thread to end, for the calls that fail when it has. */
let stopReason: string | null = null;

/**
 * Asks the model thread to end once the batch in progress is done (a thread
 * inside a run is never terminated: onnxruntime-node then aborts the whole
 * process). Whatever waits on it then fails with the reason, and the next
 * call starts another thread, where each session opens again.
 */
export function stopModelThread(reason: string): void {
  if (!worker) return;
  stopReason = reason;
  worker.postMessage({ type: "exit" } satisfies ThreadRequest);
}

/** The current thread failed or exited: what waited on it fails, and the next call starts another. */
function threadEnded(reason: string): void {
  const ended = worker!;
  worker = null;
  stopReason = null;
  generation++;
  const waiting = [...pending.entries()];
  pending.clear();
  // A thread that failed but still runs is asked to end between two batches, as above.
  ended.postMessage({ type: "exit" } satisfies ThreadRequest);
  const hint = "Retry: the model loads again. If it repeats, delete CACHE_DIR's optimised model copy or reinstall.";
  for (const [id, entry] of waiting) entry.resolve({ type: "failed", id, code: "MODEL_RUN", message: `The embedding model's thread stopped: ${reason}`, hint });
}

/** A worker with nothing to answer must not keep a CLI process alive; one with work must. */
function idleCheck(): void {
  if (!worker) return;
  if (pending.size === 0) worker.unref();
  else worker.ref();
}

/** Sends a request and waits for its answer; `Answer` is what this kind of request is answered with, besides a failure. */
function call<Answer extends Opened | Ran>(request: Extract<ThreadRequest, { type: "open" | "run" }>, options: { transfer?: ArrayBuffer[]; log?: (line: string) => void } = {}): Promise<Answer | Failed> {
  const thread = (worker ??= startWorker());
  return new Promise((resolve, reject) => {
    pending.set(request.id, { resolve: resolve as (answer: ThreadAnswer) => void, log: options.log });
    try {
      thread.postMessage(request, options.transfer ?? []);
    } catch (error) {
      pending.delete(request.id);
      reject(error);
    } finally {
      idleCheck();
    }
  });
}

/** Which session in which thread: updated when a session opens again in a new thread. */
interface Slot {
  session: number;
  generation: number;
}

/** Sessions no longer referenced are closed in the worker, so their native memory goes with them. */
const closer = new FinalizationRegistry<Slot>((slot) => closeSlot(slot));

function closeSlot({ session, generation: opened }: Slot): void {
  if (worker && opened === generation) worker.postMessage({ type: "close", session } satisfies ThreadRequest);
}

async function openIn(spec: SessionSpec, log?: (line: string) => void): Promise<{ slot: Slot; answer: Opened }> {
  const slot = { session: nextSession++, generation };
  const answer = await call<Opened>({ type: "open", id: nextId++, session: slot.session, spec }, { log });
  if (answer.type === "failed") throw fromErrorReply(answer);
  return { slot, answer };
}

/** A model session held by the model thread. */
export class RemoteSession {
  /** Set while the session opens again in a new thread, so the batches that find it gone wait for one open. */
  private reopening: Promise<void> | null = null;

  private constructor(
    private readonly spec: SessionSpec,
    private readonly slot: Slot,
    readonly info: Pick<Opened, "declaredWidth" | "source">,
  ) {}

  /** Opens the model's session in the model thread (starting it if need be); the thread's log lines go to log. */
  static async open(spec: SessionSpec, log?: (line: string) => void): Promise<RemoteSession> {
    const { slot, answer } = await openIn(spec, log);
    const remote = new RemoteSession(spec, slot, { declaredWidth: answer.declaredWidth, source: answer.source });
    closer.register(remote, slot, remote);
    return remote;
  }

  /** One batch's pooled vectors. urgent: ahead of batches already waiting (a question during a sync). */
  async run(batch: BatchInput, urgent = false): Promise<BatchOutput> {
    while (this.slot.generation !== generation) {
      this.reopening ??= openIn(this.spec)
        .then(({ slot }) => void Object.assign(this.slot, slot))
        .finally(() => (this.reopening = null));
      await this.reopening;
    }
    const transfer = [batch.ids.buffer, batch.mask.buffer, batch.types.buffer];
    const answer = await call<Ran>({ type: "run", id: nextId++, session: this.slot.session, batch, urgent }, { transfer });
    if (answer.type === "failed") throw fromErrorReply(answer);
    return { vectors: answer.vectors, dimensions: answer.dimensions };
  }

  /** Frees the session in the model thread now, as collection would later (a load that failed after it opened). */
  close(): void {
    closer.unregister(this);
    closeSlot(this.slot);
  }
}
