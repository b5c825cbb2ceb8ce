/**
 * The GitHub repository releases are published from. install.sh carries the
 * same name (a test checks they agree) and release.yml fails when the
 * workflow runs anywhere else, so a fork must change both.
 */
export const REPOSITORY = "minirag-mcp/minirag-mcp";
/** The Homebrew tap repository: brew install minirag-mcp/tap/minirag-mcp. */
export const TAP = "minirag-mcp/homebrew-tap";
