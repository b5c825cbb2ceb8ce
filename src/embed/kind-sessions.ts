/**
 * Which session of the model a text runs through, by how the process uses
 * the model (its SpinPolicy). ORT sets how its threads wait between a run's
 * operators per session (model-session.ts ThreadSpin), so a process that
 * asks questions and also embeds documents holds two sessions while it
 * embeds documents.
 *
 * - "never": every text through a session whose threads sleep.
 * - "during-runs": every text through a session whose threads spin while a run
 *   lasts (CLI commands that embed documents and ask nothing).
 * - "by-kind" (the MCP server, and CLI commands that ask): questions through a
 *   sleeping session, passages through a spinning one, opened at the first
 *   passage and closed PASSAGE_SESSION_IDLE_MS after the last. Measured with
 *   e5 on 2 cores, a 100-abstract sync_start over MCP, old and new binaries
 *   alternating, five rounds: 5.38-5.66 s against 5.69-6.24 s with one
 *   sleeping session; peak RSS 52-69 MiB higher while the second is open.
 *   Spinning is only a speed-up: if that session cannot open, passages use
 *   the first.
 */
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import type { SessionSpec, ThreadSpin } from "./model-session.ts";
import { LaterModelCache } from "./later-model-cache.ts";
import { RemoteSession } from "./model-thread.ts";

export type SpinPolicy = ThreadSpin | "by-kind";

/** How long a "by-kind" passage session outlives its last batch: a sync's groups follow each other well within it. */
export const PASSAGE_SESSION_IDLE_MS = 30_000;

export class KindSessions {
  /** The passages' session under "by-kind" while it is open (or the first session, when it could not open). */
  private passages: Promise<RemoteSession> | null = null;
  /** Set by close(): every text then goes to the first session and nothing reopens. */
  private closed = false;
  /** Passage embeddings in progress; the idle clock runs only when there are none. */
  private passagesRunning = 0;
  /** Cancels the passage session's idle close, while one is armed. */
  private cancelIdle = () => {};
  /** The optimised copy of the model still to write, when the first session left it for later (spec.cacheLater). */
  readonly laterCache: LaterModelCache | null;

  private constructor(
    /** Every text's session, or the questions' one under "by-kind". */
    readonly main: RemoteSession,
    private readonly spec: Omit<SessionSpec, "spin">,
    private readonly policy: SpinPolicy,
    private readonly idleMs: number,
    private readonly clock: Clock,
    private readonly log?: (line: string) => void,
  ) {
    this.laterCache = main.info.source === "model, cache later" ? new LaterModelCache({ ...spec, spin: "never" }, clock, log) : null;
  }

  /** Opens the first session; under "by-kind" the passages' opens when first needed. */
  static async open(spec: Omit<SessionSpec, "spin">, policy: SpinPolicy, log?: (line: string) => void, idleMs = PASSAGE_SESSION_IDLE_MS, clock: Clock = SYSTEM_CLOCK): Promise<KindSessions> {
    // Under "by-kind" the first session embeds questions only (model-session.ts questionThreads), unless the passages' cannot open.
    const main = await RemoteSession.open({ ...spec, spin: policy === "during-runs" ? "during-runs" : "never", questionsOnly: policy === "by-kind" }, log);
    return new KindSessions(main, spec, policy, idleMs, clock, log);
  }

  /** How the threads of each session held wait: one entry, or two while a "by-kind" passage session is open. */
  async spins(): Promise<ThreadSpin[]> {
    const passages = await this.passages;
    return passages && passages !== this.main ? [this.main.spin, passages.spin] : [this.main.spin];
  }

  /**
   * Runs fn with the session for questions (passage false) or passages. The
   * idle clock starts when no passage call is in progress; a call that fails
   * on its first batch counts as ended while its other batches still run,
   * which only closes the session a little early.
   */
  async with<T>(passage: boolean, fn: (session: RemoteSession) => Promise<T>): Promise<T> {
    this.laterCache?.touch();
    // The idle time counts from a run's end too, so a long run is not followed at once by the copy's write.
    if (this.policy !== "by-kind" || !passage || this.closed) return fn(this.main).finally(() => this.laterCache?.touch());
    this.passagesRunning++;
    this.cancelIdle();
    try {
      // A sync is under way: this open may as well write the optimised copy a first session left for later.
      this.passages ??= this.openPassages().catch((error: unknown) => {
        // Slower on 2 cores, where the question session has one thread, but every text still embeds.
        this.log?.(`passages embed through the question session: a second session could not open (${(error as Error).message})`);
        return this.main;
      });
      return await fn(await this.passages);
    } finally {
      if (--this.passagesRunning === 0 && !this.closed) this.cancelIdle = this.clock.after(this.idleMs, () => this.closePassages(), true);
    }
  }

  private async openPassages(): Promise<RemoteSession> {
    this.laterCache?.stop();
    return RemoteSession.open({ ...this.spec, spin: "during-runs", cacheLater: false });
  }

  /** Closes every session now (a load that failed after they opened). */
  close(): void {
    this.closed = true;
    this.laterCache?.stop();
    this.cancelIdle();
    this.closePassages();
    this.main.close();
  }

  private closePassages(): void {
    const closing = this.passages;
    this.passages = null;
    void closing?.then((session) => session !== this.main && session.close());
  }
}
