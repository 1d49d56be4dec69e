#!/usr/bin/env bash
# `npm run bench`: what users feel, against one real, disk-backed ZooKeeper (see bench/README.md): opening a
# 20k/100k-wide node up to the tree items, memory with all 100k children seen (RSS), live changes, natural sort,
# search, lock analysis, locks taken in a loop against Curator and kazoo, server-counted notifications per release,
# the lock-queue webview end to end, package size and activation time. Installs nothing beyond `npm ci`,
# scripts/zk/ensure-zookeeper.sh and ensure-clients.sh. Prints ONE table (median, min–max, load average, baseline,
# paired ratio, goal met/MISSED) and writes bench/results/bench-<time>.json and bench/results/latest.json.
# Environment: BENCH_RUNS (≥ 5, default 9), BENCH_OPEN_RUNS (≥ 5, default 21), BENCH_CHANGES (≥ 20, default 20),
# BENCH_WIDE (default 20000,100000), BENCH_LOCK_RUNS (≥ 5, default 11), BENCH_SEARCH_RUNS (≥ 5, default 5),
# BENCH_ZK_DIR (the server's data folder, on disk; default the OS temp dir), BENCH_SKIP_PACKAGE=1 to report the existing .tmp/zooscope.vsix instead of packaging.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
bash scripts/zk/ensure-zookeeper.sh
bash scripts/zk/ensure-clients.sh # Curator and kazoo, the lock hand-off baselines
bash scripts/zk/ensure-ssh.sh # sshd for the SSH tunnel rows

echo "== compile"
# Type errors elsewhere in the repo do not stop the benchmarks (tsc still emits); errors in what they run do
# (bench/ and src/ outside src/vscode, which no benchmark imports).
if ! errors=$(npx tsc -p tsconfig.test.json 2>&1); then
  if grep -P '^(bench/|src/(?!vscode/))' <<<"$errors"; then echo "bench: type errors in bench/ or in src/ outside src/vscode" >&2; exit 1; fi
  echo "bench: type errors outside what the benchmarks run (ignored):" >&2
  grep -E '^[a-z].*error TS' <<<"$errors" | head -5 >&2 || true
fi

if [ "${BENCH_SKIP_PACKAGE:-}" != 1 ]; then
  echo "== package (npm run package)"
  npm run --silent package
fi

echo "== benchmarks"
node --expose-gc out/bench/run.js
