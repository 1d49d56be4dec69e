#!/usr/bin/env bash
# Makes sure the metrics tests can scrape what ZooScope exports with a real Prometheus and check alert rules with
# promtool: Debian's prometheus package (the tests start their own server on loopback; the packaged service is not
# used). Installs it when missing; prints nothing otherwise; exits non-zero with a reason when it cannot.
set -euo pipefail
command -v prometheus >/dev/null && command -v promtool >/dev/null && exit 0
echo "installing for the metrics tests: prometheus" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# The packaged service is not needed and would hold port 9090.
if command -v systemctl >/dev/null && systemctl is-active --quiet prometheus 2>/dev/null; then
  $SUDO systemctl stop prometheus || true
fi
command -v prometheus >/dev/null && command -v promtool >/dev/null
