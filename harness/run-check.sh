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
# Kernel findings count here as in a matrix (fixtures/expect/findings.conf,
# STATUS~TEXT entries): a case that failed with a finding's signature, on a
# kernel that has the finding, is an expected failure.  The failed cases go
# to `ttypot report` as a results channel (harness/PROTOCOL.md); its CSV
# says which of them the expectations turned into xfail.
known=0
if [ "${failed:-0}" -gt 0 ] && [ -x harness/ttypot ] && [ -x fixtures/tp_report ]; then
	ch=${db%.db}.failed
	{
		fixtures/tp_report begin "uname=$(uname -r)" "arch=$(uname -m)" "cases=$failed"
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
failed=$((${failed:-0} - known))
xfail=$((${xfail:-0} + known))
echo "ttypot check: kernel $(uname -r), $((end - start)) s, results in $db"
echo "ttypot check: ${skipped:-0} skipped (a feature or device this machine lacks), $xfail expected failures (known kernel bugs)"
# The closing line CI reads; skips and expected failures count as skipped.
echo "${passed:-0} passed, $failed failed, $((skipped + xfail)) skipped"
# Kyua exits 1 for any failure: with every failure a known finding, none is left.
[ "$failed" = 0 ] && { [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ "$known" -gt 0 ]; }; }
