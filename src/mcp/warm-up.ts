/**
 * Loads the model, and the index's search structures, in the background once
 * the MCP handshake is over, so the first query finds them loaded (or
 * loading) instead of paying the whole load.
 * Started after tools/list is answered (or shortly after `initialized` when
 * no tools/list comes): the load runs in synchronous steps of up to ~0.1 s
 * on the one JS thread, which must not hold up the handshake. Never for a
 * model that is not on disk yet: a download starts only when a tool needs it.
 */
import type { App } from "../app.ts";
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import { locateModel } from "../embed/bundled-model.ts";
import { traceStartup } from "../config/startup-trace.ts";
import { warmQuery, warmSearch } from "../search/warm-search.ts";

/** How long after `initialized` the load starts when no tools/list comes first. */
export const WARM_UP_DELAY_MS = 200;

export function warmUpModel(app: App): void {
  // The index opens beside the model: the first query needs both, and the model's load ends by reading the
  // index's model record, which waited for LanceDB to load and open the table after the session (~90 ms).
  // Then what a first query reads from it (search/warm-search.ts). A failure is the first query's to report.
  const searchWarm = app.store.hasTable().then(
    (exists) => {
      if (!exists) return false;
      traceStartup("index opened");
      return warmSearch(app).then(
        () => (traceStartup("search warmed up"), true),
        () => (traceStartup("search warm-up failed"), false),
      );
    },
    () => false,
  );
  // Which model depends on the index when MODEL_NAME is unset (store/model-choice.ts); an unreadable index is the first query's to report.
  const modelWarm = app.modelChoice().then(
    (choice) => {
      const where = locateModel(choice.name, app.config.cacheDir);
      if (!where || where.source === "download") return false;
      // A failure is left for the first tool that needs the model to report; the load is retried then.
      return app.embedder().then(
        () => (traceStartup("model warmed up"), true),
        () => (traceStartup("model warm-up failed"), false),
      );
    },
    () => false,
  );
  // With both loaded, one question end to end: the code paths a query takes run once before a user's does.
  void Promise.all([searchWarm, modelWarm]).then(async ([search, model]) => {
    if (search && model) {
      await warmQuery(app).then(
        () => traceStartup("query warmed up"),
        () => traceStartup("query warm-up failed"),
      );
    }
    // Whatever there was to warm: nothing more follows (a reader of the trace waits for this, not for a time).
    traceStartup("warm-up ended");
  });
}

/** How long the index must go without a single-document write before the server loads its new version's search structures. */
export const REWARM_QUIET_MS = 1_000;

export interface SearchRewarmer {
  /** Loads now (the end of a sync job), or once the load under way ends. */
  start(): void;
  /** Loads once REWARM_QUIET_MS pass without another call (a single-document write). */
  soon(): void;
  /** Resolves once no load is under way or due (for tests). */
  idle(): Promise<void>;
}

/**
 * Runs warm (search/warm-search.ts warmSearch) in the background, one run at
 * a time: a call during a run makes one more run after it, however many
 * calls came. A write leaves the look-alike signatures and LanceDB's indexes
 * of the new version unread, and the question that usually follows would
 * pay for them: at 100k chunks 0.15-0.25 s for the signatures alone, at 1M
 * 1.1-1.8 s. A sync job's end starts a run at once. A single-document tool
 * (ingest_file, ingest_data, ingest_url, delete_file) asks for one soon: an
 * agent calls those in runs, and one load after the run's last write does
 * what a load after each would. Not after each commit during a job, where
 * the work would take the model's cores.
 */
export function searchRewarmer(warm: () => Promise<void>, log: (line: string) => void, quietMs = REWARM_QUIET_MS, clock: Clock = SYSTEM_CLOCK): SearchRewarmer {
  let running: Promise<void> | null = null;
  let again = false;
  // A load asked for soon: its timer's cancel, and what idle() waits on until the timer fires.
  let due: { cancel: () => void; fired: PromiseWithResolvers<void> } | undefined;
  const start = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = warm()
      .catch((error) => log(`loading the index's search structures after a write failed (the next query loads them): ${(error as Error).message}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          start();
        }
      });
  };
  const soon = (): void => {
    due?.cancel();
    const fired = due?.fired ?? Promise.withResolvers<void>();
    const cancel = clock.after(quietMs, () => {
      due = undefined;
      fired.resolve();
      start();
    });
    due = { cancel, fired };
  };
  const idle = async (): Promise<void> => {
    while (due || running) await (due?.fired.promise ?? running);
  };
  return { start, soon, idle };
}

/**
 * Calls start once, at the first of: ready() (tools/list answered) or
 * WARM_UP_DELAY_MS after initialized() with no tools/list asked for. A
 * tools/list in flight (listing()) stops the timer: its answer must not wait
 * behind the load, however slow the machine makes it.
 */
export function warmUpTrigger(start: () => void, clock: Clock = SYSTEM_CLOCK): { initialized(): void; listing(): void; ready(): void } {
  let started = false;
  let listing = false;
  let cancel: (() => void) | undefined;
  const go = () => {
    if (started) return;
    started = true;
    cancel?.();
    // After the current response is written.
    clock.after(0, start);
  };
  return {
    initialized() {
      if (!listing) cancel ??= clock.after(WARM_UP_DELAY_MS, go);
    },
    listing() {
      listing = true;
      cancel?.();
    },
    ready: go,
  };
}
