#!/bin/bash
# coverage.sh: `make coverage`.  Kernel line and branch coverage of
# drivers/tty under the suite, in four steps, each its own script here:
#   build    build.sh: src:linux-source-6.12 with gcov for drivers/tty
#   guest    ttypot matrix on that bzImage (the guest init prints the
#            counters on the console through fixtures/guest/gcov-dump.sh)
#   extract  extract.sh: the .gcda files out of the console log
#   report   report.sh: gcov per file into reports/coverage.md
# Usage: coverage.sh [--suite DIR] [--output DIR] [--report FILE]
#                    [--cases FILTER] [--deadline S]
#   --suite    the ttypot tree whose cases run (default: this one); it is
#              built first (make all)
#   --output   the run's matrix, console and counters (default
#              SUITE/reports/coverage-run)
#   --report   the Markdown report (default SUITE/reports/coverage.md)
#   --cases    only these programs or areas (ttypot matrix --cases)
#   --deadline seconds for the guest's boot and suite (default 1800)
# The build's own settings: harness/coverage/build.sh's header.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=$top
output=""
report=""
cases=""
deadline=1800
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--output) output=$2; shift 2 ;;
	--report) report=$2; shift 2 ;;
	--cases) cases=$2; shift 2 ;;
	--deadline) deadline=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "coverage: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
suite=$(cd "$suite" && pwd)
output=${output:-$suite/reports/coverage-run}
report=${report:-$suite/reports/coverage.md}
mkdir -p "$output" "$(dirname "$report")"
output=$(cd "$output" && pwd)
die() { echo "coverage: step '$1' failed: $2" >&2; exit 1; }
t0=$(date +%s)

echo "coverage: step 'build': the gcov kernel" >&2
[ -f "$suite/fixtures/guest/gcov-dump.sh" ] ||
	die build "$suite has no fixtures/guest/gcov-dump.sh: the guest could not send its counters"
make -C "$suite" -j2 --no-print-directory all >"$output/suite-build.log" 2>&1 ||
	die build "make all in $suite (log: $output/suite-build.log)"
image=$("$here/build.sh" "$suite") || die build "see the message above"
build=$(cd "${image%/arch/x86/boot/bzImage}" && pwd)
src=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/src/linux-source-6.12

echo "coverage: step 'guest': the suite on $image" >&2
rm -rf "$output/raw"
rc=0
"$top/harness/ttypot" matrix --suite "$suite" -o "$output" -j 1 \
	--deadline "$deadline" ${cases:+--cases "$cases"} "$image" || rc=$?
# 1 is a regression against the baseline: the coverage still counts.
[ "$rc" -le 1 ] || die guest "ttypot matrix exit $rc (the gcov kernel did not boot or run; see $output/matrix.md and $output/raw/)"
console=$(find "$output/raw" -name '*.console' | head -n 1)
[ -n "$console" ] || die guest "no console log under $output/raw"

echo "coverage: step 'extract': counters from $console" >&2
"$here/extract.sh" "$console" "$build" "$output/gcov" ||
	die extract "see the message above"

echo "coverage: step 'report'" >&2
note=$output/note.md
{
	echo "Kernel: linux-source-6.12 $(cat "$build/include/config/kernel.release" 2>/dev/null),"
	echo "tinyconfig + fixtures/kernel/ttypot.config + fixtures/kernel/gcov.config,"
	echo "drivers/tty profiled, $(gcc --version | head -n 1 | sed 's/ (.*)//')."
	echo "Suite: $suite ($(git -C "$suite" describe --always --dirty 2>/dev/null || echo 'not a git tree')),"
	echo "cases ${cases:-all}; the run's results are in $output/matrix.md."
	echo "Written by \`make coverage\` on $(date -u '+%Y-%m-%d %H:%M UTC')."
} >"$note"
"$here/report.sh" "$output/gcov" "$src" "$report" "$note" ||
	die report "see the message above"
echo "coverage: done in $(($(date +%s) - t0)) s: $report" >&2
