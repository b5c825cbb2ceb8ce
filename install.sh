#!/bin/sh
# Installs minirag-mcp from a release archive, checking it against SHA256SUMS.
#
#   curl -fsSL https://raw.githubusercontent.com/minirag-mcp/minirag-mcp/main/install.sh | sh
#   sh install.sh --version 0.1.0
#   sh install.sh --archive minirag-mcp-0.1.0-linux-x64-offline.tar.gz   # no network at all
#   sh install.sh --uninstall
#
# POSIX sh (users pipe it to sh, which is dash on Debian and busybox on some
# systems). Unpacks to PREFIX/share/minirag-mcp/<version>/ and links
# PREFIX/bin/minirag-mcp; PREFIX is ~/.local unless --prefix says otherwise.
set -eu

REPO="minirag-mcp/minirag-mcp"
APP="minirag-mcp"

usage() {
  cat <<EOF
Usage: install.sh [options]

  --version X       install version X (default: the latest release)
  --archive FILE    install from a release archive already on disk; no network.
                    A SHA256SUMS beside it is checked when present.
  --prefix DIR      install under DIR (default: ~/.local): the program in
                    DIR/share/minirag-mcp/<version>/, the link in DIR/bin/
  --target NAME     use this build instead of the detected one
                    (linux-x64, linux-x64-baseline, linux-arm64, darwin-arm64)
  --modify-path     add DIR/bin to PATH in your shell's startup file
  --no-status       do not run 'minirag-mcp status' at the end
  --uninstall       remove the link and every installed version
  -h, --help        this text

Environment:
  MINIRAG_DOWNLOAD_URL  folder URL holding SHA256SUMS and the archives
                        (the .tar.xz is taken where this system can read xz:
                        xz, BusyBox's xzcat, a tar built on libarchive such as
                        macOS's, or python3; else the .tar.gz)
                        (default: https://github.com/$REPO/releases)
EOF
}

say() { printf '%s\n' "$*"; }
fail() {
  printf 'error: %s\n' "$1" >&2
  [ -n "${2:-}" ] && printf 'hint: %s\n' "$2" >&2
  exit 1
}

version=""
archive=""
prefix="${HOME:?HOME is not set}/.local"
target=""
modify_path=0
run_status=1
uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || fail "--version needs a value" "e.g. --version 0.1.0"; version="${2#v}"; shift 2 ;;
    --archive) [ $# -ge 2 ] || fail "--archive needs a file"; archive="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || fail "--prefix needs a folder"; prefix="$2"; shift 2 ;;
    --target) [ $# -ge 2 ] || fail "--target needs a name"; target="$2"; shift 2 ;;
    --modify-path) modify_path=1; shift ;;
    --no-status) run_status=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option: $1" "run sh install.sh --help" ;;
  esac
done

case "$prefix" in
  /*) ;;
  *) prefix="$(pwd)/$prefix" ;;
esac
share="$prefix/share/$APP"
bindir="$prefix/bin"
link="$bindir/$APP"

if [ "$uninstall" = 1 ]; then
  # Only a link into our own folder is ours to remove.
  if [ -L "$link" ]; then
    case "$(readlink "$link")" in
      "$share"/*) rm -f "$link"; say "removed $link" ;;
      *) say "left $link alone: it does not point into $share" ;;
    esac
  fi
  if [ -d "$share" ]; then rm -rf "$share"; say "removed $share"; fi
  say "Your indexes (.minirag/ in each documents folder) and the model cache (~/.cache/minirag-mcp) were kept; delete them by hand if you want."
  exit 0
fi

# --- which build fits this machine -----------------------------------------
detect_target() {
  os="$(uname -s)"
  arch="$(uname -m)"
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) fail "Windows is not handled by this script" "download minirag-mcp-<version>-windows-x64.zip from https://github.com/$REPO/releases and unpack it" ;;
    *) fail "no minirag-mcp build for $os" "builds exist for Linux (x64, arm64), macOS (Apple Silicon) and Windows (x64)" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no minirag-mcp build for $os on $arch" "builds exist for x64 and arm64" ;;
  esac
  if [ "$os" = darwin ] && [ "$arch" = x64 ]; then
    # A shell under Rosetta reports x86_64 on an Apple Silicon Mac: the native build is the right one.
    if [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
      arch=arm64
    else
      fail "Intel Macs are not supported" "LanceDB publishes no macOS x64 build after 0.22.3 and ONNX Runtime none at all; use an Apple Silicon Mac or Linux"
    fi
  fi
  if [ "$os" = linux ]; then
    if [ -e /lib/ld-musl-x86_64.so.1 ] || [ -e /lib/ld-musl-aarch64.so.1 ]; then
      if ! [ -e /lib64/ld-linux-x86-64.so.2 ] && ! [ -e /lib/ld-linux-aarch64.so.1 ]; then
        fail "musl systems (Alpine) are not supported" "ONNX Runtime ships glibc builds only; use a glibc distribution or a glibc container"
      fi
    fi
    if [ "$arch" = x64 ] && ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
      say "This CPU has no AVX2: choosing the baseline build." >&2
      printf '%s\n' linux-x64-baseline
      return
    fi
  fi
  printf '%s\n' "$os-$arch"
}

# --- tools -------------------------------------------------------------------
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    fail "no sha256sum, shasum or openssl to check the download with" "install coreutils (Linux) or use macOS's shasum"
  fi
}

fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || fail "download failed: $1" "check the network, the proxy, or MINIRAG_DOWNLOAD_URL"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "download failed: $1" "check the network, the proxy, or MINIRAG_DOWNLOAD_URL"
  else
    fail "neither curl nor wget is installed" "install one, or download the archive elsewhere and use --archive FILE"
  fi
}

# The sha256 listed for a file name in a SHA256SUMS file, or nothing.
listed_sum() {
  awk -v f="$2" '{ n = $2; sub(/^\*/, "", n); if (n == f) { print $1; exit } }' "$1"
}

verify() {
  expected="$(listed_sum "$2" "$3")"
  [ -n "$expected" ] || fail "$3 is not listed in SHA256SUMS" "the release has no build for this machine, or the version is wrong"
  actual="$(sha256_of "$1")"
  if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $3: expected $expected, got $actual; nothing was installed" "the download is damaged or was tampered with; retry, and if it repeats, report it"
  fi
  say "checksum ok: $3"
}

# --- main --------------------------------------------------------------------
TARGETS="linux-x64-baseline linux-x64 linux-arm64 darwin-arm64 windows-x64"

# Splits an archive name into version and target: minirag-mcp-<version>-<target>[-offline].tar.gz (or .tar.xz).
split_name() {
  base="${1%.tar.gz}"
  base="${base%.tar.xz}"
  base="${base%-offline}"
  for t in $TARGETS; do
    case "$base" in
      "$APP"-*-"$t")
        target="$t"
        version="${base#"$APP"-}"
        version="${version%-"$t"}"
        return 0
        ;;
    esac
  done
  fail "$1 is not a release archive name" "use minirag-mcp-<version>-<target>[-offline].tar.gz (or .tar.xz) as published"
}

# True when this version is installed from this archive (either compression), or from its offline variant (which holds more).
already_installed() {
  if [ ! -x "$share/$version/$APP" ] || [ "$(readlink "$link" 2>/dev/null || true)" != "$share/$version/$APP" ]; then return 1; fi
  from="$(cat "$share/$version/.installed-from" 2>/dev/null || true)"
  from="${from%.tar.gz}"
  from="${from%.tar.xz}"
  want="${1%.tar.gz}"
  want="${want%.tar.xz}"
  [ "$from" = "$want" ] || [ "$from" = "$want-offline" ]
}

tmp=""
# Found by find_xz_reader, never taken from the environment.
unset xz_reader
# How this system can read an .xz archive, kept in $xz_reader (empty: it cannot): the xz program; BusyBox's xzcat (Alpine
# has no xz); a tar built on libarchive with liblzma, which reads .xz itself (macOS's tar: macOS ships no xz); Python's
# lzma module. Asked once: python3 is slow to start.
find_xz_reader() {
  if command -v xz >/dev/null 2>&1; then
    xz_reader=xz
  elif command -v xzcat >/dev/null 2>&1; then
    xz_reader=xzcat
  elif tar --version 2>/dev/null | grep -q 'bsdtar.*liblzma'; then
    xz_reader=bsdtar
  elif command -v python3 >/dev/null 2>&1 && python3 -c 'import lzma' >/dev/null 2>&1; then
    xz_reader=python3
  else
    xz_reader=""
  fi
}

# Writes the .xz file $1 decompressed to standard output with $xz_reader (not bsdtar, which unpacks it itself).
xz_to_stdout() {
  case "$xz_reader" in
    xz) xz -dc "$1" ;;
    xzcat) xzcat "$1" ;;
    python3) python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1 << 20)' "$1" ;;
  esac
}

# Unpacks the .tar.xz $1 into the folder $2.
unpack_xz() {
  [ -n "${xz_reader+set}" ] || find_xz_reader
  case "$xz_reader" in
    "") fail "$1 needs xz to unpack" "install xz (xz-utils), or use the .tar.gz archive of the same release" ;;
    bsdtar) tar -xf "$1" -C "$2" ;;
    *)
      # A pipeline's status is tar's alone: the reader's own failure (a damaged end of the stream, after every file
      # came out whole) is noted in a file beside the folder.
      # GNU tar stops at the archive's end marker; the rest (its zero padding) is read here, so the reader is never
      # cut off by a closed pipe, which would read as its failure.
      rm -f "$2.unread"
      { xz_to_stdout "$1" || : >"$2.unread"; } | { tar -xf - -C "$2" && cat >/dev/null; } && [ ! -e "$2.unread" ]
      ;;
  esac
}

cleanup() { if [ -n "$tmp" ]; then rm -rf "$tmp"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM
# Scratch space inside the install folder, so the final rename stays on one file system.
make_tmp() {
  if [ -z "$tmp" ]; then
    mkdir -p "$share" "$bindir"
    tmp="$(mktemp -d "$share/.install.XXXXXX")"
  fi
}

installed=0
if [ -n "$archive" ]; then
  [ -f "$archive" ] || fail "no such archive: $archive"
  file="$(basename "$archive")"
  split_name "$file"
  machine="$(detect_target)"
  if [ "${machine%-baseline}" != "${target%-baseline}" ]; then
    fail "$file is the $target build; this machine needs $machine" "use the $machine archive from the release page"
  fi
  if already_installed "$file"; then
    installed=1
  else
    sums="$(dirname "$archive")/SHA256SUMS"
    if [ -f "$sums" ]; then
      verify "$archive" "$sums" "$file"
    else
      say "warning: no SHA256SUMS beside $file, so it was not checked" >&2
    fi
  fi
else
  [ -n "$target" ] || target="$(detect_target)"
  if [ -n "${MINIRAG_DOWNLOAD_URL:-}" ]; then
    url="${MINIRAG_DOWNLOAD_URL%/}"
  elif [ -n "$version" ]; then
    url="https://github.com/$REPO/releases/download/v$version"
  else
    url="https://github.com/$REPO/releases/latest/download"
  fi
  if [ -n "$version" ] && already_installed "$APP-$version-$target.tar.gz"; then
    installed=1
  else
    make_tmp
    fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS"
    if [ -z "$version" ]; then
      # The latest release's SHA256SUMS names its version in the archive names.
      file="$(awk -v t="-$target.tar.gz" '{ n = $2; sub(/^\*/, "", n); if (index(n, "minirag-mcp-") == 1 && substr(n, length(n) - length(t) + 1) == t) { print n; exit } }' "$tmp/SHA256SUMS")"
      [ -n "$file" ] || fail "the release at $url has no $target build" "see https://github.com/$REPO/releases"
      split_name "$file"
    fi
    file="$APP-$version-$target.tar.gz"
    find_xz_reader
    if [ -n "$xz_reader" ] && [ -n "$(listed_sum "$tmp/SHA256SUMS" "${file%.gz}.xz")" ]; then
      # The same folder in about two thirds of the bytes; the .tar.gz is there for systems that cannot read xz.
      file="${file%.gz}.xz"
    fi
    if already_installed "$file"; then
      installed=1
    else
      say "downloading $url/$file"
      fetch "$url/$file" "$tmp/$file"
      verify "$tmp/$file" "$tmp/SHA256SUMS" "$file"
      archive="$tmp/$file"
    fi
  fi
fi

dest="$share/$version"
if [ "$installed" = 1 ]; then
  say "$APP $version ($target) is already installed in $dest"
else
  make_tmp
  mkdir -p "$tmp/unpack"
  case "$archive" in
    *.tar.xz)
      unpack_xz "$archive" "$tmp/unpack" || fail "could not unpack $archive" "the file is damaged; download it again"
      ;;
    *) tar -xzf "$archive" -C "$tmp/unpack" || fail "could not unpack $archive" "the file is damaged; download it again" ;;
  esac
  unpacked="$tmp/unpack/$APP-$version-$target"
  [ -x "$unpacked/$APP" ] || fail "$archive does not hold $APP-$version-$target/$APP" "use an archive from the release page, unrenamed"
  printf '%s\n' "$file" >"$unpacked/.installed-from"
  # A rename within one file system: a half-copied version is never in place.
  rm -rf "$dest"
  mv "$unpacked" "$dest"
  ln -sfn "$dest/$APP" "$link"
  for old in "$share"/*; do
    if [ ! -d "$old" ] || [ "$old" = "$dest" ]; then continue; fi
    rm -rf "$old"
    say "removed the previous version $(basename "$old")"
  done
  say "installed $APP $version ($target) in $dest"
  say "linked $link"
fi

case ":${PATH:-}:" in
  *":$bindir:"*) ;;
  *)
    line="export PATH=\"$bindir:\$PATH\""
    if [ "$modify_path" = 1 ]; then
      case "${SHELL:-}" in
        */zsh) rc="$HOME/.zshrc" ;;
        */bash) rc="$HOME/.bashrc" ;;
        *) rc="$HOME/.profile" ;;
      esac
      if ! grep -qsF "$line" "$rc"; then
        printf '\n# added by the minirag-mcp installer\n%s\n' "$line" >>"$rc"
        say "added $bindir to PATH in $rc (open a new shell to use it)"
      else
        say "$rc already adds $bindir to PATH (open a new shell to use it)"
      fi
    else
      say "$bindir is not on your PATH. Add it with:"
      say "  $line"
      say "(or re-run with --modify-path to have it added to your shell's startup file)"
    fi
    ;;
esac

say ""
say "For an MCP client config (desktop apps do not see your PATH), the command is:"
say "  $link"
if [ "$run_status" = 1 ]; then
  say ""
  say "$ $APP status"
  "$link" status || fail "$APP status failed" "the install may be incomplete; re-run this script"
fi
