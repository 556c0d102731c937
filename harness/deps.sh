#!/bin/sh
# Install the Debian packages ttypot needs, when missing.  Run as root it
# installs them; otherwise it names them and fails.
# Usage: deps.sh [matrix]   (matrix adds QEMU, busybox and kernel build tools)
set -eu
pkgs="gcc make pkg-config kyua atf-sh libatf-dev tcl-expect-dev"
if [ "${1:-}" = matrix ]; then
	pkgs="$pkgs qemu-system-x86 busybox-static cpio gzip ccache flex bison bc libelf-dev libssl-dev xz-utils dpkg-dev"
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "ttypot: missing Debian packages:$missing" >&2
	echo "ttypot: install them with: sudo apt-get install$missing" >&2
	exit 1
fi
echo "ttypot: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
