/**
 * How a write a user asked for ends, whichever front end asked: the store is
 * tidied, then the change is said (App.indexChanged), so the MCP server loads
 * the new version's search structures in the background once writes pause.
 * The operations call it themselves, so no front end has to remember it.
 */
import type { App } from "../app.ts";

/**
 * After `documents` documents were written or removed: many are compacted as
 * a sync's end compacts them (ChunkStore.optimize); one only once small
 * fragments have piled up (ChunkStore.tidy). None wrote nothing, so nothing follows.
 */
export async function finishWrite(app: App, documents: number): Promise<void> {
  if (documents === 0) return;
  if (documents > 1) await app.store.optimize();
  else await app.store.tidy();
  app.indexChanged("soon");
}
