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
end=$(date +%s)
# count DB TYPES...: cases of these result types in one results file.
count() {
	f=$1
	shift
	types=$(printf "'%s'," "$@")
	c=$("$kyua" db-exec -r "$f" "SELECT count(*) FROM test_results WHERE result_type IN (${types%,})" 2>/dev/null | tail -1)
	case $c in '' | *[!0-9]*) c=0 ;; esac
	echo "$c"
}
for f in "$db" "$hdb"; do
	"$kyua" report -r "$f" --results-filter broken,failed,xfail,skipped 2>&1 | grep -v '^===> Summary' || true
done
passed=$(($(count "$db" passed) + $(count "$hdb" passed)))
cfailed=$(count "$db" failed broken)
hfailed=$(count "$hdb" failed broken)
skipped=$(($(count "$db" skipped) + $(count "$hdb" skipped)))
xfail=$(($(count "$db" expected_failure) + $(count "$hdb" expected_failure)))
# Kernel findings count here as in a matrix (fixtures/expect/findings.conf,
# STATUS~TEXT entries): a case that failed with a finding's signature, on a
# kernel that has the finding, is an expected failure.  The failed cases go
# to `ttypot report` as a results channel (harness/PROTOCOL.md); its CSV
# says which of them the expectations turned into xfail.  Only the cases
# test a kernel: the harness's own tests have no findings.
known=0
if [ "$cfailed" -gt 0 ] && [ -x harness/ttypot ] && [ -x fixtures/tp_report ]; then
	ch=${db%.db}.failed
	{
		fixtures/tp_report begin "uname=$(uname -r)" "arch=$(uname -m)" "cases=$cfailed"
		"$kyua" db-exec -r "$db" --no-headers \
			"SELECT p.relative_path, c.name, r.result_type, r.end_time - r.start_time,
			        hex(CAST(coalesce(r.result_reason, '') AS BLOB))
			 FROM test_programs p
			 JOIN test_cases c ON c.test_program_id = p.test_program_id
			 JOIN test_results r ON r.test_case_id = c.test_case_id
			 WHERE r.result_type IN ('failed', 'broken')" 2>/dev/null |
		while IFS=, read -r rp cn rt us hx; do
			fixtures/tp_report case-hex "${rp#cases/}:$cn" "$rt" "$us" "$hx"
		done
		fixtures/tp_report end 1 0
	} > "$ch.results"
	harness/ttypot report --format csv "$ch.results" > "$ch.csv" 2>/dev/null || :
	known=$(grep -c ',xfail' "$ch.csv" 2>/dev/null || :)
	known=${known:-0}
	[ "$known" -gt 0 ] && {
		echo "ttypot check: $known of the failures are known kernel findings (fixtures/expect/findings.conf):"
		grep ',xfail' "$ch.csv" | cut -d, -f1 | sed 's/^/  /'
	}
fi
failed=$((cfailed - known + hfailed))
xfail=$((xfail + known))
echo "ttypot check: kernel $(uname -r), $((end - start)) s, results in $db and $hdb"
echo "ttypot check: $skipped skipped (a feature or device this machine lacks), $xfail expected failures (known kernel bugs)"
# The closing line CI reads; skips and expected failures count as skipped.
echo "$passed passed, $failed failed, $((skipped + xfail)) skipped"
# Kyua exits 1 for any failure: with every failure of the cases a known
# finding, none is left.  rcfile: the cases' exit code, then the harness's.
crc=$(sed -n 1p "$rcfile") hrc=$(sed -n 2p "$rcfile")
[ "$failed" = 0 ] && [ "${hrc:-1}" -eq 0 ] &&
	{ [ "${crc:-1}" -eq 0 ] || { [ "$crc" -eq 1 ] && [ "$known" -gt 0 ]; }; }
