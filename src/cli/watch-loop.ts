/**
 * `minirag-mcp sync --watch`: the server's live index in the foreground, for
 * people who use only the CLI. It syncs every root once, then each change,
 * printing one line per sync (a JSON object per line with --json), until
 * Ctrl-C or SIGTERM. The roots are the ones named (or the current
 * directory): asking for it is the choice the server waits for.
 */
import type { App } from "../app.ts";
import { escapeControls } from "../text/control-escapes.ts";
import { runSync } from "../sync/run-sync.ts";
import { Watcher } from "../watch/watcher.ts";
import { describeWatchedSync } from "../watch/watch-status.ts";
import { fileProblem, printLines, warn } from "./output.ts";

/** Runs until a signal; resolves once the watcher has stopped. */
export async function watchInForeground(app: App, json: boolean): Promise<void> {
  const watcher = new Watcher(
    {
      config: app.config,
      log: (line) => warn(line),
      sync: (scopes, named) => runSync(app, { scopes, named, keepOutsideRoots: true }),
      afterSync: (record) => {
        // One object per line (JSON Lines), so a reader can take each sync as it comes.
        if (json) return printLines(JSON.stringify(record));
        printLines(escapeControls(describeWatchedSync(record)));
        for (const e of record.errors) warn(escapeControls(fileProblem(e.source, e.error)));
      },
    },
    { watched: app.config.roots, skipped: [] },
  );
  const stopped = Promise.withResolvers<void>();
  const stop = () => {
    watcher.close();
    stopped.resolve();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await watcher.start();
  const folders = watcher.status().folders;
  process.stderr.write(`watching ${app.config.roots.join(", ")} (${folders} folder${folders === 1 ? "" : "s"}); Ctrl-C stops\n`);
  await stopped.promise;
  await watcher.idle();
}
