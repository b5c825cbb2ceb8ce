/**
 * The GitHub repository releases are published from (kept in src/version.ts,
 * since the binary downloads its llama.cpp add-on from the release). install.sh
 * carries the same name (a test checks they agree) and release.yml fails when
 * the workflow runs anywhere else, so a fork must change both.
 */
export { REPOSITORY } from "../../src/version.ts";
/** The Homebrew tap repository: brew install minirag-mcp/tap/minirag-mcp. */
export const TAP = "minirag-mcp/homebrew-tap";
