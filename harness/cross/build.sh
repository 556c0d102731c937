#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build.sh ARCH: the suite and a guest userland for another architecture
# (arm64, ppc64el, or i386 for the compat32 column), without installing
# any package of ARCH on the host.  Under ${TTYPOT_CACHE:-~/.cache/ttypot}
# /cross/ARCH:
#   debs/     apt-get download PKG:ARCH (libc, ATF, Tcl/expect, kyua...)
#   sysroot/  dpkg-deb -x of every .deb
#   build/    atf/, cases/, fixtures/ built with ARCH's compiler against
#             sysroot/; build/NOT-BUILT lists programs that failed
#   root/     the guest's filesystem but /init (layout: root.sh)
# Each stage has a stamp of its inputs and is skipped when they did not
# change.  Progress goes to stderr; the last line on stdout is root/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
ARCH=${1:-}
. "$here/arch.sh"
. "$here/lib.sh"
. "$here/debs.sh"
. "$here/sysroot.sh"
. "$here/suite.sh"
. "$here/root.sh"

cache=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/cross/$ARCH
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
exec 3>&1 1>&2
# Search paths from the caller's environment would reach past the sysroot.
unset LIBRARY_PATH CPATH C_INCLUDE_PATH GCC_EXEC_PREFIX COMPILER_PATH
# Compiler messages in ASCII: NOT-BUILT quotes them.
LC_ALL=C
export LC_ALL

command -v "${CC%% *}" >/dev/null || die "no ${CC%% *}: run harness/deps.sh cross"
# Two builds of one ARCH at once would share every directory: one waits.
exec 9>"$cache/lock"
if ! flock -n 9; then
	log "waiting for another build of $ARCH (lock $cache/lock)"
	flock -w "${TTYPOT_CROSS_LOCK_WAIT:-3600}" 9 || die "gave up waiting for $cache/lock"
fi
start=$(date +%s)
stage_debs
stage_sysroot
stage_build
stage_root
if [ -s "$cache/root/$ROOT_SUITE/NOT-BUILT" ]; then
	log "$(wc -l < "$cache/root/$ROOT_SUITE/NOT-BUILT") programs not built for $ARCH:"
	sed 's/^/  /' "$cache/root/$ROOT_SUITE/NOT-BUILT" >&2
fi
log "root/ ready in $(($(date +%s) - start)) s"
echo "$cache/root" >&3
