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
import { AppError, type ErrorCode } from "../errors.ts";
import type { BatchInput, BatchOutput, SessionSpec } from "./model-session.ts";
import type { CachedSession } from "./optimized-model-cache.ts";

export type WorkerRequest =
  | { type: "open"; id: number; session: number; spec: SessionSpec }
  | { type: "run"; id: number; session: number; batch: BatchInput; urgent: boolean }
  | { type: "close"; session: number };

export type WorkerReply =
  | { type: "opened"; id: number; declaredWidth: number | undefined; source: CachedSession["source"] }
  | ({ type: "ran"; id: number } & BatchOutput)
  | { type: "failed"; id: number; code: ErrorCode; message: string; hint: string }
  | { type: "log"; id: number; line: string }
  /** A start-up step the model thread finished, traced on this thread's clock (config/startup-trace.ts). */
  | { type: "step"; step: string };

type Opened = Extract<WorkerReply, { type: "opened" }>;

interface Pending {
  resolve(reply: WorkerReply): void;
  log?: (line: string) => void;
}

let worker: Worker | null = null;
/** Which worker a session was opened in: a session of a worker that crashed is opened again in the next. */
let generation = 0;
let nextId = 0;
let nextSession = 0;
const pending = new Map<number, Pending>();

/** From source the worker sits next to this module; in the compiled binary, under its path relative to src/ (as convert/isolated-convert.ts explains). */
function workerUrl(): string {
  const compiled = import.meta.url.includes("/$bunfs/") || import.meta.url.includes("~BUN");
  return new URL(compiled ? "./embed/embed-worker.ts" : "./embed-worker.ts", import.meta.url).href;
}

function startWorker(): Worker {
  const started = new Worker(workerUrl());
  started.onmessage = (event: MessageEvent<WorkerReply>) => {
    const reply = event.data;
    if (reply.type === "log") return pending.get(reply.id)?.log?.(reply.line);
    if (reply.type === "step") return traceStartup(reply.step);
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    idleCheck();
    waiting?.resolve(reply);
  };
  started.onerror = (event) => {
    // The thread itself failed (a run's own error comes back as a reply): fail everything it held, start afresh on the next call.
    const crash = { code: "MODEL_LOAD" as const, message: `The embedding model's thread stopped: ${event.message}`, hint: "Retry; if it repeats, delete CACHE_DIR's optimised model copy or reinstall." };
    const waiting = [...pending.entries()];
    pending.clear();
    worker?.terminate();
    worker = null;
    generation++;
    for (const [id, entry] of waiting) entry.resolve({ type: "failed", id, ...crash });
  };
  return started;
}

/** A worker with nothing to answer must not keep a CLI process alive; one with work must. */
function idleCheck(): void {
  if (!worker) return;
  if (pending.size === 0) worker.unref();
  else worker.ref();
}

function call(request: WorkerRequest & { id: number }, options: { transfer?: ArrayBuffer[]; log?: (line: string) => void } = {}): Promise<WorkerReply> {
  worker ??= startWorker();
  return new Promise((resolve) => {
    pending.set(request.id, { resolve, log: options.log });
    idleCheck();
    worker!.postMessage(request, options.transfer ?? []);
  });
}

function thrown(reply: Extract<WorkerReply, { type: "failed" }>): AppError {
  return new AppError(reply.code, reply.message, reply.hint);
}

/** Which session in which worker: updated when a crash makes the session open again. */
interface Slot {
  session: number;
  generation: number;
}

/** Sessions no longer referenced are closed in the worker, so their native memory goes with them. */
const closer = new FinalizationRegistry<Slot>(({ session, generation: opened }) => {
  if (worker && opened === generation) worker.postMessage({ type: "close", session } satisfies WorkerRequest);
});

/** A model session held by the worker. */
export class RemoteSession {
  private constructor(
    private readonly spec: SessionSpec,
    private readonly slot: Slot,
    readonly info: Omit<Opened, "type" | "id">,
  ) {}

  /** Opens the model's session in the worker (starting the worker if need be); the worker's log lines go to log. */
  static async open(spec: SessionSpec, log?: (line: string) => void): Promise<RemoteSession> {
    const { slot, reply } = await openIn(spec, log);
    const remote = new RemoteSession(spec, slot, { declaredWidth: reply.declaredWidth, source: reply.source });
    closer.register(remote, slot);
    return remote;
  }

  /** One batch's pooled vectors. urgent: ahead of batches already waiting (a question during a sync). */
  async run(batch: BatchInput, urgent = false): Promise<BatchOutput> {
    if (this.slot.generation !== generation) Object.assign(this.slot, (await openIn(this.spec)).slot); // the worker crashed since
    const id = nextId++;
    const transfer = [batch.ids.buffer, batch.mask.buffer, batch.types.buffer];
    const reply = await call({ type: "run", id, session: this.slot.session, batch, urgent }, { transfer });
    if (reply.type === "failed") throw thrown(reply);
    if (reply.type !== "ran") throw new AppError("MODEL_LOAD", `The embedding model's thread answered a run with ${reply.type}.`, "Retry.");
    return { vectors: reply.vectors, dimensions: reply.dimensions };
  }
}

async function openIn(spec: SessionSpec, log?: (line: string) => void): Promise<{ slot: Slot; reply: Opened }> {
  const slot = { session: nextSession++, generation };
  const reply = await call({ type: "open", id: nextId++, session: slot.session, spec }, { log });
  if (reply.type === "failed") throw thrown(reply);
  if (reply.type !== "opened") throw new AppError("MODEL_LOAD", `The embedding model's thread answered an open with ${reply.type}.`, "Retry.");
  return { slot, reply };
}
