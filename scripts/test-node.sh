#!/usr/bin/env bash
# Node's test runner over test tiers: `npm run test:unit` (no server needed) and `npm run test:integration` (real
# ZooKeeper servers, Curator and kazoo). Prepares what the tiers need first: the compiled tests (out/), and for
# integration ZooKeeper and the third-party clients (tests that run the CLI bundle it themselves with esbuild).
# Runs the tests of the sources in test/<tier>, so a stale out/ file of a deleted test does not run.
# Last line: `<tiers>: N passed, N failed`.
# Usage: scripts/test-node.sh [--no-build] [--tap FILE] <unit|integration>...
#   --no-build  use out/ as it is and skip the ZooKeeper and client checks (scripts/test-all.sh does both before)
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
    if [ "$tier" = integration ]; then
      bash scripts/zk/ensure-zookeeper.sh || exit 1
      bash scripts/zk/ensure-clients.sh || exit 1
      bash scripts/zk/ensure-kerberos.sh || exit 1
    fi
  done
  echo "== compile tests"
  node node_modules/typescript/bin/tsc -p tsconfig.test.json || exit 1
fi

files=()
for tier in "${tiers[@]}"; do
  while IFS= read -r src; do
    js=out/${src%.ts}.js
    [ -f "$js" ] || { echo "test-node: $js is missing (compile the tests: npx tsc -p tsconfig.test.json)" >&2; exit 1; }
    files+=("$js")
  done < <(find "test/$tier" -name '*.test.ts' | sort)
done
[ ${#files[@]} -gt 0 ] || { echo "test-node: no tests in test/${tiers[*]}" >&2; exit 1; }

echo "== $label tests (${#files[@]} files)"
# A test that waits for something that never comes fails after 5 minutes (the longest passes in well under one)
# instead of hanging the run.
node --test --test-concurrency=1 --test-timeout=300000 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" "${files[@]}"
rc=$?
p=$(grep -aE '^# pass [0-9]+' "$tap" | awk '{print $3}')
f=$(grep -aE '^# fail [0-9]+' "$tap" | awk '{print $3}')
[ "$keep_tap" = 1 ] || rm -f "$tap"
if [ -z "$p" ]; then echo "$label: the test runner gave no result (exit $rc)" >&2; exit 1; fi
echo "$label: $p passed, $f failed"
exit $rc
