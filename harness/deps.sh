#!/bin/sh
# Install the Debian packages ttypot needs, when missing.  Run as root it
# installs them; otherwise it names them and fails.
# Usage: deps.sh check|matrix|coverage
#   check:  build, Kyua, QEMU and busybox (the end-to-end guest case),
#           Chromium (the test that renders matrix.html), man (ttypot.1)
#           and clang with libFuzzer (the readers' fuzz target)
#   matrix: build, Kyua, QEMU and busybox, and kernel build tools
#   coverage: as matrix, plus gcc-12 (its gcov reads the kernel's counters)
set -eu
build="gcc make pkg-config kyua atf-sh libatf-dev tcl-expect-dev libjansson-dev zlib1g-dev"
# the man page check of make check
man="man-db groff-base"
# the fuzz target of make check (clang's libFuzzer and sanitizers)
fuzz="clang-14 libclang-rt-14-dev"
guest="qemu-system-x86 busybox-static cpio gzip dpkg-dev"
kbuild="ccache flex bison bc libelf-dev libssl-dev xz-utils git patch"
case "${1:-check}" in
check) pkgs="$build $guest $man $fuzz chromium" ;;
matrix) pkgs="$build $guest $kbuild" ;;
coverage) pkgs="$build $guest $kbuild gcc-12" ;;
*) echo "usage: deps.sh check|matrix|coverage" >&2; exit 2 ;;
esac
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
