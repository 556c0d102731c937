#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report.sh: gcov (the compiler's own, gcc 12 for the Debian 6.12 build)
# over every drivers/tty object a guest sent counters for, written as
# Markdown: lines and branches per file, and the functions of the files the
# case writers work on that were never called.
# Usage: report.sh GCDA_DIR SOURCE_DIR REPORT.md [NOTE_FILE]
#   GCDA_DIR holds drivers/tty/**/x.gcda and x.gcno (extract.sh);
#   NOTE_FILE, when given, is Markdown put under the title (kernel, suite).
set -euo pipefail
gcda=$(cd "${1:?usage: report.sh GCDA_DIR SOURCE_DIR REPORT.md [NOTE]}" && pwd)
src=${2:?}
report=${3:?}
note=${4:-}
die() { echo "coverage: report step failed: $*" >&2; exit 1; }

gcov=$(command -v gcov-12 || command -v gcov) || die "no gcov (install gcc-12)"
# Files whose never-called functions the report lists.
focus="drivers/tty/n_tty.c drivers/tty/tty_io.c drivers/tty/tty_ioctl.c drivers/tty/tty_jobctrl.c drivers/tty/pty.c"
# The files the issue names come first in the table.
key="drivers/tty/n_tty.c drivers/tty/tty_io.c drivers/tty/tty_ioctl.c
drivers/tty/tty_jobctrl.c drivers/tty/pty.c drivers/tty/tty_buffer.c
drivers/tty/tty_port.c drivers/tty/tty_ldisc.c
drivers/tty/serial/serial_core.c drivers/tty/serial/8250/8250_port.c
drivers/tty/serial/8250/8250_core.c"

work=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-cov.XXXXXX")
trap 'rm -rf "$work"' EXIT

# summarize REL GCOV_FILE: one line "rel lx lt bx bt fx ft" and, into
# $work/fn.REL, the never-called functions as "line name".
summarize() {
	awk -v rel="$1" -v fnout="$work/fn.${1//\//_}" '
	# A function counts as reached when it was called or any of its lines
	# ran (a copy inlined early keeps the out-of-line copy at 0 calls).
	function done_fn() {
		if (cur != "" && !called && !ran) print first, cur > fnout
		cur = ""
	}
	/^function / {
		done_fn()
		nf++
		cur = $2; called = ($4 + 0 > 0); ran = 0; first = 0
		if (called) fc++
		next
	}
	/^branch / {
		bt++
		if ($3 == "taken" && $4 + 0 > 0) bx++
		next
	}
	/^ *([0-9]+\*?|#####|=====|-): *[0-9]+:/ {
		split($0, f, ":")
		c = f[1]; gsub(/ /, "", c); ln = f[2] + 0
		if (ln == 0) next
		if (cur != "" && !first) first = ln
		if (c == "-") next
		lt++
		if (c != "#####" && c != "=====") { lx++; ran = 1 }
	}
	END {
		done_fn()
		printf "%s %d %d %d %d %d %d\n", rel, lx, lt, bx, bt, fc, nf
	}
	' "$2"
	touch "$work/fn.${1//\//_}"
}

: >"$work/rows"
n=0
while IFS= read -r -d '' g; do
	rel=${g#"$gcda"/}
	rel=${rel%.gcda}.c
	[ -f "$src/$rel" ] || die "no source $src/$rel"
	d=$work/run.$n && mkdir -p "$d"
	(cd "$d" && "$gcov" -b -c -o "${g%/*}" "$src/$rel" >gcov.out 2>&1) ||
		die "$gcov failed on $rel: $(tail -n 2 "$d/gcov.out" | tr '\n' ' ')"
	out=$d/${rel##*/}.gcov
	[ -f "$out" ] || die "$gcov wrote no ${out##*/} for $rel"
	summarize "$rel" "$out" >>"$work/rows"
	n=$((n + 1))
done < <(find "$gcda" -name '*.gcda' -print0)
[ "$n" -gt 0 ] || die "no .gcda files in $gcda"

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", 100 * a / b; else printf "-" }'; }
row() {
	read -r rel lx lt bx bt fc nf <<<"$1"
	echo "| ${rel#drivers/tty/} | $lx / $lt | $(pct "$lx" "$lt") | $bx / $bt | $(pct "$bx" "$bt") | $fc / $nf |"
}

tmp=$report.tmp
{
	echo "# Kernel coverage of drivers/tty"
	echo
	[ -n "$note" ] && [ -f "$note" ] && cat "$note" && echo
	echo "Lines: source lines with code that ran at least once / all such lines."
	echo "Branches: branch arcs taken at least once / all arcs (gcov -b -c)."
	echo "Functions: called at least once / all.  Counters run from boot to"
	echo "the end of the suite, so code the guest's boot and init reach counts."
	echo
	echo "## The files the cases aim at"
	echo
	echo "| File | Lines | % | Branches | % | Functions |"
	echo "|---|---|---|---|---|---|"
	for k in $key; do
		r=$(grep "^$k " "$work/rows" || true)
		if [ -n "$r" ]; then row "$r"; else echo "| ${k#drivers/tty/} | no counters | - | - | - | - |"; fi
	done
	echo
	echo "## Every profiled file of drivers/tty"
	echo
	echo "| File | Lines | % | Branches | % | Functions |"
	echo "|---|---|---|---|---|---|"
	sort "$work/rows" | while IFS= read -r r; do row "$r"; done
	echo
	echo "## Functions no case reaches (never called, none of their lines ran)"
	for f in $focus; do
		fn=$work/fn.${f//\//_}
		echo
		if [ ! -f "$fn" ]; then
			echo "### ${f#drivers/tty/}: no counters"
			continue
		fi
		echo "### ${f#drivers/tty/} ($(wc -l <"$fn") never called)"
		echo
		sort -n "$fn" | awk '{ printf "- `%s` (line %s)\n", $2, $1 }'
	done
} >"$tmp"
mv "$tmp" "$report"
echo "coverage: $n files, report in $report" >&2
