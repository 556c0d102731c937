#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check.sh DEBDIR: check the packages build.sh wrote into DEBDIR.
#  1. lintian on the .changes: any error fails (DEBDIR/lintian.txt);
#  2. autopkgtest with the null runner, the tests of debian/tests/control
#     that need neither network nor a VM (installed-suite as root,
#     installed-suite-user and command as nobody); guest-matrix is skipped
#     by name
#     (DEBDIR/autopkgtest/ keeps the log, summary and artifacts).
# The null runner installs the packages on this machine: they are purged
# afterwards with whatever the run installed, whatever happened.  It refuses
# to run when ttypot or ttypot-tests is already installed (it would replace
# them), and one run at a time holds /tmp/ttypot-deb-check.lock.
# TTYPOT_SHARED_MACHINE=1 is passed on to the tests (debian/tests/run-kyua:
# the installed suite leaves out the programs that need the machine alone).
# Exit: 0 lintian clean of errors and every test run passed, 1 otherwise,
# 2 usage, 3 refused (already installed; not root).
set -eu
[ $# -eq 1 ] || { echo "usage: check.sh DEBDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$1" && pwd)
changes=$(ls "$dir"/ttypot_*.changes 2>/dev/null | head -n 1)
[ -n "$changes" ] || { echo "check.sh: no ttypot_*.changes in $dir (run build.sh first)" >&2; exit 2; }
debs="$(ls "$dir"/ttypot_*.deb) $(ls "$dir"/ttypot-tests_*.deb)"

rc=0
echo "ttypot deb: lintian $(basename "$changes")"
# Root is fine here (lintian warns about it); pedantic and experimental tags
# are listed too, only errors fail.
lintian -EvIL +pedantic --tag-display-limit 0 "$changes" > "$dir/lintian.txt" 2>&1 || true
grep -v '^running with root' "$dir/lintian.txt" | grep -v '^N:' | grep -v ' executable-in-usr-lib ' || true
echo "ttypot deb: lintian: $(grep -c '^E:' "$dir/lintian.txt") errors, $(grep -c '^W:' "$dir/lintian.txt") warnings, $(grep -c '^I:' "$dir/lintian.txt") info, $(grep -c '^X:' "$dir/lintian.txt") experimental (executable-in-usr-lib: the tests are programs under /usr/lib/ttypot/tests by design)"
grep -q '^E:' "$dir/lintian.txt" && rc=1

[ "$(id -u)" = 0 ] || { echo "check.sh: autopkgtest with the null runner installs packages: needs root" >&2; exit 3; }
exec 9> /tmp/ttypot-deb-check.lock
flock -w 1800 9 || { echo "check.sh: /tmp/ttypot-deb-check.lock held for 30 min" >&2; exit 1; }
for p in ttypot ttypot-tests; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		echo "check.sh: $p is installed on this machine; the null runner would replace it: purge it first" >&2
		exit 3
	fi
done
before=$(mktemp)
after=$(mktemp)
aptconf=$(mktemp)
dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 ~ /^.i/ { print $2 }' | sort > "$before"
# Wait for another apt or dpkg rather than fail on its lock.
echo 'DPkg::Lock::Timeout "600";' > "$aptconf"
export APT_CONFIG="$aptconf"
purge() {
	dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 ~ /^.i/ { print $2 }' | sort > "$after"
	new=$(comm -13 "$before" "$after" | tr '\n' ' ')
	if [ -n "$new" ]; then
		echo "ttypot deb: purging what the run installed: $new"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $new > "$dir/purge.log" 2>&1 ||
			{ cat "$dir/purge.log"; echo "check.sh: apt-get purge $new failed" >&2; }
	fi
	rm -f "$before" "$after" "$aptconf"
}
trap purge EXIT
trap 'exit 1' INT TERM HUP

out=$dir/autopkgtest
rm -rf "$out"
echo "ttypot deb: autopkgtest (null runner) on $(echo "$debs" | xargs -n1 basename | tr '\n' ' ')"
arc=0
# shellcheck disable=SC2086
autopkgtest --output-dir "$out" --summary-file "$dir/autopkgtest.summary" --user nobody \
	${TTYPOT_SHARED_MACHINE:+--env=TTYPOT_SHARED_MACHINE=$TTYPOT_SHARED_MACHINE} \
	--skip-test guest-matrix $debs "$top/" -- null > "$dir/autopkgtest.log" 2>&1 || arc=$?
for f in "$out"/artifacts/*.summary; do
	[ -f "$f" ] && echo "  $(basename "$f" .summary): $(cat "$f")"
done
echo "ttypot deb: autopkgtest exit $arc; summary:"
sed 's/^/  /' "$dir/autopkgtest.summary" 2>/dev/null || true
for t in installed-suite installed-suite-user command; do
	grep -qE "^$t +PASS" "$dir/autopkgtest.summary" 2>/dev/null || {
		echo "check.sh: autopkgtest $t did not pass (log: $dir/autopkgtest.log)" >&2
		rc=1
	}
done
exit "$rc"
