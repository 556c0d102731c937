#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the whole suite on the running kernel with Kyua and print a summary.
# Usage: run-check.sh KYUA RESULTS_DB [JOBS].  Exits 1 when any case failed or broke.
#
# Two Kyua runs, one after the other, each into its own results file:
#   RESULTS_DB              cases/: the tty cases on this machine's kernel;
#   RESULTS_DB-harness.db   harness/: the harness's own tests (guests, LAVA,
#                           the Debian packages), longest first.
# The order is what lets the harness tests run side by side: t_deb's
# installed suite changes what the tree's cases change (sysctls, ptys of one
# machine), so it must never meet them; once the cases have finished it only
# meets guests and builds, and needs no Kyua exclusivity (which would run it
# alone after everything else).
set -u
kyua=$1 db=$2 jobs=${3:-4}
hdb=${db%.db}-harness.db
mkdir -p "$(dirname "$db")"
rm -f "$db" "$hdb"
start=$(date +%s)
# A clean environment: Kyua's reports copy every variable into their output.
# Kyua prints each case as it finishes: that is the progress display.
# TTYPOT_CACHE and CCACHE_DIR: the user's own caches for every test,
# whatever HOME Kyua gives a case, so that nothing is fetched or built twice.
cache=${TTYPOT_CACHE:-${HOME:-/root}/.cache/ttypot}
ccache=${CCACHE_DIR:-${HOME:-/root}/.cache/ccache}
rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT
# phase DB KYUAFILE: one Kyua run; its exit code appended to rcfile.
phase() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}" TERM=dumb \
		TTYPOT_CACHE="$cache" CCACHE_DIR="$ccache" \
		"$kyua" -v parallelism="$jobs" -v unprivileged_user=nobody \
		test -k "$2" -r "$1" 2>&1
	echo $? >> "$rcfile"
}
{
	echo "ttypot check: the cases (cases/Kyuafile)"
	phase "$db" cases/Kyuafile
	t1=$(date +%s)
	echo "ttypot check: the cases took $((t1 - start)) s; the harness's tests (harness/Kyuafile)"
	phase "$hdb" harness/Kyuafile
	echo "ttypot check: the harness's tests took $(($(date +%s) - t1)) s"
} | tee "${db%.db}.log"
rc=$(awk '$1 != 0 { bad = 1 } END { print bad ? 1 : 0 }' "$rcfile")
end=$(date +%s)
# count TYPES...: cases of these result types in both results files.
count() {
	n=0
	types=$(printf "'%s'," "$@")
	for f in "$db" "$hdb"; do
		c=$("$kyua" db-exec -r "$f" "SELECT count(*) FROM test_results WHERE result_type IN (${types%,})" 2>/dev/null | tail -1)
		case $c in '' | *[!0-9]*) c=0 ;; esac
		n=$((n + c))
	done
	echo "$n"
}
for f in "$db" "$hdb"; do
	"$kyua" report -r "$f" --results-filter broken,failed,xfail,skipped 2>&1 | grep -v '^===> Summary' || true
done
passed=$(count passed)
failed=$(count failed broken)
skipped=$(count skipped)
xfail=$(count expected_failure)
echo "ttypot check: kernel $(uname -r), $((end - start)) s, results in $db and $hdb"
echo "ttypot check: $skipped skipped (a feature or device this machine lacks), $xfail expected failures (known kernel bugs)"
# The closing line CI reads; skips and expected failures count as skipped.
echo "$passed passed, $failed failed, $((skipped + xfail)) skipped"
[ "$rc" -eq 0 ] && [ "$failed" = 0 ]
