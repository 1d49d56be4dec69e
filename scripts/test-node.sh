#!/usr/bin/env bash
# Node's test runner over test tiers: `npm run test:unit` (no server needed) and `npm run test:integration` (real
# ZooKeeper servers, Curator and kazoo). Prepares what the tiers need first: the compiled tests (out/), Chromium for
# the unit tier, and for integration ZooKeeper and the third-party clients (tests that run the CLI bundle it
# themselves with esbuild).
# Runs the tests of the sources in test/<tier>, so a stale out/ file of a deleted test does not run.
# Last line: `<tiers>: N passed, N failed`.
# Usage: scripts/test-node.sh [--no-build] [--tap FILE] <unit|integration>...
#   --no-build  use out/ as it is and skip the Chromium, ZooKeeper and client checks (scripts/test-all.sh does both before)
#   --tap FILE  keep the TAP report in FILE (default: a file in .tmp/ removed at the end)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
build=1 tap= tiers=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --tap) tap=$2; shift ;;
    unit|integration) tiers+=("$1") ;;
    *) echo "test-node: unknown argument '$1' (usage: scripts/test-node.sh [--no-build] [--tap FILE] unit|integration...)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#tiers[@]} -gt 0 ] || { echo "test-node: name a tier: unit, integration" >&2; exit 2; }
label=$(IFS=+; echo "${tiers[*]}")
mkdir -p .tmp
keep_tap=1
[ -n "$tap" ] || { tap=.tmp/node-tests-$label-$$.tap; keep_tap=0; }

if [ "$build" = 1 ]; then
  for tier in "${tiers[@]}"; do
    # The unit tier renders the lock-queue webview in Chromium (webviewDom.test).
    if [ "$tier" = unit ]; then bash scripts/host/ensure-host.sh --browser-only || exit 1; fi
    if [ "$tier" = integration ]; then
      bash scripts/zk/ensure-zookeeper.sh || exit 1
      bash scripts/zk/ensure-clients.sh || exit 1
      bash scripts/zk/ensure-kerberos.sh || exit 1
    fi
  done
  echo "== compile tests"
  node node_modules/typescript/bin/tsc -p tsconfig.test.json || exit 1
fi

files_of() { # files_of <tier>: the compiled tests of the sources in test/<tier>
  local src js
  while IFS= read -r src; do
    js=out/${src%.ts}.js
    [ -f "$js" ] || { echo "test-node: $js is missing (compile the tests: npx tsc -p tsconfig.test.json)" >&2; return 1; }
    echo "$js"
  done < <(find "test/$1" -name '*.test.ts' | sort)
}

# One node test runner per tier. Unit files run one at a time; integration files two at a time: they mostly wait
# on servers, sessions and timers (an expiry, a hung member), each starts its own servers on free ports and works in
# folders of its own, and the tier is the run's longest. A test that waits for something that never
# comes fails after 5 minutes (the longest passes in well under one) instead of hanging the run. (Not
# --test-force-exit: it cuts the end of the reports, their summaries among it. A file whose tests are over ends
# anyway: the servers it started do not hold it open, and die with it; endsWithTestProcess in test/support.)
run_tier() { # run_tier <tier> <tap file> <spec destination>
  local files
  mapfile -t files < <(files_of "$1")
  [ ${#files[@]} -gt 0 ] || { echo "test-node: no tests in test/$1" >&2; return 1; }
  local concurrency=1
  [ "$1" = integration ] && concurrency=2
  echo "== $1 tests (${#files[@]} files, $concurrency at a time)"
  node --test --test-concurrency="$concurrency" --test-timeout=300000 --test-reporter=spec --test-reporter-destination="$3" \
    --test-reporter=tap --test-reporter-destination="$2" "${files[@]}"
}

for tier in "${tiers[@]}"; do files_of "$tier" >/dev/null || exit 1; done
rm -f "$tap" "$tap".*
# The tiers run side by side: the unit tier mostly waits on timers (handshake and session deadlines), so it costs
# the integration tier little CPU and the run its minutes. The last tier streams its report; the others' reports
# are printed when they end.
pids=()
last=$(( ${#tiers[@]} - 1 ))
for i in "${!tiers[@]}"; do
  [ "$i" = "$last" ] && break
  run_tier "${tiers[$i]}" "$tap.${tiers[$i]}" ".tmp/node-${tiers[$i]}-$$.spec" > ".tmp/node-${tiers[$i]}-$$.out" 2>&1 &
  pids+=($!)
done
run_tier "${tiers[$last]}" "$tap.${tiers[$last]}" stdout
rc=$?
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || rc=1
  tier=${tiers[$i]}
  cat ".tmp/node-$tier-$$.out" ".tmp/node-$tier-$$.spec" 2>/dev/null
  rm -f ".tmp/node-$tier-$$.out" ".tmp/node-$tier-$$.spec"
done
# The totals: one summary per tier, summed; a cancelled, skipped or todo test counts as failed (none may vanish
# from the line CI reads), and a tier with no summary is no result at all.
tier_taps=()
for tier in "${tiers[@]}"; do tier_taps+=("$tap.$tier"); done
totals=$(node scripts/lib/tap-totals.mjs "$label" "${tier_taps[@]}")
totals_rc=$?
for tier in "${tiers[@]}"; do cat "$tap.$tier" 2>/dev/null; rm -f "$tap.$tier"; done > "$tap"
[ "$keep_tap" = 1 ] || rm -f "$tap"
if [ "$totals_rc" != 0 ]; then echo "$label: a test runner gave no result (exit $rc)" >&2; exit 1; fi
echo "$totals"
# Not every test passed (cancelled, skipped, todo): the run failed even when node's runner exited 0.
if [ "$rc" = 0 ] && ! grep -qE ' 0 failed$' <<<"$totals"; then rc=1; fi
exit $rc
