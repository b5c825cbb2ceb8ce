#!/usr/bin/env bun
/**
 * A real Azure Blob Storage server for scripts/accept/team-index-azure.test.ts:
 * Azurite, Microsoft's own emulator (npm `azurite`), the one on PATH when it
 * is there, else pinned and installed into .ci/azurite on first use. .ci/steps
 * installs it before the acceptance run (`bun scripts/accept/azurite.ts`), so a
 * machine without npm or its registry fails there, by name. startAzurite()
 * runs one on a free port, in memory, and waits until it answers.
 */
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../test/helpers.ts";
import { runChecked } from "./checked-run.ts";
import { freePort } from "./moto-server.ts";
import { waitUntilUp } from "./server-up.ts";

export const AZURITE_VERSION = "3.37.0";
const PREFIX = join(REPO_ROOT, ".ci", "azurite");

/** Azurite's one account and its key, published with the emulator (no secret: every Azurite has them). */
export const AZURITE_ACCOUNT = "devstoreaccount1";
export const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** The azurite-blob command: on PATH, or installed (azurite@AZURITE_VERSION) under .ci/azurite. */
export function azuriteBlob(): string {
  const onPath = Bun.which("azurite-blob");
  if (onPath) return onPath;
  const bin = join(PREFIX, "node_modules", ".bin", "azurite-blob");
  if (existsSync(bin)) return bin;
  mkdirSync(PREFIX, { recursive: true });
  const why = `Installing azurite@${AZURITE_VERSION} from npm into ${PREFIX} failed; the Azure team-index acceptance tests need a real Azure Blob server, npm and its registry`;
  runChecked(["npm", "install", "--prefix", PREFIX, "--no-audit", "--no-fund", "--loglevel=error", `azurite@${AZURITE_VERSION}`], why);
  if (!existsSync(bin)) throw new Error(`${why}: after the install there is no ${bin}.`);
  return bin;
}

export interface Azurite {
  /** The account's blob endpoint, as AZURE_STORAGE_ENDPOINT takes it: http://127.0.0.1:<port>/devstoreaccount1. */
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts Azurite's blob service on a free port, holding everything in memory, and waits until it answers. */
export async function startAzurite(): Promise<Azurite> {
  const port = await freePort();
  const args = ["--blobHost", "127.0.0.1", "--blobPort", String(port), "--inMemoryPersistence", "--silent"];
  const child = Bun.spawn([azuriteBlob(), ...args], { stdout: "ignore", stderr: "ignore" });
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  // Any HTTP answer (an unsigned listing is refused) means it is up.
  await waitUntilUp(child, `azurite-blob on port ${port}`, async () => (await fetch(`${endpoint}?comp=list`), true));
  return {
    endpoint,
    async stop() {
      child.kill(9);
      await child.exited;
    },
  };
}

/** Creates a container, signed with the account's shared key as Azure's REST API asks (Azurite checks it). */
export async function createContainer(endpoint: string, name: string): Promise<void> {
  const headers: Record<string, string> = { "x-ms-date": new Date().toUTCString(), "x-ms-version": "2021-08-06" };
  const canonicalHeaders = Object.keys(headers).sort().map((k) => `${k}:${headers[k]}`).join("\n");
  // Path-style URLs (the emulator's) name the account twice in the signed resource.
  const resource = `/${AZURITE_ACCOUNT}${new URL(endpoint).pathname}/${name}\nrestype:container`;
  const toSign = ["PUT", "", "", "", "", "", "", "", "", "", "", "", canonicalHeaders, resource].join("\n");
  const signature = createHmac("sha256", Buffer.from(AZURITE_KEY, "base64")).update(toSign, "utf8").digest("base64");
  const response = await fetch(`${endpoint}/${name}?restype=container`, { method: "PUT", headers: { ...headers, Authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}` } });
  if (response.status !== 201) throw new Error(`creating container ${name} on ${endpoint}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
}

/**
 * An account SAS for Azurite's account, signed with its key as Azure's REST
 * API defines it (version 2020-12-06 and later): blob service, every
 * resource type, read, write, delete, list, add and create, for a day.
 */
export function accountSas(now = new Date()): string {
  const fields = { sv: "2021-08-06", ss: "b", srt: "sco", sp: "rwdlac", st: new Date(now.getTime() - 60_000).toISOString().slice(0, 19) + "Z", se: new Date(now.getTime() + 86_400_000).toISOString().slice(0, 19) + "Z", spr: "https,http" };
  const toSign = [AZURITE_ACCOUNT, fields.sp, fields.ss, fields.srt, fields.st, fields.se, "", fields.spr, fields.sv, "", ""].join("\n");
  const sig = createHmac("sha256", Buffer.from(AZURITE_KEY, "base64")).update(toSign, "utf8").digest("base64");
  return new URLSearchParams({ ...fields, sig }).toString();
}

if (import.meta.main) {
  try {
    console.log(`azurite-blob: ${azuriteBlob()}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
