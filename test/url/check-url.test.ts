/** The guard on one hop: schemes, IP literals, names and their addresses (behaviour-spec §2.11, case 55). */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { checkHop, parseFetchUrl } from "../../src/url/check-url.ts";
import { failure } from "../helpers.ts";
import { fakeNetwork } from "./loopback.ts";

const PUBLIC = "93.184.216.34";

/** The AppError a synchronous call throws; the test fails if it returns. */
function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a failure");
}

function hop(raw: string, options: { allowPrivate?: boolean; names?: Record<string, string[]> } = {}) {
  const network = fakeNetwork({ names: options.names });
  const url = parseFetchUrl(raw);
  return { network, result: checkHop(url, { requested: url, allowPrivate: options.allowPrivate ?? false, network }) };
}

describe("hosts refused without ALLOW_PRIVATE_URLS", () => {
  test.each([
    ["http://127.0.0.1/", "loopback"],
    ["http://127.0.0.1:8080/admin", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://localhost:8080/admin", "loopback"],
    ["http://LOCALHOST./", "loopback"],
    ["http://api.localhost/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://017700000001/", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://10.0.0.1/", "private"],
    ["http://172.16.5.4/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://[fd12:3456::1]/", "private"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://224.0.0.251/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://240.0.0.1/", "reserved"],
    ["http://255.255.255.255/", "reserved"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:169.254.169.254]/", "link-local"],
    ["http://[::ffff:10.0.0.1]/", "private"],
    ["https://[64:ff9b::7f00:1]/", "loopback"],
  ])("%s is refused as %s, naming the host, the reason and ALLOW_PRIVATE_URLS", async (raw, kind) => {
    const error = await failure(hop(raw, { names: { "api.localhost": [PUBLIC] } }).result);
    expect(error.code).toBe("URL_REFUSED");
    expect(error.message).toContain(`Refusing to fetch from host ${new URL(raw).hostname.replace(/^\[|\]$/g, "")}`);
    expect(error.message).toContain(kind);
    expect(error.message).toContain("ALLOW_PRIVATE_URLS");
    expect(error.hint).toContain("ALLOW_PRIVATE_URLS=1");
  });

  test.each([
    ["intranet.example", ["10.1.2.3"], "private"],
    ["metadata.example", ["169.254.169.254"], "link-local"],
    ["cgnat.example", ["100.100.100.200"], "carrier-grade NAT"],
    ["mapped.example", ["::ffff:127.0.0.1"], "loopback"],
  ])("a name resolving to a blocked address (%s -> %s) is refused and names the address", async (name, addresses, kind) => {
    const error = await failure(hop(`http://${name}/`, { names: { [name]: addresses } }).result);
    expect(error.message).toContain(`host ${name}: it resolves to ${addresses[0]}`);
    expect(error.message).toContain(kind);
  });
});

describe("behaviour-spec case 55", () => {
  test("a name resolving to both a public address and 127.0.0.1 is refused as loopback", async () => {
    const error = await failure(hop("https://mixed.example/", { names: { "mixed.example": [PUBLIC, "127.0.0.1"] } }).result);
    expect(error.code).toBe("URL_REFUSED");
    expect(error.message).toContain("it resolves to 127.0.0.1, a loopback address");
  });

  test("an IP literal is judged without a DNS lookup", async () => {
    const { network, result } = hop(`http://${PUBLIC}/`);
    expect(await result).toBe(PUBLIC);
    await failure(hop("http://10.0.0.1/").result);
    expect(network.lookups).toEqual([]);
  });

  test("with ALLOW_PRIVATE_URLS the check makes no DNS lookup and lets private hosts through", async () => {
    const { network, result } = hop("http://intranet.example/", { allowPrivate: true, names: { "intranet.example": ["10.1.2.3"] } });
    expect(await result).toBeUndefined();
    expect(network.lookups).toEqual([]);
    expect(await hop("http://127.0.0.1:8080/", { allowPrivate: true }).result).toBe("127.0.0.1");
    expect(await hop("http://localhost/", { allowPrivate: true }).result).toBeUndefined();
  });

  test.each([["file:///etc/passwd"], ["data:text/plain,hello"], ["ftp://example.com/x"], ["javascript:alert(1)"], ["gopher://example.com/"]])(
    "%s is refused even with ALLOW_PRIVATE_URLS",
    (raw) => {
      for (const allowPrivate of [false, true]) {
        const error = thrown(() => hop(raw, { allowPrivate }));
        expect(error.code).toBe("URL_REFUSED");
        expect(error.message).toContain("only http and https URLs are fetched");
        expect(error.hint).toContain("even with ALLOW_PRIVATE_URLS");
      }
    },
  );
});

describe("what is not a refusal", () => {
  test("a public name passes and its checked address is the one returned for the socket", async () => {
    const { network, result } = hop("https://docs.example/page", { names: { "docs.example": [PUBLIC, "2606:4700:4700::1111"] } });
    expect(await result).toBe(PUBLIC);
    expect(network.lookups).toEqual(["docs.example"]);
  });

  test("a name that does not resolve is a fetch error, not a security refusal", async () => {
    const error = await failure(hop("https://no-such-host.example/").result);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toContain("host no-such-host.example did not resolve");
    expect(error.message).not.toContain("Refusing");
  });

  test.each([["not a url"], ["http://"], ["http://[::1/"], ["https://exa mple.com/"], ["//example.com/x"]])("%p is an argument error", (raw) => {
    expect(thrown(() => parseFetchUrl(raw)).code).toBe("INVALID_ARGUMENT");
  });
});
