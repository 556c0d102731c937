#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the whole suite on the running kernel with Kyua and print a summary.
# Usage: run-check.sh KYUA RESULTS_DB [JOBS].  Exits 1 when any case failed or broke.
set -u
kyua=$1 db=$2 jobs=${3:-4}
mkdir -p "$(dirname "$db")"
rm -f "$db"
start=$(date +%s)
# A clean environment: Kyua's reports copy every variable into their output.
# Kyua prints each case as it finishes: that is the progress display.
# TTYPOT_CACHE: the user's own ttypot cache for every test, whatever HOME
# Kyua gives a case, so that nothing is fetched or built twice.
cache=${TTYPOT_CACHE:-${HOME:-/root}/.cache/ttypot}
rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT
{
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}" TERM=dumb \
		TTYPOT_CACHE="$cache" \
		"$kyua" -v parallelism="$jobs" -v unprivileged_user=nobody \
		test -k Kyuafile -r "$db" 2>&1
	echo $? > "$rcfile"
} | tee "${db%.db}.log"
rc=$(cat "$rcfile")
end=$(date +%s)
"$kyua" report -r "$db" --results-filter broken,failed,xfail,skipped 2>&1 | grep -v '^===> Summary' || true
passed=$("$kyua" db-exec -r "$db" "SELECT count(*) FROM test_results WHERE result_type='passed'" 2>/dev/null | tail -1)
failed=$("$kyua" db-exec -r "$db" "SELECT count(*) FROM test_results WHERE result_type IN ('failed','broken')" 2>/dev/null | tail -1)
skipped=$("$kyua" db-exec -r "$db" "SELECT count(*) FROM test_results WHERE result_type='skipped'" 2>/dev/null | tail -1)
xfail=$("$kyua" db-exec -r "$db" "SELECT count(*) FROM test_results WHERE result_type='expected_failure'" 2>/dev/null | tail -1)
echo "ttypot check: kernel $(uname -r), $((end - start)) s, results in $db"
echo "ttypot check: ${skipped:-0} skipped (a feature or device this machine lacks), ${xfail:-0} expected failures (known kernel bugs)"
# The closing line CI reads; skips and expected failures count as skipped.
echo "${passed:-0} passed, ${failed:-0} failed, $((skipped + xfail)) skipped"
[ "$rc" -eq 0 ] && [ "${failed:-1}" = 0 ]
