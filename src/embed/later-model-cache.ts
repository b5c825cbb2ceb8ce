/**
 * The optimised copy of the model (optimized-model-cache.ts), written once
 * the model has been idle for a while rather than before the first answer.
 *
 * A server started where CACHE_DIR holds no copy yet (a new machine, a new
 * reader of a team index, an offline bundle's first run) loads the model
 * alone, 0.4-0.5 s with e5 int8 on 2 cores, where loading it and writing the
 * copy takes 0.9-1.5 s. The copy still matters for every later start (0.1-0.2
 * s), so it is written here, by opening one more session that writes it and
 * closing that session at once. The model thread is busy for that second,
 * so it waits for WRITE_AFTER_IDLE_MS without a run: a question arriving
 * during the write waits for it, once.
 */
import { accessSync, constants, mkdirSync } from "node:fs";
import type { Clock } from "../clock.ts";
import type { SessionSpec } from "./model-session.ts";
import { RemoteSession } from "./model-thread.ts";
import { cacheFolder } from "./optimized-model-cache.ts";

export const WRITE_AFTER_IDLE_MS = 10_000;

export class LaterModelCache {
  /** Cancels the armed write, while one is armed. */
  private cancel = () => {};
  private done = false;
  /** The write in progress, for tests and for close(). */
  writing: Promise<void> | null = null;

  constructor(
    private readonly spec: SessionSpec,
    private readonly clock: Clock,
    private readonly log?: (line: string) => void,
  ) {
    this.touch();
  }

  /** A run of the model: the idle time starts again. */
  touch(): void {
    if (this.done) return;
    this.cancel();
    this.cancel = this.clock.after(WRITE_AFTER_IDLE_MS, () => this.write(), true);
  }

  /** Nothing more to write: the process ends its sessions, or another open wrote the copy. */
  stop(): void {
    this.done = true;
    this.cancel();
  }

  private write(): void {
    this.stop();
    const folder = cacheFolder(this.spec.cacheDir!, this.spec.modelName);
    try {
      // A folder that cannot take the copy is found here: the open below would load the whole model again for nothing.
      mkdirSync(folder, { recursive: true });
      accessSync(folder, constants.W_OK);
    } catch (error) {
      this.log?.(`warn: could not write the optimised model copy in ${folder} (${(error as Error).message}); each start loads the model without it`);
      return;
    }
    this.writing = RemoteSession.open({ ...this.spec, cacheLater: false }, this.log).then(
      (session) => {
        session.close();
        if (session.info.source !== "model, cache written") this.log?.(`warn: could not write the optimised model copy in ${folder}; each start loads the model without it`);
      },
      // Only a speed-up lost: the next start loads the model alone again and tries once more.
      (error: unknown) => this.log?.(`warn: could not write the optimised model copy: ${(error as Error).message}`),
    );
  }
}
