#!/usr/bin/env bash
# Installs what the extension-host and UI tests need to run a real VS Code offline: code-server
# (VS Code server + web workbench, from the npm registry) in its own prefix outside the project,
# and Debian's Chromium as the headless client. See docs/e2e-recipe.md for why each step
# exists. Idempotent: each step is skipped when its result is already there, so a warm run
# costs well under a second.
#   CODE_SERVER_VERSION  default 4.100.3 (VS Code 1.100.3, the last release that runs on Node 20;
#                        keep in step with test/e2e/lib.mjs and engines.vscode)
#   CODE_SERVER_PREFIX   default $HOME/.cache/e2e-code-server-$CODE_SERVER_VERSION
set -euo pipefail
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
CODE_SERVER_PREFIX="${CODE_SERVER_PREFIX:-$HOME/.cache/e2e-code-server-$CODE_SERVER_VERSION}"
BIN="$CODE_SERVER_PREFIX/node_modules/.bin/code-server"
NATIVE="$CODE_SERVER_PREFIX/node_modules/code-server/lib/vscode/node_modules"
# The server's native modules: a postinstall that silently skipped its builds leaves a
# code-server that starts but has no terminal, no logger or no search.
NATIVE_FILES=(node-pty/build/Release/pty.node @vscode/spdlog/build/Release/spdlog.node @vscode/ripgrep/bin/rg)

say() { echo "install-code-server: $*"; }

# The version comes from package.json: `code-server --version` would write a default
# ~/.config/code-server/config.yaml (with a generated password) as a side effect.
installed_version() {
  node -p "require('$CODE_SERVER_PREFIX/node_modules/code-server/package.json').version" 2>/dev/null || true
}

installed() {
  [ -x "$BIN" ] && [ "$(installed_version)" = "$CODE_SERVER_VERSION" ] || return 1
  local f
  for f in "${NATIVE_FILES[@]}"; do [ -e "$NATIVE/$f" ] || return 1; done
}

# Debian packages. Chromium is needed on every run; ripgrep (the rg binary @vscode/ripgrep would
# otherwise download from GitHub) and libkrb5-dev (gssapi headers for the 'kerberos' module,
# compiled from source) only while code-server is being installed.
need=()
command -v chromium >/dev/null || need+=(chromium)
if ! installed; then
  command -v rg >/dev/null || need+=(ripgrep)
  [ -e /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "missing Debian packages: ${need[*]}" >&2
    say "install them first (as root: apt-get update && apt-get install -y ${need[*]}), then re-run" >&2
    exit 1
  fi
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

if installed; then
  say "code-server $CODE_SERVER_VERSION already installed in $CODE_SERVER_PREFIX"
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub (unreachable here), but first looks in
# $TMPDIR/vscode-ripgrep-cache-<package version>/<asset>: seed that with Debian's rg. The versions
# are the ones code-server 4.100.3's shrinkwrap pins.
RG_PKG_VERSION="${RG_PKG_VERSION:-1.15.11}"
RG_ASSET_VERSION="${RG_ASSET_VERSION:-v13.0.0-10}"
rg_cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RG_PKG_VERSION"
rg_asset="$rg_cache/ripgrep-$RG_ASSET_VERSION-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$rg_asset" ]; then
  mkdir -p "$rg_cache"
  rg_tmp="$(mktemp -d)"
  cp "$(command -v rg)" "$rg_tmp/rg"
  tar czf "$rg_asset" -C "$rg_tmp" rg
  rm -rf "$rg_tmp"
fi

# A prefix of its own keeps code-server (300 MB, native builds, about 1.5 min) out of the
# project's package.json and npm ci. Its postinstall runs `npm install` in lib/vscode and builds
# node-pty, spdlog, kerberos, argon2… with node-gyp:
#  - npm_config_unsafe_perm: the postinstall refuses to run as root without it
#  - npm_config_yes: node-pty's postinstall runs `npx node-gyp`, cancelled when npmrc says yes=false
#  - npm_config_dangerously_allow_all_scripts: npm announces blocking dependency scripts by
#    default, which would leave code-server without its native modules
say "installing code-server $CODE_SERVER_VERSION into $CODE_SERVER_PREFIX (about 1.5 min)"
mkdir -p "$CODE_SERVER_PREFIX"
[ -f "$CODE_SERVER_PREFIX/package.json" ] || echo '{"private":true}' >"$CODE_SERVER_PREFIX/package.json"
npm_config_unsafe_perm=true npm_config_yes=true npm_config_dangerously_allow_all_scripts=true \
  npm install --prefix "$CODE_SERVER_PREFIX" --no-audit --no-fund --loglevel=error \
  "code-server@$CODE_SERVER_VERSION"

for f in "${NATIVE_FILES[@]}"; do
  [ -e "$NATIVE/$f" ] || { say "missing $NATIVE/$f after the install (see the npm output above)" >&2; exit 1; }
done
installed || { say "code-server $CODE_SERVER_VERSION not found in $CODE_SERVER_PREFIX after the install" >&2; exit 1; }
say "code-server $(installed_version) installed in $CODE_SERVER_PREFIX"
