#!/usr/bin/env bash
# `npm test`: installs what it needs, runs every test (checks, unit, integration against real ZooKeeper servers,
# in-host and Playwright UI tests in a real VS Code), stops what it started, and ends with `N passed, N failed`.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p .tmp
# Reports of an earlier run must not be repeated as this run's failures.
rm -f .tmp/node-tests.tap* .tmp/node.log .tmp/ui.log
passed=0
failed=0
started=$SECONDS

record() { # record <name> <exit code>
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok - $1"; else failed=$((failed + 1)); echo "not ok - $1"; fi
}

# CI keeps only the end of the output: on a failure, say again what failed and why (the node tier's TAP
# diagnostics, the in-host and e2e failure reports), each cut short.
repeat_failures() {
  echo "== failures again (details above)"
  # (per tier while they run, joined when both end)
  ls .tmp/node-tests.tap* >/dev/null 2>&1 && awk '
    /^ *not ok / { if (!shown[$0]++) { keep = 1; n = 0; print; next } }
    keep { if (++n <= 40) print; if ($0 ~ /^ *\.\.\.$/) keep = 0 }
  ' .tmp/node-tests.tap* | head -n 300
  # Skipped and todo tests count as failed too: name them.
  ls .tmp/node-tests.tap* >/dev/null 2>&1 && grep -ahE '^ *ok [0-9]+ .* # (SKIP|TODO)' .tmp/node-tests.tap* | head -n 50
  [ -f .tmp/ui.log ] && { grep -aE -A40 '^ +[0-9]+ failing$' .tmp/ui.log; grep -aE -A25 '^not ok - ' .tmp/ui.log; } | head -n 200
}

summary() {
  [ "$failed" = 0 ] || repeat_failures
  echo "== done in $((SECONDS - started)) s"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
ui_pid=
# A run that ends early (a failed install, Ctrl-C, CI's limit) stops the UI tier it started; that tier stops what it
# started in turn (its own traps).
stop_ui() { [ -n "$ui_pid" ] && kill -TERM "$ui_pid" 2>/dev/null && wait "$ui_pid" 2>/dev/null; ui_pid=; }
trap 'stop_ui; summary; exit $?' EXIT
trap 'exit 130' INT TERM HUP

echo "== install"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || { record "npm ci" 1; exit 1; }
fi
bash scripts/zk/ensure-zookeeper.sh || { record "ZooKeeper available" 1; exit 1; }
bash scripts/zk/ensure-clients.sh || { record "Curator and kazoo available" 1; exit 1; }
bash scripts/zk/ensure-kerberos.sh || { record "Kerberos KDC and module available" 1; exit 1; }
bash scripts/zk/ensure-ssh.sh || { record "OpenSSH server and client available" 1; exit 1; }
bash scripts/zk/ensure-systems.sh || { record "ClickHouse, Patroni and Curator discovery available" 1; exit 1; }
bash scripts/zk/ensure-prometheus.sh || { record "Prometheus and promtool available" 1; exit 1; }
# Before any tier: the unit tier already needs Chromium (webviewDom.test), not only the UI tier.
bash scripts/host/ensure-host.sh || { record "VS Code host tools available (code-server, Chromium)" 1; exit 1; }

echo "== checks"
# Two lanes side by side (the machine has two cores): lint, which takes longest, beside the type checks, the package
# (production bundle + .vsix, which the demo test and the UI tier install) and the compiled tests. Each check's
# output is kept and shown in order when both lanes are done.
rm -rf .tmp/checks out && mkdir -p .tmp/checks
check() { # check <name> <command...>: runs it, keeping its output and exit code
  local name=$1; shift
  "$@" >".tmp/checks/$name.log" 2>&1
  echo $? >".tmp/checks/$name.rc"
}
check lint npx eslint src test &
lint_pid=$!
check typecheck-host npx tsc -p src
check typecheck-webview npx tsc -p src/webview
check package npm run --silent package
check compile npx tsc -p tsconfig.test.json
wait "$lint_pid"
report_check() { # report_check <name> <what it checks>
  cat ".tmp/checks/$1.log"
  record "$2" "$(cat ".tmp/checks/$1.rc" 2>/dev/null || echo 1)"
}
report_check typecheck-host "typecheck host (src/tsconfig.json: Node, no DOM)"
report_check typecheck-webview "typecheck webview (src/webview/tsconfig.json: DOM, no Node)"
report_check lint "lint (eslint)"
report_check package "bundle and package (esbuild, vsce)"
report_check compile "compile tests"

echo "== unit, integration and UI tests, side by side"
# The tiers mostly wait (on servers, sessions, timers and the workbench), so running them together costs each little
# and the run its minutes. The UI tier (code-server + Chromium) uses what the checks built (ZOOSCOPE_UI_PREBUILT)
# and writes to .tmp/ui.log, shown when it ends; the node tiers stream. Each has a ceiling far above its usual time
# (about 8 and 6 minutes), so a hang is reported as a failure with the output so far, inside CI's limit.
ZOOSCOPE_UI_PREBUILT=1 timeout --kill-after=30 30m bash scripts/host/run-ui-tests.sh >.tmp/ui.log 2>&1 &
ui_pid=$!
timeout --kill-after=30 40m bash scripts/test-node.sh --no-build --tap .tmp/node-tests.tap unit integration 2>&1 | tee .tmp/node.log
node_rc=${PIPESTATUS[0]}
# test-node.sh sums the tiers' summaries into its last line (none when a tier gave no result).
line=$(grep -aE '^unit\+integration: [0-9]+ passed, [0-9]+ failed$' .tmp/node.log | tail -1)
[ "$node_rc" = 124 ] && record "node tests finished within 40 minutes" 1
if [ -z "$line" ]; then record "node tests produced a result" 1; else
  read -r p f < <(sed -E 's/^unit\+integration: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$line")
  passed=$((passed + p)); failed=$((failed + f))
  [ "$node_rc" != 0 ] && [ "$f" = 0 ] && record "node test runner exit code" "$node_rc"
fi

echo "== UI tests (code-server + Chromium)"
wait "$ui_pid"
ui_pid=
cat .tmp/ui.log
line=$(grep -aE '^ui: [0-9]+ passed, [0-9]+ failed$' .tmp/ui.log | tail -1)
if [ -z "$line" ]; then record "UI tests produced a result" 1; else
  read -r p f < <(sed -E 's/^ui: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$line")
  passed=$((passed + p)); failed=$((failed + f))
fi
