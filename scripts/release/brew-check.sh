#!/bin/sh
# Installs a rendered formula the way users do (brew install minirag-mcp/tap/minirag-mcp),
# from a local tap of that name, then runs its test block. macOS or Linux with Homebrew.
#   sh scripts/release/brew-check.sh dist/release/minirag-mcp.rb
set -eu
formula="${1:?usage: brew-check.sh path/to/minirag-mcp.rb}"
if ! brew tap | grep -qx minirag-mcp/tap; then
  brew tap-new --no-git minirag-mcp/tap
fi
cp "$formula" "$(brew --repository minirag-mcp/tap)/Formula/minirag-mcp.rb"
brew install minirag-mcp/tap/minirag-mcp
brew test minirag-mcp/tap/minirag-mcp
minirag-mcp --version
