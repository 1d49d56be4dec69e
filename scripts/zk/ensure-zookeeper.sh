#!/usr/bin/env bash
# Makes sure a ZooKeeper server can be started: ZOOKEEPER_HOME, an existing install, or Debian's package.
# Prints nothing on success unless it had to install; exits non-zero with a reason otherwise.
set -euo pipefail
if [ -n "${ZOOKEEPER_HOME:-}" ] && ls "$ZOOKEEPER_HOME"/lib/zookeeper-*.jar >/dev/null 2>&1; then exit 0; fi
if [ -f /usr/share/java/zookeeper.jar ] && command -v java >/dev/null; then exit 0; fi
echo "ZooKeeper not found: installing Debian's zookeeper package" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends zookeeper >/dev/null
test -f /usr/share/java/zookeeper.jar
