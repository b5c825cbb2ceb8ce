/**
 * Which session of the model a text runs through, by how the process uses
 * the model. ORT sets how its threads wait between a run's operators per
 * session (model-session.ts ThreadSpin), so a process that asks questions and
 * also embeds documents holds two sessions while it embeds documents.
 *
 * - "never": every text through a session whose threads sleep.
 * - "during-runs": every text through a session whose threads spin while a run
 *   lasts (CLI commands that embed documents and ask nothing).
 * - "by-kind" (the MCP server, and CLI commands that ask): questions through a
 *   sleeping session, passages through a spinning one, opened at the first
 *   passage and closed PASSAGE_SESSION_IDLE_MS after the last. Measured with
 *   e5 on 2 cores, 100 abstracts in process, alternating: 5.54-5.65 s with
 *   spinning against 5.92-6.27 s without; the second session held 55-73 MiB
 *   more RSS while open.
 */
import type { SessionSpec, ThreadSpin } from "./model-session.ts";
import { RemoteSession } from "./model-thread.ts";
import type { EmbedKind } from "./embedder.ts";

export type SpinPolicy = ThreadSpin | "by-kind";

/** How long a "by-kind" passage session outlives its last batch: a sync's groups follow each other well within it. */
export const PASSAGE_SESSION_IDLE_MS = 30_000;

export class KindSessions {
  private passages: Promise<RemoteSession> | null = null;
  /** Passage embeddings in progress; the idle clock runs only when there are none. */
  private passagesRunning = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    /** Every text's session, or the questions' one under "by-kind". */
    readonly main: RemoteSession,
    private readonly spec: Omit<SessionSpec, "spin">,
    private readonly policy: SpinPolicy,
    private readonly idleMs: number,
  ) {}

  /** Opens the first session; under "by-kind" the passages' opens when first needed. */
  static async open(spec: Omit<SessionSpec, "spin">, policy: SpinPolicy, log?: (line: string) => void, idleMs = PASSAGE_SESSION_IDLE_MS): Promise<KindSessions> {
    const main = await RemoteSession.open({ ...spec, spin: policy === "during-runs" ? "during-runs" : "never" }, log);
    return new KindSessions(main, spec, policy, idleMs);
  }

  /** Sessions held in the model thread: 1, or 2 while a "by-kind" passage session is open. */
  get held(): number {
    return this.passages ? 2 : 1;
  }

  /** Runs fn with the session for this kind of text. */
  async with<T>(kind: EmbedKind, fn: (session: RemoteSession) => Promise<T>): Promise<T> {
    if (this.policy !== "by-kind" || kind === "query") return fn(this.main);
    this.passagesRunning++;
    clearTimeout(this.idleTimer);
    try {
      this.passages ??= RemoteSession.open({ ...this.spec, spin: "during-runs" }).catch((error: unknown) => {
        this.passages = null;
        throw error;
      });
      return await fn(await this.passages);
    } finally {
      if (--this.passagesRunning === 0) {
        this.idleTimer = setTimeout(() => this.closePassages(), this.idleMs);
        this.idleTimer.unref();
      }
    }
  }

  /** Closes every session now (a load that failed after they opened). */
  close(): void {
    clearTimeout(this.idleTimer);
    this.closePassages();
    this.main.close();
  }

  private closePassages(): void {
    const closing = this.passages;
    this.passages = null;
    closing?.then(
      (session) => session.close(),
      () => undefined,
    );
  }
}
