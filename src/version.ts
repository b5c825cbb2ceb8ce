import pkg from "../package.json" with { type: "json" };

// Defined by scripts/build.ts (Bun.build `define`); absent when running from source.
declare const MINIRAG_BUILD_VERSION: string | undefined;
declare const MINIRAG_BUILD_TARGET: string | undefined;

/** The product version: stamped at build time, else package.json's. */
export const VERSION: string = typeof MINIRAG_BUILD_VERSION === "string" ? MINIRAG_BUILD_VERSION : pkg.version;

/** The release target this binary was built for (linux-x64, darwin-arm64, ...), or "source" under `bun src/main.ts`. */
export const BUILD_TARGET: string = typeof MINIRAG_BUILD_TARGET === "string" ? MINIRAG_BUILD_TARGET : "source";
