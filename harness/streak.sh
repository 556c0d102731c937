#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# streak.sh N OUT [HOGS] -- MATRIX-ARGS...: run `ttypot matrix MATRIX-ARGS` N
# times into OUT/run-K and count, per case and kernel, how many runs passed.
# A case that passes on a kernel must pass every time ("zero flakes"): one
# failure in N is a flake to chase, and the exit status says so.
#   HOGS  busy loops (nice 19) beside the runs: a loaded machine without a
#         build to wait for (default 0; a kernel build beside it is the
#         caller's to start)
# Resumable: a run whose matrix.json exists is kept, not run again; after an
# interrupted run, the same command goes on where it stopped.
# Exit: 0 every cell passed, skipped or was a known finding's xfail in every
# run, 1 some cell did not, 2
# usage or a run that wrote no matrix.
set -u
usage() { echo "usage: streak.sh N OUT [HOGS] -- MATRIX-ARGS..." >&2; exit 2; }
[ $# -ge 3 ] || usage
n=$1 out=$2
shift 2
hogs=0
if [ "$1" != "--" ]; then hogs=$1; shift; fi
[ "${1:-}" = "--" ] || usage
shift
case $n in '' | *[!0-9]*) echo "streak.sh: N '$n' is not a number" >&2; exit 2 ;; esac
case $hogs in '' | *[!0-9]*) echo "streak.sh: HOGS '$hogs' is not a number" >&2; exit 2 ;; esac
command -v jq >/dev/null || { echo "streak.sh: needs jq" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 2

pids=
i=0
while [ "$i" -lt "$hogs" ]; do
	nice -n 19 sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
[ -n "$pids" ] && trap 'kill $pids 2>/dev/null' EXIT INT TERM

k=1
while [ "$k" -le "$n" ]; do
	d=$out/run-$k
	if [ -f "$d/matrix.json" ]; then
		echo "streak: run $k of $n: kept ($d)"
	else
		echo "streak: run $k of $n: $(uptime | sed 's/.*load/load/')"
		rm -rf "$d"
		"$top/harness/ttypot" matrix -o "$d" "$@" > "$out/run-$k.log" 2>&1
		uptime > "$out/run-$k.load"
		[ -f "$d/matrix.json" ] || {
			echo "streak: run $k wrote no matrix (log: $out/run-$k.log)" >&2
			exit 2
		}
		echo "streak: run $k of $n: $(jq -r '[.columns[] | "\(.label) \(.summary.pass) pass \(.summary.fail + .summary.broken + .summary.timeout + .summary.missing) bad"] | join(", ")' "$d/matrix.json")"
	fi
	k=$((k + 1))
done

# Per case and kernel: runs passed, skipped, expected failures (a known
# finding's signature, fixtures/expect/), and the other results.
jq -rs '
	[.[] | .cases[] | .id as $id | .cells | to_entries[]
	 | {id: $id, kernel: .key, status: .value.status, reason: .value.reason}]
	| group_by([.kernel, .id])
	| map({kernel: .[0].kernel, id: .[0].id, runs: length,
	       pass: map(select(.status == "pass")) | length,
	       skip: map(select(.status == "skip")) | length,
	       xfail: map(select(.status == "xfail")) | length,
	       other: map(select(.status != "pass" and .status != "skip"
				 and .status != "xfail"))})' \
	"$out"/run-*/matrix.json > "$out/streak.json" || exit 2
echo "| kernel | cases | runs | every run passed | skipped | a known finding | failed once or more |"
echo "|---|---|---|---|---|---|---|"
jq -r 'group_by(.kernel)[] | "| \(.[0].kernel) | \(length) | \(map(.runs) | max) | \(map(select(.pass == .runs)) | length) | \(map(select(.skip > 0)) | length) | \(map(select(.xfail > 0)) | length) | \(map(select((.other | length) > 0)) | length) |"' "$out/streak.json"
bad=$(jq '[.[] | select((.other | length) > 0)] | length' "$out/streak.json")
jq -r '.[] | select((.other | length) > 0) | "- \(.kernel) \(.id): \(.other | length) of \(.runs): \(.other[0].status): \(.other[0].reason[0:160])"' "$out/streak.json"
[ "$bad" = 0 ]
