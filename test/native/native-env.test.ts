import { describe, expect, test } from "bun:test";
import { dlopen, FFIType, ptr, CString } from "bun:ffi";
import { setNativeEnvDefault } from "../../src/native/native-env.ts";

/** What a native library sees: getenv(3), not Bun's process.env. */
function nativeGetenv(name: string): string | null {
  const libc = dlopen(process.platform === "linux" ? "libc.so.6" : "libc.dylib", { getenv: { args: [FFIType.cstring], returns: FFIType.ptr } });
  const value = libc.symbols.getenv(ptr(Buffer.from(`${name}\0`)));
  return value ? new CString(value).toString() : null;
}

describe("environment for native libraries", () => {
  test("a default reaches getenv(3), where process.env assignment does not", () => {
    process.env.MINIRAG_TEST_JS_ONLY = "set-in-js";
    expect(nativeGetenv("MINIRAG_TEST_JS_ONLY")).toBeNull();
    expect(setNativeEnvDefault("MINIRAG_TEST_NATIVE", "8")).toBe(true);
    expect(nativeGetenv("MINIRAG_TEST_NATIVE")).toBe("8");
  });

  test("a value already set (by the user) is kept", () => {
    expect(setNativeEnvDefault("MINIRAG_TEST_KEPT", "first")).toBe(true);
    expect(setNativeEnvDefault("MINIRAG_TEST_KEPT", "second")).toBe(false);
    expect(nativeGetenv("MINIRAG_TEST_KEPT")).toBe("first");
  });
});
