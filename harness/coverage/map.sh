#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# map.sh: the per-program coverage map (format: harness/mutation/cover.h)
# from a per-program extraction (extract.sh: OUTDIR/index, OUTDIR/NNN/),
# with gcc-12's gcov --json-format: the lines of the tty layer (drivers/tty,
# drivers/usb/serial) each program
# executed, the lines the boot dump holds (every program: "*"), the lines
# gcov counts that none executed ("unrun"), the line range of every
# function, each program's seconds and its cases.
# Usage: map.sh GCDA_DIR MAP_FILE SOURCE_NOTE SUITE_DIR [FILTER]
#   SOURCE_NOTE: the text after "# source " (kernel, suite, date).
#   SUITE_DIR: the built tree whose programs ran: each program's cases are
#   its `SUITE_DIR/cases/PROGRAM -l` listing, so that a case added later
#   makes the program stale (unmapped) for the map's users.
#   FILTER: the run's --cases; a program it names case by case (PROG:CASE)
#   ran only those, and the map records only those.
set -euo pipefail
usage="usage: map.sh GCDA_DIR MAP_FILE SOURCE_NOTE SUITE_DIR [FILTER]"
gcda=$(cd "${1:?$usage}" && pwd)
map=${2:?$usage}
note=${3:?$usage}
suite=${4:?$usage}
filter=$(printf '%s' "${5:-}" | tr ',' ' ')
die() { echo "coverage: map step failed: $*" >&2; exit 1; }
[ -d "$suite/cases" ] || die "$suite/cases: not a built ttypot tree"

gcov=$(command -v gcov-12 || command -v gcov) || die "no gcov (install gcc-12)"
command -v jq >/dev/null || die "no jq (install jq)"
[ -s "$gcda/index" ] || die "no $gcda/index: not a per-program extraction (extract.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-map.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The JSON's file names are the compiler's (the source tree's absolute
# path or one relative to the build): keep drivers/tty/... or
# drivers/usb/serial/... (build.sh's profiled directories).
jq_lines='.files[] | select(.file | test("(^|/)drivers/(tty|usb/serial)/"))
	| (.file | capture("(?<r>drivers/(tty|usb/serial)/.*)$").r) as $f
	| .lines[] | select(.count > 0) | "\($f) \(.line_number)"'
jq_counted='.files[] | select(.file | test("(^|/)drivers/(tty|usb/serial)/"))
	| (.file | capture("(?<r>drivers/(tty|usb/serial)/.*)$").r) as $f
	| .lines[] | "\($f) \(.line_number)"'
jq_fns='.files[] | select(.file | test("(^|/)drivers/(tty|usb/serial)/"))
	| (.file | capture("(?<r>drivers/(tty|usb/serial)/.*)$").r) as $f
	| .functions[] | "fn \($f) \(.start_line) \(.end_line) \(.name)"'

# gcovjson DIR: gcov's JSON for every .gcda under DIR, one document a line.
gcovjson() {
	local files
	mapfile -d '' files < <(find "$1" -name '*.gcda' -print0)
	[ "${#files[@]}" -gt 0 ] || die "no .gcda files in $1"
	(cd "$work" && "$gcov" --json-format --stdout "${files[@]}" 2>"$work/gcov.err") ||
		die "$gcov failed on $1: $(tail -n 2 "$work/gcov.err" | tr '\n' ' ')"
}

# Executed lines as "file line index" (index: the program's place in the
# run, 0 for the boot dump), function ranges from the boot dump's objects
# (every dump holds every object).
: >"$work/lines"
: >"$work/progs"
i=0
while read -r dir prog secs; do
	gcovjson "$gcda/$dir" >"$work/json"
	jq -r "$jq_lines" "$work/json" | sort -u | sed "s/\$/ $i/" >>"$work/lines"
	if [ "$i" -eq 0 ]; then
		jq -r "$jq_fns" "$work/json" | sort -u >"$work/fns"
		jq -r "$jq_counted" "$work/json" | sort -u >"$work/counted"
		[ -s "$work/fns" ] || die "gcov gave no function of drivers/tty for $gcda/$dir"
	else
		echo "$i $prog $secs" >>"$work/progs"
	fi
	i=$((i + 1))
done <"$gcda/index"
[ -s "$work/progs" ] || die "no program's counters in $gcda/index"

# cases_of PROG: the program's cases as they ran, on one line: its -l
# listing, cut to the ones FILTER names when it names some of them.
cases_of() {
	local list named="" w
	list=$("$suite/cases/$1" -l 2>/dev/null | sed -n 's/^ident: //p') || return 1
	[ -n "$list" ] || return 1
	for w in $filter; do
		case $w in "$1":*) named="$named${w#"$1":}"$'\n' ;; esac
	done
	[ -z "$named" ] || list=$(printf '%s\n' "$list" | grep -Fx -f <(printf '%s' "$named")) ||
		return 1
	printf '%s' "$list" | tr '\n' ' '
}

tmp=$map.tmp
{
	echo "# ttypot coverage map 3"
	echo "# source $note"
	while read -r _ prog secs; do
		echo "program $prog $secs"
		if c=$(cases_of "$prog"); then
			echo "cases $prog $c"
		else
			echo "coverage: no case list for $prog ($suite/cases/$prog -l): the map's users run it as a program the map does not know" >&2
		fi
	done <"$work/progs"
	sort -k2,2 -k3,3n "$work/fns"
	# One line per file:line; a line in the boot dump is "*" alone.
	sort -k1,1 -k2,2n -k3,3n "$work/lines" | awk -v progs="$work/progs" '
		BEGIN { while ((getline l < progs) > 0) { split(l, a, " "); name[a[1]] = a[2] } }
		function flush() {
			if (key != "") print "line " key (boot ? " *" : list)
		}
		{
			k = $1 " " $2
			if (k != key) { flush(); key = k; boot = 0; list = "" }
			if ($3 == 0) boot = 1
			else list = list " " name[$3]
		}
		END { flush() }'
	# Counted lines no dump executed, per file, at most 1000 a record.
	awk '{ print $1, $2 }' "$work/lines" | sort -u |
		comm -23 "$work/counted" - | sort -k1,1 -k2,2n | awk '
		function flush() { if (n) print "unrun " file rest; n = 0; rest = "" }
		$1 != file || n == 1000 { flush(); file = $1 }
		{ rest = rest " " $2; n++ }
		END { flush() }'
} >"$tmp"
mv "$tmp" "$map"
echo "coverage: map of $(wc -l <"$work/progs") programs, $(grep -c '^line ' "$map") executed lines, in $map" >&2
