/**
 * The credentials and endpoint of an index on object storage, from the
 * variables users already have for these stores (AWS_*, GOOGLE_*, AZURE_*),
 * mapped to the storage options LanceDB's object-store layer takes. Read here
 * because config/ is the only place that reads the environment. A secret never
 * leaves `options`: status and messages use describeObjectStorage().
 */
import { AppError } from "../errors.ts";
import { parseObjectUri, type ObjectScheme, type ObjectUri } from "./db-location.ts";

export interface ObjectStorage extends ObjectUri {
  /** AWS_ENDPOINT_URL without a trailing slash; unset means the store's own (AWS S3, Google, Azure). */
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

function s3Options(env: Env, name: string): Pick<ObjectStorage, "endpoint" | "region" | "options" | "credentials"> {
  const options = pick(env, {
    AWS_ACCESS_KEY_ID: "aws_access_key_id",
    AWS_SECRET_ACCESS_KEY: "aws_secret_access_key",
    AWS_SESSION_TOKEN: "aws_session_token",
    AWS_REGION: "aws_region",
  });
  const endpoint = env.AWS_ENDPOINT_URL?.trim().replace(/\/+$/, "") || undefined;
  const allowHttp = TRUE.has((env.AWS_ALLOW_HTTP ?? "").trim().toLowerCase());
  if (endpoint) {
    if (!/^https?:\/\/[^/]/i.test(endpoint)) {
      throw new AppError("CONFIG", `Configuration error: AWS_ENDPOINT_URL=${JSON.stringify(endpoint)} is not an http(s) URL.`, "Set it to the store's address, e.g. https://minio.example.com:9000.");
    }
    if (/^http:/i.test(endpoint) && !allowHttp) {
      throw new AppError(
        "CONFIG",
        `Configuration error: ${name} is on ${endpoint}, a plain-HTTP endpoint, and credentials and documents would cross the network unencrypted.`,
        "Set AWS_ALLOW_HTTP=true to allow it (a local MinIO or test server), or use the store's https:// address.",
      );
    }
    options.aws_endpoint = endpoint;
  }
  if (allowHttp) options.allow_http = "true";
  // Lance needs a region to sign; MinIO and moto accept any, AWS itself finds the bucket's from its endpoint.
  const region = options.aws_region ?? (endpoint ? "us-east-1" : undefined);
  if (region) options.aws_region = region;
  const credentials = givenNames(env, ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"], "LanceDB's default chain (AWS_PROFILE, ~/.aws, instance role)");
  return { endpoint, region, options, credentials };
}

function gsOptions(env: Env): Pick<ObjectStorage, "options" | "credentials"> {
  return {
    options: pick(env, { GOOGLE_APPLICATION_CREDENTIALS: "google_service_account" }),
    credentials: givenNames(env, ["GOOGLE_APPLICATION_CREDENTIALS"], "Google's application default credentials"),
  };
}

function azOptions(env: Env, name: string): Pick<ObjectStorage, "options" | "credentials"> {
  const options = pick(env, {
    AZURE_STORAGE_ACCOUNT_NAME: "azure_storage_account_name",
    AZURE_STORAGE_ACCOUNT_KEY: "azure_storage_account_key",
    AZURE_STORAGE_SAS_TOKEN: "azure_storage_sas_key",
  });
  if (!options.azure_storage_account_name) {
    throw new AppError("CONFIG", `Configuration error: ${name} is on Azure, and AZURE_STORAGE_ACCOUNT_NAME is not set.`, "Set AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY (or AZURE_STORAGE_SAS_TOKEN).");
  }
  return { options, credentials: givenNames(env, ["AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_SAS_TOKEN"], "") };
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
