#!/usr/bin/env bash
# Makes sure the SSH tunnel tests can run a bastion: Debian's openssh-server (sshd, run by the tests as the current
# user on loopback) and the OpenSSH client tools (ssh, ssh-keygen, ssh-agent). Installs what is missing; prints
# nothing otherwise; exits non-zero with a reason when it cannot.
set -euo pipefail
missing=()
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
for tool in ssh ssh-keygen ssh-agent; do command -v "$tool" >/dev/null || { missing+=(openssh-client); break; }; done
[ ${#missing[@]} = 0 ] && exit 0
echo "installing for the SSH tunnel tests: ${missing[*]}" >&2
[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
test -x /usr/sbin/sshd
