#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# coverage.sh: `make coverage`.  Kernel line and branch coverage of
# drivers/tty under the suite, and the per-program coverage map, in steps,
# each its own script here:
#   build    build.sh: src:linux-source-6.12 with gcov for drivers/tty and
#            drivers/usb/serial
#   guest    ttypot matrix on that bzImage; the guest init runs the programs
#            one at a time (fixtures/guest/gcov-per-program.sh), printing
#            the counters on the console before the first and after each
#            (fixtures/guest/gcov-dump.sh)
#   extract  extract.sh: the .gcda files out of the console log
#   map      map.sh: gcov per program into the map (harness/mutation/cover.h)
#   report   report.sh: gcov per file over the union into reports/coverage.md
# Usage: coverage.sh [--suite DIR] [--output DIR] [--report FILE] [--map FILE]
#                    [--cases FILTER] [--deadline S] [--whole-suite]
#   --suite    the ttypot tree whose cases run (default: this one); it is
#              built first (make all)
#   --output   the run's matrix, console and counters (default
#              SUITE/reports/coverage-run)
#   --report   the Markdown report (default SUITE/reports/coverage.md)
#   --map      the per-program map (default SUITE/reports/cover.map)
#   --cases    only these programs or areas (ttypot matrix --cases)
#   --deadline seconds for the guest's boot and suite (default 1800, 5400
#              per program)
#   --whole-suite  run the suite as one Kyua session (cases of all programs
#              in parallel) and dump the counters once: no map, faster
# The build's own settings: harness/coverage/build.sh's header.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=$top
output=""
report=""
map=""
cases=""
deadline=""
whole=0
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--output) output=$2; shift 2 ;;
	--report) report=$2; shift 2 ;;
	--map) map=$2; shift 2 ;;
	--whole-suite) whole=1; shift ;;
	--cases) cases=$2; shift 2 ;;
	--deadline) deadline=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "coverage: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
suite=$(cd "$suite" && pwd)
output=${output:-$suite/reports/coverage-run}
report=${report:-$suite/reports/coverage.md}
map=${map:-$suite/reports/cover.map}
if [ -z "$deadline" ]; then
	deadline=5400
	[ "$whole" = 1 ] && deadline=1800
fi
mkdir -p "$output" "$(dirname "$report")" "$(dirname "$map")"
output=$(cd "$output" && pwd)
die() { echo "coverage: step '$1' failed: $2" >&2; exit 1; }
t0=$(date +%s)

echo "coverage: step 'build': the gcov kernel" >&2
for f in gcov-dump.sh gcov-per-program.sh; do
	[ -f "$suite/fixtures/guest/$f" ] ||
		die build "$suite has no fixtures/guest/$f: the guest could not send its counters"
done
make -C "$suite" -j2 --no-print-directory all >"$output/suite-build.log" 2>&1 ||
	die build "make all in $suite (log: $output/suite-build.log)"
image=$("$here/build.sh" "$suite") || die build "see the message above"
build=$(cd "${image%/arch/x86/boot/bzImage}" && pwd)
src=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/src/linux-source-6.12

echo "coverage: step 'guest': the suite on $image" >&2
rm -rf "$output/raw"
rc=0
# The guest init reads its mode from the kernel command line.
kargs=${TTYPOT_KERNEL_ARGS:-}
[ "$whole" = 1 ] && kargs="${kargs:+$kargs }ttypot_gcov=suite"
TTYPOT_KERNEL_ARGS=$kargs "$top/harness/ttypot" matrix --suite "$suite" -o "$output" -j 1 \
	--deadline "$deadline" ${cases:+--cases "$cases"} "$image" || rc=$?
# 1 is a regression against the baseline: the coverage still counts.
[ "$rc" -le 1 ] || die guest "ttypot matrix exit $rc (the gcov kernel did not boot or run; see $output/matrix.md and $output/raw/)"
console=$(find "$output/raw" -name '*.console' | head -n 1)
[ -n "$console" ] || die guest "no console log under $output/raw"

echo "coverage: step 'extract': counters from $console" >&2
t1=$(date +%s)
"$here/extract.sh" "$console" "$build" "$output/gcov" ||
	die extract "see the message above"
release=$(cat "$build/include/config/kernel.release" 2>/dev/null || echo unknown)
describe=$(git -C "$suite" describe --always --dirty 2>/dev/null || echo 'not a git tree')
union=$output/gcov
if [ "$whole" = 0 ]; then
	[ -s "$output/gcov/index" ] ||
		die extract "the guest sent one whole-suite dump, not per-program ones (its fixtures/guest/init predates gcov-per-program.sh?)"
	echo "coverage: step 'map'" >&2
	"$here/map.sh" "$output/gcov" "$map" \
		"linux-source-6.12 $release, suite $describe, $(date -u '+%Y-%m-%d %H:%M UTC')" \
		"$suite" "$cases" || die map "see the message above"
	# The whole-suite numbers: the sum of the boot set and every program.
	union=$output/gcov-union
	rm -rf "$union"
	acc=""
	while read -r dir _; do
		if [ -z "$acc" ]; then
			acc=$output/gcov/$dir
			continue
		fi
		rm -rf "$union.next"
		gcov-tool-12 merge "$acc" "$output/gcov/$dir" -o "$union.next" >/dev/null 2>"$output/merge.err" ||
			die report "gcov-tool-12 merge: $(tail -n 2 "$output/merge.err" | tr '\n' ' ')"
		rm -rf "$union" && mv "$union.next" "$union"
		acc=$union
	done <"$output/gcov/index"
	[ "$acc" = "$union" ] || cp -r "$acc" "$union"
	(cd "$output/gcov/000" && find . -name '*.gcno' -print0) |
		while IFS= read -r -d '' g; do
			ln -sf "$(readlink "$output/gcov/000/$g")" "$union/$g"
		done
fi
echo "coverage: extract and map took $(($(date +%s) - t1)) s" >&2

echo "coverage: step 'report'" >&2
note=$output/note.md
{
	echo "Kernel: linux-source-6.12 $release,"
	echo "tinyconfig + fixtures/kernel/ttypot.config + fixtures/kernel/gcov.config,"
	echo "drivers/tty and drivers/usb/serial profiled, $(gcc --version | head -n 1 | sed 's/ (.*)//')."
	echo "Suite: $suite ($describe),"
	echo "cases ${cases:-all}; the run's results are in $output/matrix.md."
	if [ "$whole" = 0 ]; then
		echo "Each program ran alone; the numbers are the union of the boot set and"
		echo "every program; the per-program map is $map."
		[ -s "$output/gcov/missing" ] &&
			echo "Programs without counters (their dump is missing or broken): $(tr '\n' ' ' <"$output/gcov/missing")."
	fi
	echo "Written by \`make coverage\` on $(date -u '+%Y-%m-%d %H:%M UTC')."
} >"$note"
"$here/report.sh" "$union" "$src" "$report" "$note" ||
	die report "see the message above"
echo "coverage: done in $(($(date +%s) - t0)) s: $report" >&2
