/**
 * Keeps a server's questions on the version they read while its watcher's
 * sync writes a newer one and the server loads that one's search structures
 * (mcp/warm-up.ts): the first question to see a watched change then finds
 * them loaded, where it had paid for loading them itself (76 ms against 32
 * warm at 5,100 documents with the e5 files). The change shows once the load
 * ends, or QUERY_HOLD_MS after the hold began, whichever is first; any other
 * write releases the hold at once, so a client's own ingest is read back in
 * its next question. Which versions may be held: TableView.holdQueries.
 */
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import { PRUNE_OLDER_THAN_MS } from "./table-upkeep.ts";

/** The longest questions stay on the held version: a long watched sync (a checkout of 2,000 files) shows its files as they commit after this. */
export const QUERY_HOLD_MS = 5_000;

/**
 * A version made longer ago than this is not held: the sync's compaction prunes
 * versions by their own age (PRUNE_OLDER_THAN_MS), not by when they were
 * replaced, so an index left alone for an hour would lose the held version
 * under its questions. The margin is far beyond any hold.
 */
export const HOLDABLE_AGE_MS = PRUNE_OLDER_THAN_MS - 15 * 60_000;

/** What hold() did: began a hold, joined one in force, or nothing (released since its mark). */
export type HoldTaken = "new" | "joined" | null;

export class QueryHold {
  private held: { version: number; until: number } | null = null;
  private releases = 0;
  /** Holds begun so far: a load ends only the holds begun before it started (releaseLoaded). */
  private holds = 0;
  /** The most holds a finished load covered: a hold withdrawn down to it has nothing left to wait for. */
  private loaded = -1;

  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  /** A mark to pass to hold(): a release after it (a client's write committed meanwhile) cancels that hold. */
  mark(): number {
    return this.releases;
  }

  /**
   * Questions read this version until released, or for ms at most; nothing when released since `since`. A hold
   * already in force keeps its version and its end: a second watched sync begun while the server still loads the
   * first one's version must not move questions onto that version, and questions are kept back QUERY_HOLD_MS from
   * the first sync at most, however many follow.
   */
  hold(version: number, since = this.releases, ms = QUERY_HOLD_MS): HoldTaken {
    if (since !== this.releases) return null;
    this.holds++;
    if (this.live()) return "joined";
    this.held = { version, until: this.clock.now() + ms };
    return "new";
  }

  /**
   * A hold whose sync changed nothing, or failed, is taken back: one it began is released; one it joined (an earlier
   * sync's, waiting for that sync's load) stays for that load, and no longer keeps a finished load from ending it.
   */
  takeBack(taken: HoldTaken): void {
    if (taken === "new") return this.release();
    if (taken !== "joined") return;
    this.holds--;
    if (this.holds <= this.loaded) this.held = null;
  }

  release(): void {
    this.held = null;
    this.releases++;
  }

  /** Taken when a load of the latest version starts, for releaseLoaded. */
  loadStarted(): number {
    return this.holds;
  }

  /**
   * A load that started at `started` (loadStarted) has ended: the hold goes unless a sync began another since, whose
   * version that load may not include (the load that follows it ends it, or its time runs out). Not a release in
   * mark()'s sense: a sync between its mark and its hold keeps its hold.
   */
  releaseLoaded(started: number): void {
    this.loaded = Math.max(this.loaded, started);
    if (this.holds <= this.loaded) this.held = null;
  }

  /** Whether questions are being held now. */
  live(): boolean {
    if (this.held && this.clock.now() >= this.held.until) this.held = null;
    return this.held !== null;
  }

  /** The version a question reads when the latest is `latest`: the held one while the hold lasts and is older. */
  versionFor(latest: number): number {
    return this.live() ? Math.min(this.held!.version, latest) : latest;
  }
}
