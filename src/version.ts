import pkg from "../package.json" with { type: "json" };

// Defined by scripts/build.ts (Bun.build `define`); absent when running from source.
declare const MINIRAG_BUILD_VERSION: string | undefined;
declare const MINIRAG_BUILD_TARGET: string | undefined;

/** The product version: stamped at build time, else package.json's. */
export const VERSION: string = typeof MINIRAG_BUILD_VERSION === "string" ? MINIRAG_BUILD_VERSION : pkg.version;

/** The release target this binary was built for (linux-x64, darwin-arm64, ...), or "source" under `bun src/main.ts`. */
export const BUILD_TARGET: string = typeof MINIRAG_BUILD_TARGET === "string" ? MINIRAG_BUILD_TARGET : "source";

/** The GitHub repository releases are published from (scripts/release/repository.ts; install.sh carries the same name). */
export const REPOSITORY = "minirag-mcp/minirag-mcp";

/** The folder of this version's release files: where the llama.cpp add-on is downloaded from unless MINIRAG_DOWNLOAD_URL says otherwise. */
export const RELEASE_FILES_URL = `https://github.com/${REPOSITORY}/releases/download/v${VERSION}`;
