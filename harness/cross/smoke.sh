#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# smoke.sh ARCH [ROOT]: run the staged guest userland on the host under
# QEMU's user-mode emulator (qemu-user-static), without a kernel of ARCH:
# kyua starts, one program lists its cases, one case that needs nothing
# but a pty passes.  The syscalls reach the host's kernel, so this proves
# the binaries, loader and libraries, not ARCH's tty layer.  Kyua itself
# cannot run the programs here: its exec of a foreign binary needs
# binfmt_misc, which this script does not touch.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ARCH=${1:-}
. "$here/arch.sh"
root=${2:-${TTYPOT_CACHE:-$HOME/.cache/ttypot}/cross/$ARCH/root}
command -v "$QEMU_USER" >/dev/null || { echo "smoke: no $QEMU_USER (apt-get install qemu-user-static)" >&2; exit 1; }
[ -x "$root/usr/bin/kyua" ] || { echo "smoke: no $root/usr/bin/kyua (run harness/cross/build.sh $ARCH)" >&2; exit 1; }
run() { timeout 120 "$QEMU_USER" -L "$root" "$@"; }
fail=0
check() {
	what=$*
	if out=$("$@" 2>&1); then echo "smoke $ARCH: ok: ${what##*/}"; else
		echo "smoke $ARCH: FAILED: $*"; printf '%s\n' "$out" | tail -n 5; fail=1; fi
}
check run "$root/usr/bin/kyua" about
prog=$root/ttypot/cases/poll/t_poll
if [ -x "$prog" ]; then
	n=$(run "$prog" -l | grep -c '^ident: ' || true)
	echo "smoke $ARCH: t_poll lists $n cases"
	[ "$n" -gt 0 ] || fail=1
	# Outside Kyua an ATF program warns; it runs in a scratch directory.
	tmp=$(mktemp -d)
	cd "$tmp"
	check run "$prog" pollout_on_empty_pty
	cd / && rm -rf "$tmp"
else
	echo "smoke $ARCH: t_poll not built (see $root/ttypot/NOT-BUILT)"
	fail=1
fi
exit "$fail"
