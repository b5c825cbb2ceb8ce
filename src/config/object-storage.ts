/**
 * The credentials and endpoint of an index on object storage, from the
 * variables users already have for these stores (AWS_*, GOOGLE_*, AZURE_*),
 * mapped to the storage options LanceDB's object-store layer takes. Read here
 * because config/ is the only place that reads the environment. A secret never
 * leaves `options`: status and messages use describeObjectStorage().
 */
import { readFileSync } from "node:fs";
import { AppError } from "../errors.ts";
import { parseObjectUri, type ObjectScheme, type ObjectUri } from "./db-location.ts";

export interface ObjectStorage extends ObjectUri {
  /** AWS_ENDPOINT_URL, STORAGE_EMULATOR_HOST or AZURE_STORAGE_ENDPOINT without a trailing slash; unset means the store's own (AWS S3, Google, Azure). */
  endpoint?: string;
  region?: string;
  /** LanceDB storage options, secrets included: only ever handed to LanceDB and the S3 signer. */
  options: Record<string, string>;
  /** The variables the credentials came from (names only), or how they are found otherwise. */
  credentials: string;
}

type Env = Record<string, string | undefined>;

const TRUE = new Set(["1", "true", "yes", "on"]);

function pick(env: Env, mapping: Record<string, string>): Record<string, string> {
  const options: Record<string, string> = {};
  for (const [variable, option] of Object.entries(mapping)) {
    const value = env[variable]?.trim();
    if (value) options[option] = value;
  }
  return options;
}

function givenNames(env: Env, names: string[], fallback: string): string {
  const given = names.filter((n) => env[n]?.trim());
  return given.length ? given.join(", ") : fallback;
}

/**
 * An endpoint variable (AWS_ENDPOINT_URL, STORAGE_EMULATOR_HOST,
 * AZURE_STORAGE_ENDPOINT), without a trailing slash. A plain-HTTP one needs its
 * store's opt-in: AWS_ALLOW_HTTP, GOOGLE_ALLOW_HTTP, the names the object-store
 * layer under LanceDB reads, and AZURE_ALLOW_HTTP beside AZURE_STORAGE_ENDPOINT.
 */
function endpointFrom(env: Env, variable: string, optIn: string, name: string, example: string): { url: string; plainHttp: boolean } | undefined {
  const url = env[variable]?.trim().replace(/\/+$/, "") || undefined;
  if (!url) return undefined;
  if (!/^https?:\/\/[^/]/i.test(url)) {
    throw new AppError("CONFIG", `Configuration error: ${variable}=${JSON.stringify(url)} is not an http(s) URL.`, `Set it to the store's address, e.g. ${example}.`);
  }
  // Credentials inside the URL would be printed wherever the endpoint is named (status, every store error): refused,
  // and named without them (found by a probe).
  const userInfo = /^(https?:\/\/)[^/@]*@/i.exec(url);
  if (userInfo) {
    throw new AppError(
      "CONFIG",
      `Configuration error: ${variable} holds credentials before its host (${userInfo[1]}…@${url.slice(userInfo[0].length)}); they would be shown wherever the endpoint is named.`,
      `Put the store's address alone in ${variable}, e.g. ${example}, and the credentials in their own variables (see docs/team-index.md).`,
    );
  }
  const plainHttp = /^http:/i.test(url);
  if (plainHttp && !TRUE.has((env[optIn] ?? "").trim().toLowerCase())) {
    throw new AppError(
      "CONFIG",
      `Configuration error: ${name} is on ${url}, a plain-HTTP endpoint, and credentials and documents would cross the network unencrypted.`,
      `Set ${optIn}=true to allow it (a local test server or emulator), or use the store's https:// address.`,
    );
  }
  return { url, plainHttp };
}

function s3Options(env: Env, name: string): Pick<ObjectStorage, "endpoint" | "region" | "options" | "credentials"> {
  const options = pick(env, {
    AWS_ACCESS_KEY_ID: "aws_access_key_id",
    AWS_SECRET_ACCESS_KEY: "aws_secret_access_key",
    AWS_SESSION_TOKEN: "aws_session_token",
    AWS_REGION: "aws_region",
  });
  const endpoint = endpointFrom(env, "AWS_ENDPOINT_URL", "AWS_ALLOW_HTTP", name, "https://minio.example.com:9000");
  if (endpoint) options.aws_endpoint = endpoint.url;
  if (endpoint?.plainHttp) options.allow_http = "true";
  // Lance needs a region to sign; MinIO and moto accept any, AWS itself finds the bucket's from its endpoint.
  const region = options.aws_region ?? (endpoint ? "us-east-1" : undefined);
  if (region) options.aws_region = region;
  const credentials = givenNames(env, ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"], "LanceDB's default chain (AWS_PROFILE, ~/.aws, instance role)");
  return { endpoint: endpoint?.url, region, options, credentials };
}

/**
 * Google Cloud Storage. GOOGLE_APPLICATION_CREDENTIALS names either a service
 * account's key file or what `gcloud auth application-default login` writes (an
 * `authorized_user` file); the object-store layer reads the two through
 * different options, and given the second as a service account it failed with
 * "missing field `private_key`". STORAGE_EMULATOR_HOST, the name Google's own
 * client libraries read, points at an emulator (plain HTTP only with
 * GOOGLE_ALLOW_HTTP=true); an emulator checks no credentials, so without a key
 * file a placeholder token is sent, as those libraries send none: otherwise the
 * client asks the machine's metadata server (169.254.169.254) for a token.
 */
function gsOptions(env: Env, name: string): Pick<ObjectStorage, "endpoint" | "options" | "credentials"> {
  const options: Record<string, string> = {};
  const keyFile = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  if (keyFile) options[isServiceAccountFile(keyFile) ? "google_service_account" : "google_application_credentials"] = keyFile;
  const endpoint = endpointFrom(env, "STORAGE_EMULATOR_HOST", "GOOGLE_ALLOW_HTTP", name, "http://127.0.0.1:4443");
  if (endpoint) {
    options.google_base_url = endpoint.url;
    if (!keyFile) options.google_storage_token = "emulator";
  }
  if (endpoint?.plainHttp) options.allow_http = "true";
  return { endpoint: endpoint?.url, options, credentials: givenNames(env, ["GOOGLE_APPLICATION_CREDENTIALS"], endpoint ? "none (an emulator)" : "Google's application default credentials") };
}

/** Whether a credentials file is a service account's key (else it is an `authorized_user` or other ADC file); unreadable is refused by name. */
function isServiceAccountFile(path: string): boolean {
  let kind: unknown;
  try {
    kind = (JSON.parse(readFileSync(path, "utf8")) as { type?: unknown }).type;
  } catch (error) {
    // The reason without the parser's words: they quote the file's first token, which may be a key (a reviewer's find).
    const code = (error as NodeJS.ErrnoException).code;
    throw new AppError(
      "CONFIG",
      `Configuration error: GOOGLE_APPLICATION_CREDENTIALS=${path} cannot be read as a credentials file (${code ?? "it is not JSON"}).`,
      "Point it at a service account's JSON key, or run `gcloud auth application-default login` and point it at the file that writes.",
    );
  }
  return kind === "service_account";
}

function azOptions(env: Env, name: string): Pick<ObjectStorage, "endpoint" | "options" | "credentials"> {
  const options = pick(env, {
    AZURE_STORAGE_ACCOUNT_NAME: "azure_storage_account_name",
    AZURE_STORAGE_ACCOUNT_KEY: "azure_storage_account_key",
    AZURE_STORAGE_SAS_TOKEN: "azure_storage_sas_key",
  });
  // Azurite, Azure Stack or a sovereign cloud: Azurite's URLs carry the account, http://127.0.0.1:10000/devstoreaccount1.
  const endpoint = endpointFrom(env, "AZURE_STORAGE_ENDPOINT", "AZURE_ALLOW_HTTP", name, "https://myaccount.blob.core.windows.net");
  if (endpoint) options.azure_storage_endpoint = endpoint.url;
  if (endpoint?.plainHttp) options.allow_http = "true";
  if (!options.azure_storage_account_name) {
    throw new AppError("CONFIG", `Configuration error: ${name} is on Azure, and AZURE_STORAGE_ACCOUNT_NAME is not set.`, "Set AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY (or AZURE_STORAGE_SAS_TOKEN).");
  }
  return { endpoint: endpoint?.url, options, credentials: givenNames(env, ["AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_SAS_TOKEN"], "") };
}

const BY_SCHEME: Record<ObjectScheme, (env: Env, name: string) => Pick<ObjectStorage, "endpoint" | "region" | "options" | "credentials">> = {
  s3: s3Options,
  gs: gsOptions,
  az: azOptions,
};

/** The storage of an object-storage DB_PATH, from the environment; `name` (DB_PATH or --db-path) is named in errors. */
export function objectStorageFromEnv(dbPath: string, env: Env, name: string): ObjectStorage {
  const uri = parseObjectUri(dbPath, name);
  return { ...uri, ...BY_SCHEME[uri.scheme](env, name) };
}

/** What status shows of the storage: where, through which endpoint, with credentials from which variables; never a secret. */
export function describeObjectStorage(storage: ObjectStorage): { location: string; endpoint: string; credentials: string; region?: string } {
  const endpoint = storage.endpoint ?? { s3: "AWS S3", gs: "Google Cloud Storage", az: "Azure Blob Storage" }[storage.scheme];
  return { location: storage.uri, endpoint, credentials: storage.credentials, ...(storage.region && { region: storage.region }) };
}
