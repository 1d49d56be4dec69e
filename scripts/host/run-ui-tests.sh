#!/usr/bin/env bash
# UI tests in a real VS Code (code-server): in-host mocha tests (test/host) then Playwright e2e tests (test/e2e),
# against a fresh standalone ZooKeeper ($ZOOSCOPE_TEST_ZK). Installs missing tools, builds and packages first.
# Stops everything it started, also on failure and Ctrl-C. Last line: `ui: N passed, N failed`.
set -uo pipefail -m   # -m: each step runs in its own process group, so cleanup can stop the whole step
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# One folder per run (logs, ZooKeeper, the in-host user data): runs side by side must not share files.
# Folders of runs that are over are removed.
for old in "$ROOT"/.tmp/ui/run-*; do
  [ -d "$old" ] && ! kill -0 "${old##*/run-}" 2>/dev/null && rm -rf "$old"
done
WORK=$ROOT/.tmp/ui/run-$$
cd "$ROOT"
mkdir -p "$WORK"
export ZOOSCOPE_RUN_DIR=$WORK
echo "ui: logs in ${WORK#"$ROOT"/}"

passed=0
failed=0
zk_pid=
step_pid=

cleanup() {
  [ -n "$step_pid" ] && kill -TERM -- "-$step_pid" 2>/dev/null
  [ -n "$zk_pid" ] && kill -TERM -- "-$zk_pid" 2>/dev/null && wait "$zk_pid" 2>/dev/null
  zk_pid= step_pid=
}
finish() {
  trap - EXIT INT TERM HUP
  cleanup
  echo "ui: $passed passed, $failed failed"
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
  exit $?
}
trap finish EXIT
trap 'echo "ui: interrupted" >&2; failed=$((failed + 1)); finish' INT TERM HUP

# Runs "$@" in the background (own process group) with its output shown and kept in $WORK/<name>.log.
run_step() {
  local name=$1; shift
  ( "$@" 2>&1 | tee "$WORK/$name.log" ) &
  step_pid=$!
  wait "$step_pid"
  local rc=$?
  step_pid=
  return $rc
}

# Adds the counts from a runner's `<label>: N passed, N failed` line (a missing line counts as one failure).
count() {
  local line
  line=$(grep -aE "^$1: [0-9]+ passed, [0-9]+ failed$" "$WORK/$1.log" | tail -1)
  if [ -z "$line" ]; then
    echo "ui: no result line from the $1 tests" >&2
    failed=$((failed + 1))
    return
  fi
  read -r p f < <(sed -E 's/^[a-z0-9]+: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$line")
  passed=$((passed + p))
  failed=$((failed + f))
}

t0=$SECONDS
# ZOOSCOPE_UI_PREBUILT=1 (scripts/test-all.sh): the host tools, the package and the compiled tests are there already.
if [ "${ZOOSCOPE_UI_PREBUILT:-}" != 1 ]; then
  bash scripts/host/ensure-host.sh || { failed=$((failed + 1)); exit; }
  echo "== build + package"
  run_step package npm run --silent package || { failed=$((failed + 1)); exit; }
  echo "== compile tests"
  if ! run_step compile node node_modules/typescript/bin/tsc -p tsconfig.test.json; then
    echo "ui: type errors (tests still run from the emitted JavaScript)" >&2
    failed=$((failed + 1))
  fi
fi

echo "== start ZooKeeper"
rm -f "$WORK/zk.txt"
node out/test/support/servers/zkMain.js "$WORK/zk.txt" >"$WORK/zk.log" 2>&1 &
zk_pid=$!
for _ in $(seq 1 600); do
  [ -s "$WORK/zk.txt" ] && break
  kill -0 "$zk_pid" 2>/dev/null || break
  sleep 0.1
done
if [ ! -s "$WORK/zk.txt" ]; then
  echo "ui: ZooKeeper did not start:" >&2; tail -20 "$WORK/zk.log" >&2
  failed=$((failed + 1)); exit
fi
ZOOSCOPE_TEST_ZK=$(cat "$WORK/zk.txt")
export ZOOSCOPE_TEST_ZK
echo "ZooKeeper at $ZOOSCOPE_TEST_ZK ($((SECONDS - t0)) s)"

echo "== in-host tests"
t1=$SECONDS
VSCODE_EXECUTABLE_PATH=$ROOT/test/host/codeShim.js run_step host node out/test/host/runTest.js
count host
echo "(in-host: $((SECONDS - t1)) s)"

echo "== e2e tests"
t1=$SECONDS
run_step e2e node out/test/e2e/run.js
count e2e
echo "(e2e: $((SECONDS - t1)) s, total $((SECONDS - t0)) s)"
