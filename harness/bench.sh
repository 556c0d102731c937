#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench.sh [both|cold|warm|ci|order] [KERNEL...]: time the default matrix (or
# the given kernels) and print, per run, the wall time and each column's
# resolve, boot and suite seconds beside the previous run's (kept in the
# cache) as ratios, so a slowdown shows.
#   cold: a fresh, empty ttypot cache and ccache directory (every package is
#         downloaded and every kernel built again; installed Debian
#         packages stay)
#   warm: the current cache (downloads and builds reused)
#   both: cold, then warm on the cache the cold run filled (the default)
#   ci:   time to a verdict with the result cache: `ttypot ci --tree TREE`
#         against BASELINES (default: the default preset, without host) with
#         the baselines from the result cache, beside the same ci with
#         --fresh (FRESH=0 skips it) and the tree's own column alone
#   order: seconds to the first regression with patch-aware order (ci
#         --base) and in plain order, on the bisect demo's repository with
#         each of MUTANTS (default 01 03 09 19) applied, against BASELINE
#         (default src:linux-source-6.12); MAP names the coverage map
# A benchmark, not a test: it fails only when a matrix was not written.
set -u
mode=${1:-both}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
keep=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/bench
mkdir -p "$keep"
case "$mode" in
cold | warm | both | ci | order) ;;
*) echo "usage: bench.sh both|cold|warm|ci|order [KERNEL...]" >&2; exit 2 ;;
esac

# label resolve boot suite, one line per column of a matrix.json
columns() {
	tr '{},' '\n\n\n' < "$1" | awk -F': *' '
		/"label"/ { gsub(/"/, "", $2); label = $2 }
		/"resolve_s"/ { res = $2 }
		/"boot_s"/ { boot = $2 }
		/"suite_s"/ { print label, res + 0, boot + 0, $2 + 0; res = 0 }'
}

# now.txt beside prev.txt: "total S" then "col LABEL RES BOOT SUITE"
compare() {
	awk -v title="$1" '
		function ratio(a, b) { return b > 0 ? sprintf("%5.2fx", a / b) : "    -" }
		FILENAME == ARGV[1] { if ($1 == "total") ptot = $2; else { pr[$2] = $3; pb[$2] = $4; ps[$2] = $5 }; next }
		$1 == "total" {
			printf "%s: whole matrix %d s", title, $2
			if (ptot > 0) printf " (previous %d s, %s)", ptot, ratio($2, ptot)
			printf "\n  %-30s %9s %9s %9s   %s\n", "column", "resolve", "boot", "suite", "vs previous (resolve boot suite)"
			next }
		{ printf "  %-30s %7.1f s %7.1f s %7.1f s", $2, $3, $4, $5
		  if ($2 in pb) printf "   %s %s %s", ratio($3, pr[$2]), ratio($4, pb[$2]), ratio($5, ps[$2])
		  printf "\n" }' "$2" "$3"
}

run() {
	m=$1
	shift
	out=$here/reports/bench-$m
	mkdir -p "$out"
	rm -f "$out/matrix.json"
	start=$(date +%s)
	echo "ttypot bench: $m matrix (-j ${JOBS:-1}), progress in $out/progress.log" >&2
	"$here/harness/ttypot" matrix -o "$out" -j "${JOBS:-1}" "$@" 2> "$out/progress.log"
	rc=$?
	end=$(date +%s)
	if [ ! -s "$out/matrix.json" ]; then
		echo "bench: no matrix was written (ttypot exit $rc); see $out/progress.log" >&2
		return 1
	fi
	{
		echo "total $((end - start))"
		columns "$out/matrix.json" | sed 's/^/col /'
	} > "$out/bench.txt"
	[ -s "$keep/$m.txt" ] || : > "$keep/$m.txt"
	compare "$m (ttypot exit $rc)" "$keep/$m.txt" "$out/bench.txt"
	cp "$out/bench.txt" "$keep/$m.txt"
}

# Seconds of a command (its output in $1.log).
timed() {
	log=$1
	shift
	t0=$(date +%s)
	"$@" > "$log.log" 2>&1
	echo $(( $(date +%s) - t0 ))
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

# ci: the warm-cache ci against the tree's own column alone (and ci --fresh).
bench_ci() {
	tree=${TREE:?bench ci: TREE=DIR names the kernel tree}
	bases=${BASELINES:-default}
	out=$here/reports/bench-ci
	mkdir -p "$out"
	if [ "${FRESH:-1}" != 0 ]; then
		fresh=$(timed "$out/fresh" "$here/harness/ttypot" ci --fresh --tree "$tree" \
			--baseline "$bases" -o "$out/fresh")
		echo "ci --fresh (every baseline runs): $fresh s"
	fi
	cached=$(timed "$out/cached" "$here/harness/ttypot" ci --tree "$tree" --baseline "$bases" \
		-o "$out/cached")
	hits=$(grep -c 'not run: cached' "$out/cached.log")
	alone=$(timed "$out/alone" "$here/harness/ttypot" matrix -o "$out/alone" "tree:$tree")
	echo "ci, baselines from the result cache ($hits cached): $cached s; the tree's column" \
		"alone: $alone s ($(ratio "$cached" "$alone") of it)"
	[ -n "${fresh:-}" ] && echo "  the same ci with --fresh: $fresh s ($(ratio "$cached" "$fresh"))"
	echo "  logs: $out/{fresh,cached,alone}.log"
}

# The first "first regression after S s" of a ci, which is stopped then.
first_regression() {
	log=$1
	shift
	"$@" > "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		grep -q 'first regression after' "$log" && break
		sleep 1
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# the seconds from the tree's first boot (its build is the same work in
	# both orders), the seconds from the start, the case
	sed -n 's/.*first regression after \([0-9.]*\) s (\([0-9.]*\) s after its boot began): \([^ ]*\).*/\2 \1 \3/p' \
		"$log" | head -1
}

# order: patch-aware against plain order on mutant trees.
bench_order() {
	cache=${TTYPOT_CACHE:-$HOME/.cache/ttypot}
	repo=$cache/bisect-demo/src/linux-source-6.12
	[ -f "$cache/bisect-demo/setup.env" ] || SETUP_ONLY=1 "$here/fixtures/bisect-demo.sh" ||
		return 1
	good=$(sed -n 2p "$cache/bisect-demo/setup.env")
	base=${BASELINE:-src:linux-source-6.12}
	out=$here/reports/bench-order
	mkdir -p "$out"
	git -C "$repo" bisect reset -q 2>/dev/null
	git -C "$repo" checkout -q --detach "$good" || return 1
	for m in ${MUTANTS:-01 03 09 19}; do
		p=$(ls "$here"/fixtures/mutants/"$m"-*.patch 2>/dev/null | head -1)
		[ -f "$p" ] || { echo "order: no mutant $m"; continue; }
		(cd "$repo" && patch -p1 -s -f --no-backup-if-mismatch < "$p") || continue
		aware=$(first_regression "$out/$m-aware.log" "$here/harness/ttypot" ci --tree "$repo" \
			--base "$good" --baseline "$base" ${MAP:+--map "$MAP"} -o "$out/$m-aware")
		plain=$(first_regression "$out/$m-plain.log" "$here/harness/ttypot" ci --tree "$repo" \
			--baseline "$base" -o "$out/$m-plain")
		(cd "$repo" && patch -R -p1 -s -f --no-backup-if-mismatch < "$p")
		reach=$(sed -n 's/.*ci: \([0-9]* cases\{0,1\}\) .*reach the changed.*/\1/p' \
			"$out/$m-aware.log" | head -1)
		echo "mutant $m: first regression (s from the tree's boot, s from the start, case):" \
			"patch-aware ${aware:-none}, plain ${plain:-none}" \
			"($(ratio "${plain%% *}" "${aware%% *}") sooner; ${reach:-the map could not narrow it})"
	done
	git -C "$repo" checkout -q main
}

status=0
case "$mode" in
ci) bench_ci; exit $? ;;
order) bench_order; exit $? ;;
esac
if [ "$mode" != warm ]; then
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-bench.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	export TTYPOT_CACHE="$scratch/cache" CCACHE_DIR="$scratch/ccache"
	run cold "$@" || status=1
fi
# both: warm reuses what the cold run downloaded and built
[ "$mode" != cold ] && { run warm "$@" || status=1; }
exit $status
