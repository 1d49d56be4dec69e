#!/usr/bin/env bash
# Makes sure the third-party ZooKeeper clients the interoperability tests drive are installed (Debian packages):
# kazoo 2.8.0 for /usr/bin/python3 (python3-kazoo, with python3-pure-sasl for its SASL) and Curator 5.4.0 (libcurator-recipes-java), plus javac to
# compile the Curator driver. Installs only what is missing; prints nothing when all is there.
set -euo pipefail
missing=()
/usr/bin/python3 -c 'import kazoo' >/dev/null 2>&1 || missing+=(python3-kazoo)
/usr/bin/python3 -c 'import puresasl' >/dev/null 2>&1 || missing+=(python3-pure-sasl)
[ -f /usr/share/java/curator-recipes.jar ] || missing+=(libcurator-recipes-java)
for jar in zookeeper-recipes-lock zookeeper-recipes-election; do
  [ -f "/usr/share/java/$jar.jar" ] || { missing+=(zookeeper); break; }
done
command -v javac >/dev/null || missing+=(default-jdk-headless)
[ ${#missing[@]} = 0 ] && exit 0
echo "installing ZooKeeper clients for the interoperability tests: ${missing[*]}" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/python3 -c 'import kazoo, puresasl'
test -f /usr/share/java/curator-recipes.jar
