/**
 * The index's own requests (object-api.ts) to Azure Blob Storage (and
 * Azurite): signed with the account key (Shared Key) or carrying the SAS
 * token, as LanceDB's own requests are. Conditional writes are Azure's
 * If-None-Match: * and If-Match: <etag> on Put Blob.
 */
import { createHmac } from "node:crypto";
import type { ObjectStorage } from "../config/object-storage.ts";
import { AppError } from "../errors.ts";
import { ageOf, DOWNLOAD_TIMEOUT_MS, xmlText, type ListedObject, type StoreObjects } from "./object-api.ts";
import { encodePath } from "./sigv4.ts";

/** The REST version the requests speak: one Azurite 3.37 and Azure both take. */
const API_VERSION = "2021-08-06";

/** The headers Shared Key signs in order, before the x-ms- headers and the resource. */
const SIGNED_STANDARD_HEADERS = ["content-encoding", "content-language", "content-length", "content-md5", "content-type", "date", "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"];

/** The Authorization header of a request signed with the account key (learn.microsoft.com: "Authorize with Shared Key"). */
export function signSharedKey(method: string, url: URL, headers: Record<string, string>, account: string, key: string): string {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  // A zero length is signed as empty (API versions since 2015-02-21).
  const standard = SIGNED_STANDARD_HEADERS.map((name) => (name === "content-length" && lower[name] === "0" ? "" : (lower[name] ?? "")));
  const msHeaders = Object.keys(lower).filter((k) => k.startsWith("x-ms-")).sort().map((k) => `${k}:${lower[k]}`);
  const params = [...new Set([...url.searchParams.keys()])].sort().map((name) => `\n${name.toLowerCase()}:${url.searchParams.getAll(name).sort().join(",")}`);
  const resource = `/${account}${url.pathname}${params.join("")}`;
  const toSign = [method, ...standard, ...msHeaders, resource].join("\n");
  const signature = createHmac("sha256", Buffer.from(key, "base64")).update(toSign, "utf8").digest("base64");
  return `SharedKey ${account}:${signature}`;
}

/** The blobs of an index on az:// storage, with its credentials (AZURE_STORAGE_ACCOUNT_NAME with a key or a SAS token). */
export function azureObjects(storage: ObjectStorage): StoreObjects {
  const o = storage.options;
  const account = o.azure_storage_account_name ?? "";
  const sas = o.azure_storage_sas_key?.replace(/^\?/, "");
  const base = `${storage.endpoint ?? `https://${account}.blob.core.windows.net`}/${storage.bucket}`;
  const at = `${storage.uri} on ${storage.endpoint ?? "Azure Blob Storage"}`;
  const urlOf = (key: string) => new URL(`${base}/${encodePath(storage.prefix ? `${storage.prefix}/${key}` : key)}`);
  const send = async (url: URL, method: "GET" | "PUT" | "DELETE", init: { body?: string | Uint8Array; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> => {
    const headers: Record<string, string> = { "x-ms-date": new Date().toUTCString(), "x-ms-version": API_VERSION, ...init.headers };
    if (init.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(init.body));
    if (sas) for (const [name, value] of new URLSearchParams(sas)) url.searchParams.set(name, value);
    else if (o.azure_storage_account_key) headers.Authorization = signSharedKey(method, url, headers, account, o.azure_storage_account_key);
    try {
      return await fetch(url, { method, body: init.body, headers, signal: init.signal });
    } catch (error) {
      throw new AppError("STORAGE", `The object store at ${storage.endpoint ?? "Azure Blob Storage"} cannot be reached (${(error as Error).message}).`, "Check AZURE_STORAGE_ENDPOINT and the network, or start the store; the index itself is untouched.");
    }
  };
  const refusal = (response: Response) => azureRefusal(storage, at, response);
  return {
    where: `${storage.uri} (${storage.endpoint ?? "Azure Blob Storage"})`,
    async get(key) {
      const response = await send(urlOf(key), "GET");
      if (response.status === 404 && errorCode(response) === "BlobNotFound") return null;
      if (!response.ok) throw await refusal(response);
      return { body: await response.text(), etag: response.headers.get("etag") ?? "", ...ageOf(response) };
    },
    async bytes(key) {
      const response = await send(urlOf(key), "GET");
      if (response.status === 404 && errorCode(response) === "BlobNotFound") return null;
      if (!response.ok) throw await refusal(response);
      return new Uint8Array(await response.arrayBuffer());
    },
    async put(key, body, condition) {
      const conditional: Record<string, string> = "ifNoneMatch" in condition ? { "If-None-Match": "*" } : { "If-Match": condition.ifMatch };
      const response = await send(urlOf(key), "PUT", { body, headers: { ...conditional, "Content-Type": typeof body === "string" ? "application/json" : "application/octet-stream", "x-ms-blob-type": "BlockBlob" } });
      // Azure answers a create over an existing blob with 409 BlobAlreadyExists, a stale If-Match with 412.
      if (response.status === 412 || response.status === 409) return { written: false };
      if (!response.ok) throw await refusal(response);
      return { written: true, etag: response.headers.get("etag") ?? "" };
    },
    async list(folder) {
      const inIndex = storage.prefix ? `${storage.prefix}/` : "";
      const listed: ListedObject[] = [];
      let marker: string | undefined;
      do {
        // List Blobs, a page (up to 5,000 names) at a time.
        const url = new URL(base);
        url.searchParams.set("restype", "container");
        url.searchParams.set("comp", "list");
        url.searchParams.set("prefix", `${inIndex}${folder}`);
        if (marker) url.searchParams.set("marker", marker);
        const response = await send(url, "GET");
        if (!response.ok) throw await refusal(response);
        const xml = await response.text();
        for (const entry of xml.matchAll(/<Blob>([\s\S]*?)<\/Blob>/g)) {
          const name = xmlText(/<Name>([^<]*)<\/Name>/.exec(entry[1]!)?.[1] ?? "");
          const etag = xmlText(/<Etag>([^<]*)<\/Etag>/.exec(entry[1]!)?.[1] ?? "");
          listed.push({ key: name.slice(inIndex.length), size: Number(/<Content-Length>(\d+)<\/Content-Length>/.exec(entry[1]!)?.[1] ?? 0), etag });
        }
        marker = xmlText(/<NextMarker>([^<]*)<\/NextMarker>/.exec(xml)?.[1] ?? "") || undefined;
      } while (marker);
      return listed;
    },
    async download(key, path) {
      const response = await send(urlOf(key), "GET", { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (response.status === 404 && errorCode(response) === "BlobNotFound") return false;
      if (!response.ok) throw await refusal(response);
      await Bun.write(path, response);
      return true;
    },
    async delete(key, ifMatch) {
      const response = await send(urlOf(key), "DELETE", ifMatch ? { headers: { "If-Match": ifMatch } } : {});
      if (response.ok || response.status === 412 || (response.status === 404 && errorCode(response) === "BlobNotFound")) return;
      throw await refusal(response);
    },
  };
}

/** Azure's error code, which it sends as a header as well as in the body. */
function errorCode(response: Response): string | null {
  return response.headers.get("x-ms-error-code");
}

/** One line for a refused request, naming what to fix. */
async function azureRefusal(storage: ObjectStorage, at: string, response: Response): Promise<AppError> {
  const text = await response.text().catch(() => "");
  const code = errorCode(response) ?? /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `HTTP ${response.status}`;
  if (code === "ContainerNotFound") {
    return new AppError("STORAGE", `The container ${storage.bucket} does not exist (${at}).`, "Create the container, or correct DB_PATH; a wrong AZURE_STORAGE_ENDPOINT also shows as this.");
  }
  if (response.status === 403 || response.status === 401) {
    return new AppError("STORAGE", `The store refused the credentials for ${at} (${code}).`, `Check AZURE_STORAGE_ACCOUNT_NAME with AZURE_STORAGE_ACCOUNT_KEY (or AZURE_STORAGE_SAS_TOKEN), and that they may read and write ${storage.bucket}.`);
  }
  return new AppError("STORAGE", `The store answered ${code} for ${at}.`, "Check the store's status and DB_PATH, then try again.");
}
