#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# map.sh: the per-program coverage map (format: harness/mutation/cover.h)
# from a per-program extraction (extract.sh: OUTDIR/index, OUTDIR/NNN/),
# with gcc-12's gcov --json-format: the lines of drivers/tty each program
# executed, the lines the boot dump holds (every program: "*"), the line
# range of every function, each program's seconds.
# Usage: map.sh GCDA_DIR MAP_FILE SOURCE_NOTE
#   SOURCE_NOTE: the text after "# source " (kernel, suite, date).
set -euo pipefail
gcda=$(cd "${1:?usage: map.sh GCDA_DIR MAP_FILE SOURCE_NOTE}" && pwd)
map=${2:?}
note=${3:?}
die() { echo "coverage: map step failed: $*" >&2; exit 1; }

gcov=$(command -v gcov-12 || command -v gcov) || die "no gcov (install gcc-12)"
command -v jq >/dev/null || die "no jq (install jq)"
[ -s "$gcda/index" ] || die "no $gcda/index: not a per-program extraction (extract.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-map.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The JSON's file names are the compiler's (the source tree's absolute
# path or one relative to the build): keep what follows drivers/tty/.
jq_lines='.files[] | select(.file | test("(^|/)drivers/tty/"))
	| (.file | capture("(?<r>drivers/tty/.*)$").r) as $f
	| .lines[] | select(.count > 0) | "\($f) \(.line_number)"'
jq_fns='.files[] | select(.file | test("(^|/)drivers/tty/"))
	| (.file | capture("(?<r>drivers/tty/.*)$").r) as $f
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
		[ -s "$work/fns" ] || die "gcov gave no function of drivers/tty for $gcda/$dir"
	else
		echo "$i $prog $secs" >>"$work/progs"
	fi
	i=$((i + 1))
done <"$gcda/index"
[ -s "$work/progs" ] || die "no program's counters in $gcda/index"

tmp=$map.tmp
{
	echo "# ttypot coverage map 1"
	echo "# source $note"
	awk '{ printf "program %s %s\n", $2, $3 }' "$work/progs"
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
} >"$tmp"
mv "$tmp" "$map"
echo "coverage: map of $(wc -l <"$work/progs") programs, $(grep -c '^line ' "$map") executed lines, in $map" >&2
