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
import { MODEL_RETRY_HINT, type Failed, type Opened, type Ran, type ThreadAnswer, type ThreadReply, type ThreadRequest } from "./model-thread-protocol.ts";

interface Pending {
  resolve(answer: ThreadAnswer): void;
  /** What the call asked: a call that fails because its thread ended fails as a load (MODEL_LOAD) or a run (MODEL_RUN). */
  kind: "open" | "run";
  log?: (line: string) => void;
}

/** One model thread and the calls waiting on it: a thread that ends fails its own calls, not its successor's. */
interface Thread {
  worker: Worker;
  /** Counts the threads started: a session opened in an earlier one is opened again in the current one. */
  generation: number;
  pending: Map<number, Pending>;
  /** Why stopModelThread asked it to end, for the calls that fail when it has. */
  stopReason?: string;
}

let current: Thread | null = null;
let generations = 0;
let nextId = 0;
let nextSession = 0;

function startThread(): Thread {
  const thread: Thread = { worker: new Worker(workerEntryUrl("embed/embed-worker.ts")), generation: ++generations, pending: new Map() };
  thread.worker.onmessage = (event: MessageEvent<ThreadReply>) => {
    const reply = event.data;
    if (reply.type === "log") return thread.pending.get(reply.id)?.log?.(reply.line);
    if (reply.type === "step") return traceStartup(reply.step);
    const waiting = thread.pending.get(reply.id);
    thread.pending.delete(reply.id);
    holdWhileBusy(thread);
    waiting?.resolve(reply);
  };
  // The thread's own failure (a run's error comes back as a reply) or its exit.
  thread.worker.addEventListener("error", (event) => threadEnded(thread, String(event.message).split("\n")[0]!));
  thread.worker.addEventListener("close", () => threadEnded(thread, thread.stopReason ?? "it exited"));
  return thread;
}

/** The generation a session opened now belongs to: the current thread's, or the next one's. */
function currentGeneration(): number {
  return current?.generation ?? generations + 1;
}

/**
 * Ends the model thread: the next call starts another, where each session
 * opens again. The thread itself stops once the batch in progress is done (a
 * thread inside a run is never terminated: onnxruntime-node then aborts the
 * whole process), failing the calls still waiting on it with the reason. The
 * thread's own failure takes the same path; tests use this to stand for it.
 */
export function stopModelThread(reason: string): void {
  const stopping = current;
  if (!stopping) return;
  current = null;
  stopping.stopReason = reason;
  stopping.worker.postMessage({ type: "exit" } satisfies ThreadRequest);
}

/** A thread failed or exited: the calls that waited on it fail, and the next call starts another. */
function threadEnded(thread: Thread, reason: string): void {
  if (current === thread) current = null;
  const waiting = [...thread.pending.entries()];
  thread.pending.clear();
  // One that failed but still runs is asked to end between two batches, and no longer holds the process.
  thread.worker.postMessage({ type: "exit" } satisfies ThreadRequest);
  thread.worker.unref();
  const message = `The embedding model's thread stopped: ${reason}`;
  for (const [id, entry] of waiting) entry.resolve({ type: "failed", id, code: entry.kind === "open" ? "MODEL_LOAD" : "MODEL_RUN", message, hint: MODEL_RETRY_HINT });
}

/** A thread with nothing to answer must not keep a CLI process alive; one with work must. */
function holdWhileBusy(thread: Thread): void {
  if (thread.pending.size === 0) thread.worker.unref();
  else thread.worker.ref();
}

/** Sends a request and waits for its answer; `Answer` is what this kind of request is answered with, besides a failure. */
function call<Answer extends Opened | Ran>(request: Extract<ThreadRequest, { type: "open" | "run" }>, options: { transfer?: ArrayBuffer[]; log?: (line: string) => void } = {}): Promise<Answer | Failed> {
  const thread = (current ??= startThread());
  return new Promise((resolve, reject) => {
    thread.pending.set(request.id, { resolve: resolve as (answer: ThreadAnswer) => void, kind: request.type, log: options.log });
    try {
      thread.worker.postMessage(request, options.transfer ?? []);
    } catch (error) {
      thread.pending.delete(request.id);
      reject(error);
    } finally {
      holdWhileBusy(thread);
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

function closeSlot({ session, generation }: Slot): void {
  if (current?.generation === generation) current.worker.postMessage({ type: "close", session } satisfies ThreadRequest);
}

async function openIn(spec: SessionSpec, log?: (line: string) => void): Promise<{ slot: Slot; answer: Opened }> {
  const slot = { session: nextSession++, generation: currentGeneration() };
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

  get spin(): SessionSpec["spin"] {
    return this.spec.spin;
  }

  get questionsOnly(): boolean {
    return this.spec.questionsOnly ?? false;
  }

  /** Opens the model's session in the model thread (starting it if need be); the thread's log lines go to log. */
  static async open(spec: SessionSpec, log?: (line: string) => void): Promise<RemoteSession> {
    const { slot, answer } = await openIn(spec, log);
    const remote = new RemoteSession(spec, slot, { declaredWidth: answer.declaredWidth, source: answer.source });
    closer.register(remote, slot, remote);
    return remote;
  }

  /** One batch's pooled vectors. urgent: ahead of batches already waiting (a question during a sync). */
  async run(batch: BatchInput, urgent = false): Promise<BatchOutput> {
    while (this.slot.generation !== currentGeneration()) {
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
