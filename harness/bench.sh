#!/bin/sh
# bench.sh [both|cold|warm] [KERNEL...]: time the default matrix (or the
# given kernels) and print, per run, the wall time and each column's
# resolve, boot and suite seconds beside the previous run's (kept in the
# cache) as ratios, so a slowdown shows.
#   cold: a fresh, empty ttypot cache and ccache directory (every package is
#         downloaded and every kernel built again; installed Debian
#         packages stay)
#   warm: the current cache (downloads and builds reused)
#   both: cold, then warm on the cache the cold run filled (the default)
# A benchmark, not a test: it fails only when a matrix was not written.
set -u
mode=${1:-both}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
keep=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/bench
mkdir -p "$keep"
case "$mode" in
cold | warm | both) ;;
*) echo "usage: bench.sh both|cold|warm [KERNEL...]" >&2; exit 2 ;;
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

status=0
if [ "$mode" != warm ]; then
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-bench.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	export TTYPOT_CACHE="$scratch/cache" CCACHE_DIR="$scratch/ccache"
	run cold "$@" || status=1
fi
# both: warm reuses what the cold run downloaded and built
[ "$mode" != cold ] && { run warm "$@" || status=1; }
exit $status
