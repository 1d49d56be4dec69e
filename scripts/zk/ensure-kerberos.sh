#!/usr/bin/env bash
# Prepares the live Kerberos test (test/integration/securedKerberos.test.ts): Debian's MIT Kerberos KDC and tools,
# and the optional native `kerberos` module built into .tmp/kerberos-module (not into node_modules: it stays out
# of package.json so the .vsix and the CLI remain platform-neutral). Idempotent; quiet when all is there.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
missing=()
[ -x /usr/sbin/krb5kdc ] || missing+=(krb5-kdc)
[ -x /usr/sbin/kadmin.local ] || missing+=(krb5-admin-server)
command -v kinit >/dev/null || missing+=(krb5-user)
[ -f /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing for the Kerberos test: ${missing[*]}" >&2
  [ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
module=$ROOT/.tmp/kerberos-module
[ -f "$module/node_modules/kerberos/build/Release/kerberos.node" ] && exit 0
echo "building the optional kerberos module into $module" >&2
mkdir -p "$module"
npm install --prefix "$module" --no-save --no-audit --no-fund --ignore-scripts kerberos@7 >/dev/null
# node-gyp from npm's own copy; Node's headers from the system (no download).
gyp=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js
nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
(cd "$module/node_modules/kerberos" && node "$gyp" rebuild --nodedir="$nodedir" >/dev/null 2>&1)
test -f "$module/node_modules/kerberos/build/Release/kerberos.node"
