#!/bin/sh
# bench.sh [warm|cold] [KERNEL...]: time the default matrix (or the given
# kernels) and print seconds per kernel column (boot, suite) and in all.
#   warm: the current cache (downloads and builds reused)
#   cold: a fresh, empty ttypot cache and ccache directory (everything is
#         downloaded and built again; the 6.12 build alone takes ~8 min)
# A benchmark, not a test: it prints figures and fails only when the matrix
# command itself fails to produce a matrix.
set -u
mode=${1:-warm}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/reports/bench-$mode
mkdir -p "$out"
case "$mode" in
warm) ;;
cold)
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-bench.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	export TTYPOT_CACHE="$scratch/cache" CCACHE_DIR="$scratch/ccache"
	;;
*) echo "usage: bench.sh warm|cold [KERNEL...]" >&2; exit 2 ;;
esac
start=$(date +%s)
"$here/harness/ttypot" matrix -o "$out" -j "${JOBS:-1}" "$@" 2> "$out/progress.log"
rc=$?
end=$(date +%s)
if [ ! -s "$out/matrix.json" ]; then
	echo "bench: no matrix was written (ttypot exit $rc); see $out/progress.log" >&2
	exit 1
fi
echo "ttypot bench ($mode, -j ${JOBS:-1}): whole matrix $((end - start)) s, exit $rc"
# Per column: label, boot and suite seconds, from the stable JSON schema.
tr '{},' '\n\n\n' < "$out/matrix.json" | awk -F': *' '
	/"label"/ { gsub(/"/, "", $2); label = $2 }
	/"boot_s"/ { boot = $2 }
	/"suite_s"/ { printf "  %-28s boot %6.1f s  suite %6.1f s\n", label, boot, $2 }'
