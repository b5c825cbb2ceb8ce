#!/usr/bin/env bun
/**
 * A Google Cloud Storage server for scripts/accept/team-index-gcs.test.ts:
 * fsouza/fake-gcs-server (pinned in gcs-emulator/go.mod) behind the XML-API
 * front that LanceDB's storage layer needs (gcs-emulator/main.go says why),
 * built with Go into .ci/gcs on first use. .ci/steps builds it before the
 * acceptance run (`bun scripts/accept/gcs-emulator.ts`), so a machine without
 * Go or its module proxy fails there, by name. startGcsEmulator() runs one on
 * a free port, in memory, with the named buckets, and waits until it answers.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../test/helpers.ts";
import { runChecked } from "./checked-run.ts";
import { freePort } from "./moto-server.ts";
import { waitUntilUp } from "./server-up.ts";

const SOURCE = join(import.meta.dir, "gcs-emulator");
const BINARY = join(REPO_ROOT, ".ci", "gcs", "gcs-emulator");

/** The Go toolchain: on PATH, or where the official archive unpacks it. */
function goCommand(): string {
  const found = Bun.which("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
  if (!found) throw new Error("Building the GCS emulator needs Go (https://go.dev/dl/); the gs:// team-index acceptance tests run against it");
  return found;
}

/** The emulator's binary, built from gcs-emulator/ when missing or older than its source. */
export function gcsEmulator(): string {
  const newest = Math.max(...["main.go", "list.go", "go.mod", "go.sum"].map((f) => statSync(join(SOURCE, f)).mtimeMs));
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= newest) return BINARY;
  mkdirSync(join(REPO_ROOT, ".ci", "gcs"), { recursive: true });
  runChecked([goCommand(), "build", "-C", SOURCE, "-o", BINARY, "."], "Building the GCS emulator (Go, fake-gcs-server from the Go module proxy) failed; the gs:// team-index acceptance tests need it");
  return BINARY;
}

export interface GcsEmulator {
  /** Its address, as STORAGE_EMULATOR_HOST takes it. */
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts the emulator on a free port with `buckets`, holding everything in memory, and waits until it answers. */
export async function startGcsEmulator(buckets: string[]): Promise<GcsEmulator> {
  const port = await freePort();
  const child = Bun.spawn([gcsEmulator(), "-port", String(port), "-buckets", buckets.join(",")], { stdout: "ignore", stderr: "ignore" });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, `the GCS emulator on port ${port}`, async () => (await fetch(`${endpoint}/storage/v1/b`)).ok);
  return {
    endpoint,
    async stop() {
      child.kill(9);
      await child.exited;
    },
  };
}

if (import.meta.main) {
  try {
    console.log(`gcs emulator: ${gcsEmulator()}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
