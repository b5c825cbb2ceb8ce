/**
 * Labelling for one job (a sync, an ingest): the taxonomy as it is now and
 * the model, loaded by the first document that needs it and released when
 * the job ends. A model that fails to load fails once per job: every later
 * document is stored without its model labels at once, with the same reason.
 */
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";
import { AppError, describeError } from "../errors.ts";
import { labelDocument, type DistributionListener, type DocumentLabels, type LabelInput } from "./label-document.ts";
import type { LoadedScorer, ScorerFactory, ScorerPlace } from "./label-scorer.ts";
import { modelKey, noteModelFailure, noteModelLoaded, noteModelReleased } from "./model-state.ts";
import type { TaxonomyFile, TaxonomyState } from "./taxonomy-file.ts";
import type { ModelSettings } from "./taxonomy.ts";

/** A labelling job's context: the roots, their taxonomy, and where the model is cached, fetched and logged. */
export interface LabelContext extends ScorerPlace {
  roots: string[];
  /** The roots' classify.toml, as its App holds it. */
  taxonomy: TaxonomyFile;
}

/** The llama.cpp scorer, imported only when a document needs the model. */
const llamaFactory: ScorerFactory = async (model, ctx) => (await import("./llama-scorer.ts")).loadLlamaScorer(model, ctx);

/**
 * A single ingest has no "end of job" call: its model is freed once no
 * document has needed it for this long (sync releases at its end).
 */
export const IDLE_RELEASE_MS = 30_000;

export class Labeller {
  private scorer: Promise<LoadedScorer> | undefined;
  private scorerKey: string | undefined;
  /** Cancels the idle release's timer, while one is armed. */
  private cancelIdle = () => {};
  /** Documents being labelled now: the model is never freed under one of them (llama.cpp would read freed memory). */
  private busy = 0;
  private held = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly ctx: LabelContext,
    private readonly factory: ScorerFactory = llamaFactory,
    private readonly idleMs = IDLE_RELEASE_MS,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  taxonomy(): TaxonomyState {
    return this.ctx.taxonomy.load();
  }

  /** The document's labels and date; null when labels are off or classify.toml cannot be read (`problem` says which). */
  async label(doc: LabelInput, onDistribution?: DistributionListener): Promise<{ labels: DocumentLabels | null; problem?: string }> {
    const state = this.taxonomy();
    if (state.state === "absent") return { labels: null };
    if (state.state === "error") return { labels: null, problem: `labels not set: ${state.message}` };
    const { taxonomy } = state;
    // A document that starts as the idle timer is due keeps the model: the timer is re-armed by whoever ends the job.
    this.cancelIdle();
    this.busy++;
    try {
      const labels = await labelDocument(taxonomy, doc, this.ctx.roots, () => this.loadScorer(taxonomy.model!), onDistribution);
      return { labels };
    } finally {
      if (--this.busy === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /**
   * Null when the taxonomy's label model loads (it stays loaded for the job),
   * else why not: re-labelling asks this before reading the text of documents
   * a model problem left unlabelled, which only the model would read.
   */
  async modelProblem(): Promise<string | null> {
    const state = this.taxonomy();
    if (state.state !== "ok" || !state.taxonomy.model) return null;
    try {
      await this.loadScorer(state.taxonomy.model);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  private loadScorer(model: ModelSettings): Promise<LoadedScorer> {
    const key = modelKey(model.source);
    if (this.scorer && this.scorerKey === key) return this.scorer;
    // Another model (classify.toml changed mid-job): free the old one now; this document is the only one labelling.
    if (this.scorer) void Labeller.free(this.scorer, this.scorerKey!);
    this.scorerKey = key;
    this.scorer = this.factory(model, this.ctx).then(
      (scorer) => {
        noteModelLoaded(key);
        return scorer;
      },
      (error) => {
        // One line: the message, then the fix.
        const reason = error instanceof AppError ? `${error.message.replace(/\.$/, "")}. ${error.hint}` : describeError(error);
        noteModelFailure(key, reason);
        throw new Error(reason);
      },
    );
    return this.scorer;
  }

  /** A job with an end (a sync): the model stays loaded between its documents until releaseLabeller, not the idle timer, frees it. */
  holdUntilReleased(): void {
    this.held = true;
    this.cancelIdle();
  }

  /** Frees the model once it has gone unused for IDLE_RELEASE_MS; the timer never keeps the process alive. */
  releaseWhenIdle(): void {
    this.cancelIdle();
    if (!this.scorer || this.held) return;
    this.cancelIdle = this.clock.after(this.idleMs, () => void this.release(), true);
  }

  /** Frees the model, if this job loaded one. */
  async release(): Promise<void> {
    this.cancelIdle();
    while (this.busy > 0) await new Promise<void>((wake) => this.idleWaiters.push(wake));
    const scorer = this.scorer;
    const key = this.scorerKey;
    this.scorer = undefined;
    this.scorerKey = undefined;
    if (scorer) await Labeller.free(scorer, key!);
  }

  private static async free(scorer: Promise<LoadedScorer>, key: string): Promise<void> {
    const loaded = await scorer.catch(() => null);
    if (loaded) {
      await loaded.release();
      noteModelReleased(key);
    }
  }
}

/**
 * One App's labelling: the labeller of the job under way (one per job, until
 * released), and in tests the scorer its jobs use instead of llama.cpp.
 */
export class LabelJobs {
  private current: Labeller | undefined;
  private scripted: { factory: ScorerFactory; idleMs?: number; clock?: Clock } | undefined;

  /** The job's labeller, started on first use. */
  labeller(ctx: LabelContext): Labeller {
    this.current ??= new Labeller(ctx, this.scripted?.factory, this.scripted?.idleMs, this.scripted?.clock);
    return this.current;
  }

  /** Ends the job: the model, if loaded, is freed; the next document starts a new job. */
  async release(): Promise<void> {
    const labeller = this.current;
    this.current = undefined;
    await labeller?.release();
  }

  /** Tests: a scripted scorer for the jobs from now on, and optionally a shorter idle release on a clock of their own. */
  useScorerFactory(factory: ScorerFactory, idle: { idleMs?: number; clock?: Clock } = {}): void {
    this.scripted = { factory, ...idle };
    this.current = undefined;
  }
}

/** What labelling belongs to: an App, which holds its LabelJobs. */
export interface LabelOwner {
  readonly labelJobs: LabelJobs;
}

/** The labeller of an owner (an app): one per job, until releaseLabeller. */
export function labellerFor(owner: LabelOwner, ctx: LabelContext): Labeller {
  return owner.labelJobs.labeller(ctx);
}

/** Ends the owner's labelling job: the model, if loaded, is freed; the next document starts a new job. */
export async function releaseLabeller(owner: LabelOwner): Promise<void> {
  await owner.labelJobs.release();
}

/** Tests: the scorer an owner's jobs use instead of llama.cpp (a scripted one), and optionally a shorter idle release on a clock of their own. */
export function useScorerFactory(owner: LabelOwner, factory: ScorerFactory, idle: { idleMs?: number; clock?: Clock } = {}): void {
  owner.labelJobs.useScorerFactory(factory, idle);
}

/** The label context of an App. */
export function labelContext(
  app: { config: { roots: string[]; cacheDir: string; hfEndpoint: string; downloadUrl?: string }; taxonomy: TaxonomyFile },
  log: (line: string) => void,
): LabelContext {
  const { config } = app;
  return { roots: config.roots, taxonomy: app.taxonomy, cacheDir: config.cacheDir, hfEndpoint: config.hfEndpoint, downloadUrl: config.downloadUrl, log };
}
