#!/usr/bin/env bun
/**
 * A real S3 server for scripts/accept/team-index.test.ts: moto_server from
 * PyPI's moto[server], the one on PATH when it is there, else pinned and
 * installed into .ci/moto/venv on first use. .ci/run installs it before the
 * acceptance run (`bun scripts/accept/moto-server.ts`), so a machine without
 * python3, venv, pip or PyPI fails there, by name. startMoto() runs one on a
 * free port and waits until it answers.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { REPO_ROOT } from "../../test/helpers.ts";
import { runChecked } from "./checked-run.ts";
import { waitUntilUp } from "./server-up.ts";

export const MOTO_VERSION = "5.2.1";
const VENV = join(REPO_ROOT, ".ci", "moto", "venv");

/** The moto_server command: on PATH, or installed (moto[server]==MOTO_VERSION) into the venv. */
export function motoServer(): string {
  const onPath = Bun.which("moto_server");
  if (onPath) return onPath;
  const bin = join(VENV, "bin", "moto_server");
  if (existsSync(bin)) return bin;
  const why = `Installing moto[server]==${MOTO_VERSION} from PyPI into ${VENV} failed; the team-index acceptance tests need a real S3 server, python3 with venv and pip, and PyPI`;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(join(VENV, ".."), { recursive: true });
  runChecked(["python3", "-m", "venv", VENV], why);
  runChecked([join(VENV, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", `moto[server]==${MOTO_VERSION}`], why);
  if (!existsSync(bin)) throw new Error(`${why}: after the install there is no ${bin}.`);
  return bin;
}

/** A port nothing listens on now, for a test server. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Moto {
  endpoint: string;
  process: Bun.Subprocess;
  stop(): Promise<void>;
}

/** Starts moto_server on a free port (env: e.g. INITIAL_NO_AUTH_ACTION_COUNT to check credentials) and waits until it answers. */
export async function startMoto(env: Record<string, string> = {}): Promise<Moto> {
  const port = await freePort();
  const child = Bun.spawn([motoServer(), "-H", "127.0.0.1", "-p", String(port)], { env: { ...process.env, ...env }, stdout: "ignore", stderr: "ignore" });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, `moto_server on port ${port}`, async () => (await fetch(`${endpoint}/moto-api/`)).ok);
  return {
    endpoint,
    process: child,
    async stop() {
      child.kill(9);
      await child.exited;
    },
  };
}

/** A Python that has boto3 (moto's dependency): the venv's when moto was installed there, else python3 on PATH. */
export function motoPython(): string {
  for (const python of [join(VENV, "bin", "python"), "python3"]) {
    if (python.includes("/") && !existsSync(python)) continue;
    if (Bun.spawnSync([python, "-c", "import boto3"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0) return python;
  }
  throw new Error("No Python with boto3 found (moto[server] installs it): install moto[server] on PATH or run bun scripts/accept/moto-server.ts");
}

/**
 * On a moto that checks credentials: a user allowed everything and its access
 * key, made through moto's IAM API with boto3 (these calls count among the
 * INITIAL_NO_AUTH_ACTION_COUNT unchecked actions: four, with the bucket's).
 */
export function createAccessKey(endpoint: string, bucket: string): { accessKeyId: string; secretAccessKey: string } {
  const script = `
import boto3, json
kw = dict(endpoint_url=${JSON.stringify(endpoint)}, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
boto3.client("s3", **kw).create_bucket(Bucket=${JSON.stringify(bucket)})
iam = boto3.client("iam", **kw)
iam.create_user(UserName="team")
iam.put_user_policy(UserName="team", PolicyName="all", PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
key = iam.create_access_key(UserName="team")["AccessKey"]
print(json.dumps({"accessKeyId": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"]}))
`;
  const result = Bun.spawnSync([motoPython(), "-c", script], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`creating an access key on ${endpoint} failed: ${result.stderr.toString().trim().split("\n").slice(-3).join(" ")}`);
  return JSON.parse(result.stdout.toString());
}

/** Creates a bucket (moto needs no signature for it). */
export async function createBucket(endpoint: string, bucket: string): Promise<void> {
  const response = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
  if (!response.ok) throw new Error(`creating bucket ${bucket} on ${endpoint}: HTTP ${response.status}`);
}

if (import.meta.main) {
  try {
    console.log(`moto_server: ${motoServer()}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
