#!/usr/bin/env bash
# Makes sure a ZooKeeper server can be started: ZOOKEEPER_HOME, an existing install, or Debian's package. The
# secured-server tests (TLS needs the Netty server factory) also need the netty jars zookeeper.jar's manifest
# leaves out, slf4j-simple, and openssl to make their certificates: installed from Debian when missing.
# Prints nothing on success unless it had to install; exits non-zero with a reason otherwise.
set -euo pipefail
missing=()
if ! { [ -n "${ZOOKEEPER_HOME:-}" ] && ls "$ZOOKEEPER_HOME"/lib/zookeeper-*.jar >/dev/null 2>&1; }; then
  { [ -f /usr/share/java/zookeeper.jar ] && command -v java >/dev/null; } || missing+=(zookeeper)
fi
for jar in netty-codec netty-resolver netty-transport-native-unix-common; do
  [ -f "/usr/share/java/$jar.jar" ] || { missing+=(libnetty-java); break; }
done
[ -f /usr/share/java/slf4j-simple.jar ] || missing+=(libslf4j-java)
# Snapshots written with zookeeper.snapshot.compression.method=snappy need it on the server's class path.
[ -f /usr/share/java/snappy-java.jar ] || missing+=(libsnappy-java)
command -v openssl >/dev/null || missing+=(openssl)
[ ${#missing[@]} = 0 ] && exit 0
echo "installing for the ZooKeeper test servers: ${missing[*]}" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
{ [ -n "${ZOOKEEPER_HOME:-}" ] || test -f /usr/share/java/zookeeper.jar; } && test -f /usr/share/java/netty-codec.jar
