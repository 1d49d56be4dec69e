#!/usr/bin/env bash
# `npm run bench`: benchmarks of the tree against a real ZooKeeper (open a 20k/100k-wide node, live changes,
# natural sort, memory) plus package size and the activation time from UI-test logs. Installs nothing beyond
# `npm ci` and scripts/zk/ensure-zookeeper.sh. Prints a table (median, min–max, ratio to a baseline measured in
# the same run) and writes bench/results/bench-<time>.json and bench/results/latest.json.
# Environment: BENCH_RUNS (≥ 5, default 9), BENCH_CHANGES (≥ 20, default 20), BENCH_WIDE (default 20000,100000),
# BENCH_SKIP_PACKAGE=1 to report the existing .tmp/zooscope.vsix instead of running `npm run package`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
bash scripts/zk/ensure-zookeeper.sh
bash scripts/zk/ensure-clients.sh # Curator and kazoo, the lock hand-off baselines

echo "== compile"
# Type errors elsewhere in the repo do not stop the benchmarks (tsc still emits); errors in what they run do.
if ! errors=$(npx tsc -p tsconfig.test.json 2>&1); then
  if grep -E '^(bench|src)/' <<<"$errors"; then echo "bench: type errors in bench/ or src/" >&2; exit 1; fi
  echo "bench: type errors outside bench/ and src/ (ignored):" >&2
  grep -E '^[a-z].*error TS' <<<"$errors" | head -5 >&2 || true
fi

if [ "${BENCH_SKIP_PACKAGE:-}" != 1 ]; then
  echo "== package (npm run package)"
  npm run --silent package
fi

echo "== benchmarks"
node --expose-gc out/bench/run.js
