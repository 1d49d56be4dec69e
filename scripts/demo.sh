#!/usr/bin/env bash
# `npm run demo [-- --desktop] [--port N] [--zk-port N] [--no-lock-clients] [--dir DIR]`
# One command on a fresh machine: installs what is missing (npm dependencies, ZooKeeper, code-server), builds and
# packages ZooScope, compiles the demo scripts, then runs scripts/demo/main.ts: a local ZooKeeper with demo data
# and live lock queues, and VS Code (code-server in the browser, or desktop `code`) with ZooScope connected to it.
# Ctrl-C stops everything. ZOOSCOPE_DEMO_PREBUILT=1 skips npm ci, build and compile when their outputs exist.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p .tmp
LOG=$ROOT/.tmp/demo-setup.log
: >"$LOG"
t0=$SECONDS

say() { echo "demo: $*"; }
fail() { echo "demo: FAILED: $*" >&2; exit 1; }
# step <label> <command...>: runs a set-up command with its output in $LOG, shown only when it fails.
step() {
  local label=$1 t=$SECONDS; shift
  say "$label"
  echo "== $label: $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    echo "---- last lines of $LOG:" >&2
    tail -25 "$LOG" >&2
    fail "$label (full log: ${LOG#"$ROOT"/})"
  fi
  [ $((SECONDS - t)) -ge 2 ] && say "  ... $((SECONDS - t)) s"
  return 0
}

# `npm run demo` exports npm_config_user_agent (node/v20) and other npm_* settings; the npm inside ensure-host.sh
# reads them as its own config, and code-server's postinstall then refuses to install ("requires node v24").
without_npm_env() {
  local unset=() name
  for name in $(compgen -e); do [[ $name == npm_* ]] && unset+=(-u "$name"); done
  env "${unset[@]}" "$@"
}

desktop=0
for arg in "$@"; do
  case $arg in
    --desktop) desktop=1 ;;
    -h|--help) [ -f out/scripts/demo/main.js ] && exec node out/scripts/demo/main.js --help ;;
  esac
done

node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
  || fail "Node.js 18 or newer is needed (this is $(node --version))"
if [ "$desktop" = 1 ] && ! command -v code >/dev/null; then
  fail "--desktop needs VS Code's \`code\` command on PATH, and there is none here.
  Install VS Code and its shell command, or run \`npm run demo\` without --desktop (VS Code in the browser)."
fi

prebuilt=${ZOOSCOPE_DEMO_PREBUILT:-0}
if [ ! -d node_modules ] || { [ "$prebuilt" != 1 ] && [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  step "installing npm dependencies (npm ci)" npm ci --no-audit --no-fund
fi
# Both are silent and quick when everything is present; they install from apt / npm otherwise.
step "checking ZooKeeper (installs Debian's zookeeper if missing)" bash scripts/zk/ensure-zookeeper.sh
if [ "$desktop" = 0 ]; then
  if [ -x "${ZOOSCOPE_HOST_CACHE:-$HOME/.cache/zooscope-host}/cs/node_modules/.bin/code-server" ]; then
    step "checking code-server" without_npm_env bash scripts/host/ensure-host.sh
  else
    step "installing code-server, Node 24 and chromium (first run only, about 2 minutes)" without_npm_env bash scripts/host/ensure-host.sh
  fi
fi
if [ "$prebuilt" != 1 ] || [ ! -f .tmp/zooscope.vsix ]; then
  step "building and packaging ZooScope (.tmp/zooscope.vsix)" npm run --silent package
fi
if [ "$prebuilt" != 1 ] || [ ! -f out/scripts/demo/main.js ]; then
  step "compiling the demo scripts" npx tsc -p scripts/demo/tsconfig.demo.json
fi
say "set-up done in $((SECONDS - t0)) s"

exec node out/scripts/demo/main.js "$@"
