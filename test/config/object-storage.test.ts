import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeObjectStorage, objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { AppError } from "../../src/errors.ts";
import { tempDir } from "../helpers.ts";

const SECRET = "wJalrXUtnFEMI-secret";

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

describe("S3 storage options from the AWS variables", () => {
  test("keys, session token, region and endpoint map to LanceDB's option names", () => {
    const storage = objectStorageFromEnv("s3://team/lib/index", {
      AWS_ACCESS_KEY_ID: "AKID",
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_SESSION_TOKEN: "tok",
      AWS_REGION: "eu-west-1",
      AWS_ENDPOINT_URL: "https://r2.example.com/",
    }, "DB_PATH");
    expect(storage).toMatchObject({ scheme: "s3", bucket: "team", prefix: "lib/index", uri: "s3://team/lib/index", endpoint: "https://r2.example.com", region: "eu-west-1" });
    expect(storage.options).toEqual({ aws_access_key_id: "AKID", aws_secret_access_key: SECRET, aws_session_token: "tok", aws_region: "eu-west-1", aws_endpoint: "https://r2.example.com" });
  });

  test("a plain-HTTP endpoint is refused without AWS_ALLOW_HTTP, and the refusal names it", () => {
    const error = refusal(() => objectStorageFromEnv("s3://b/i", { AWS_ENDPOINT_URL: "http://127.0.0.1:9000" }, "--db-path"));
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain("--db-path is on http://127.0.0.1:9000");
    expect(error.hint).toContain("AWS_ALLOW_HTTP=true");
  });

  test("AWS_ALLOW_HTTP=true lets it through as allow_http, with a signing region for stores that take any", () => {
    const storage = objectStorageFromEnv("s3://b", { AWS_ENDPOINT_URL: "http://127.0.0.1:9000", AWS_ALLOW_HTTP: "true" }, "DB_PATH");
    expect(storage.options).toEqual({ aws_endpoint: "http://127.0.0.1:9000", allow_http: "true", aws_region: "us-east-1" });
    expect(storage.prefix).toBe("");
  });

  test("an endpoint that is not an http(s) URL is refused by name", () => {
    expect(refusal(() => objectStorageFromEnv("s3://b/i", { AWS_ENDPOINT_URL: "minio:9000" }, "DB_PATH")).message).toContain('AWS_ENDPOINT_URL="minio:9000"');
  });

  test("an endpoint with credentials before its host is refused, and the refusal does not repeat them (found by a probe: status printed them)", () => {
    const error = refusal(() => objectStorageFromEnv("s3://b/i", { AWS_ENDPOINT_URL: "https://AKIAX:s3cr3t@minio.example.com:9000" }, "DB_PATH"));
    expect(error.message).toContain("AWS_ENDPOINT_URL holds credentials before its host (https://…@minio.example.com:9000)");
    expect(`${error.message}${error.hint}`).not.toContain("s3cr3t");
    expect(`${error.message}${error.hint}`).not.toContain("AKIAX");
  });

  test("without keys the credentials are LanceDB's default chain, and no option is invented", () => {
    const storage = objectStorageFromEnv("s3://b/i", {}, "DB_PATH");
    expect(storage.options).toEqual({});
    expect(storage.credentials).toContain("AWS_PROFILE");
  });
});

describe("Google and Azure", () => {
  test("GOOGLE_APPLICATION_CREDENTIALS: a service account's key is read as one, gcloud's application-default login file as application credentials (read as a service account it failed: missing field private_key)", () => {
    const dir = tempDir();
    const key = join(dir, "key.json");
    const login = join(dir, "application_default_credentials.json");
    writeFileSync(key, JSON.stringify({ type: "service_account", client_email: "ci@p.iam.gserviceaccount.com", private_key: "-----BEGIN PRIVATE KEY-----" }));
    writeFileSync(login, JSON.stringify({ type: "authorized_user", client_id: "x.apps.googleusercontent.com", client_secret: "s", refresh_token: "r" }));
    expect(objectStorageFromEnv("gs://b/i", { GOOGLE_APPLICATION_CREDENTIALS: key }, "DB_PATH").options).toEqual({ google_service_account: key });
    expect(objectStorageFromEnv("gs://b/i", { GOOGLE_APPLICATION_CREDENTIALS: login }, "DB_PATH").options).toEqual({ google_application_credentials: login });
    const missing = refusal(() => objectStorageFromEnv("gs://b/i", { GOOGLE_APPLICATION_CREDENTIALS: join(dir, "gone.json") }, "DB_PATH"));
    expect(missing.message).toContain(`GOOGLE_APPLICATION_CREDENTIALS=${join(dir, "gone.json")} cannot be read as a credentials file (ENOENT`);
    expect(missing.hint).toContain("gcloud auth application-default login");
  });

  test("STORAGE_EMULATOR_HOST names an emulator: plain HTTP only with GOOGLE_ALLOW_HTTP=true, no metadata-server token asked for without a key file, and status names it", () => {
    expect(refusal(() => objectStorageFromEnv("gs://b/i", { STORAGE_EMULATOR_HOST: "http://127.0.0.1:4443" }, "DB_PATH")).hint).toContain("Set GOOGLE_ALLOW_HTTP=true");
    const storage = objectStorageFromEnv("gs://b/i", { STORAGE_EMULATOR_HOST: "http://127.0.0.1:4443/", GOOGLE_ALLOW_HTTP: "true" }, "DB_PATH");
    expect(storage.options).toEqual({ google_base_url: "http://127.0.0.1:4443", google_storage_token: "emulator", allow_http: "true" });
    expect(describeObjectStorage(storage)).toEqual({ location: "gs://b/i", endpoint: "http://127.0.0.1:4443", credentials: "none (an emulator)" });
  });

  test("Azure takes the account with a key or a SAS token, and refuses by name without an account", () => {
    const env = { AZURE_STORAGE_ACCOUNT_NAME: "acct", AZURE_STORAGE_ACCOUNT_KEY: SECRET, AZURE_STORAGE_SAS_TOKEN: "sv=1" };
    expect(objectStorageFromEnv("az://c/i", env, "DB_PATH").options).toEqual({ azure_storage_account_name: "acct", azure_storage_account_key: SECRET, azure_storage_sas_key: "sv=1" });
    expect(refusal(() => objectStorageFromEnv("az://c/i", {}, "DB_PATH")).hint).toContain("AZURE_STORAGE_ACCOUNT_NAME");
  });

  test("AZURE_STORAGE_ENDPOINT (Azurite, Azure Stack) becomes the endpoint; a plain-HTTP one needs AZURE_ALLOW_HTTP=true", () => {
    const env = { AZURE_STORAGE_ACCOUNT_NAME: "devstoreaccount1", AZURE_STORAGE_ACCOUNT_KEY: SECRET, AZURE_STORAGE_ENDPOINT: "http://127.0.0.1:10000/devstoreaccount1/" };
    const error = refusal(() => objectStorageFromEnv("az://c/i", env, "DB_PATH"));
    expect(error.message).toContain("DB_PATH is on http://127.0.0.1:10000/devstoreaccount1, a plain-HTTP endpoint");
    expect(error.hint).toContain("AZURE_ALLOW_HTTP=true");
    const storage = objectStorageFromEnv("az://c/i", { ...env, AZURE_ALLOW_HTTP: "true" }, "DB_PATH");
    expect(storage.endpoint).toBe("http://127.0.0.1:10000/devstoreaccount1");
    expect(storage.options).toMatchObject({ azure_storage_endpoint: "http://127.0.0.1:10000/devstoreaccount1", allow_http: "true" });
    expect(describeObjectStorage(storage).endpoint).toBe("http://127.0.0.1:10000/devstoreaccount1");
    expect(refusal(() => objectStorageFromEnv("az://c/i", { ...env, AZURE_STORAGE_ENDPOINT: "blob.local" }, "DB_PATH")).message).toContain('AZURE_STORAGE_ENDPOINT="blob.local"');
  });
});

describe("what status shows", () => {
  test("location, endpoint and the names of the credential variables, never a secret", () => {
    const storage = objectStorageFromEnv("s3://team/i", { AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SECRET }, "DB_PATH");
    const shown = describeObjectStorage(storage);
    expect(shown).toEqual({ location: "s3://team/i", endpoint: "AWS S3", credentials: "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN" });
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    expect(JSON.stringify(shown)).not.toContain("AKID");
  });
});
