#!/usr/bin/env bash
# Makes sure the systems whose ZooKeeper state ZooScope decodes (src/zk/meaning) can run in the tests against a
# test server: Curator's service discovery (Java), ClickHouse (server and client) and Patroni (with kazoo and
# PostgreSQL). Installed from Debian when missing. Prints nothing on success unless it had to install.
set -euo pipefail
missing=()
[ -f /usr/share/java/curator-x-discovery.jar ] || missing+=(libcurator-discovery-java)
command -v clickhouse-server >/dev/null || missing+=(clickhouse-server)
command -v clickhouse-client >/dev/null || missing+=(clickhouse-client)
command -v patroni >/dev/null || missing+=(patroni)
/usr/bin/python3 -c 'import kazoo' 2>/dev/null || missing+=(python3-kazoo)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} = 0 ] && exit 0
echo "installing the systems decoded in the tests: ${missing[*]}" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
test -f /usr/share/java/curator-x-discovery.jar && command -v clickhouse-server >/dev/null && command -v patroni >/dev/null
