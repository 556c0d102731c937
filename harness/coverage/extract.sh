#!/bin/bash
# extract.sh: take the gcov counters a guest printed on its console
# (fixtures/guest/gcov-dump.sh: base64 of a gzipped tar between
# TTYPOT-GCOV-BEGIN and TTYPOT-GCOV-END) and unpack the .gcda files of
# drivers/tty into OUTDIR/drivers/tty/..., next to copies of the build's
# .gcno files, ready for gcov -o.
# Usage: extract.sh CONSOLE_LOG BUILD_DIR OUTDIR
set -euo pipefail
console=${1:?usage: extract.sh CONSOLE_LOG BUILD_DIR OUTDIR}
build=${2:?}
out=${3:?}
die() { echo "coverage: extract step failed: $*" >&2; exit 1; }

[ -f "$console" ] || die "no console log $console"
if grep -q 'TTYPOT-GCOV-ERROR' "$console"; then
	die "the guest says: $(grep -a -m1 -o 'TTYPOT-GCOV-ERROR.*' "$console" | tr -d '\r')"
fi
begin=$(grep -a -m1 -o 'TTYPOT-GCOV-BEGIN .*' "$console" | tr -d '\r') ||
	die "no TTYPOT-GCOV-BEGIN line in $console (not a gcov kernel, no gcov block in the suite's fixtures/guest/init, or the guest stopped before the dump)"
grep -aq 'TTYPOT-GCOV-END' "$console" ||
	die "the dump in $console has no TTYPOT-GCOV-END line (cut short: the guest was stopped while printing it?)"
bytes=$(sed -n 's/.* bytes=\([0-9]*\).*/\1/p' <<<"$begin")
md5=$(sed -n 's/.* md5=\([0-9a-f]*\).*/\1/p' <<<"$begin")

rm -rf "$out" && mkdir -p "$out"
tarball=$out/gcda.tar.gz
# The lines strictly between the markers, without the console's CRs.
tr -d '\r' <"$console" |
	sed -n '/TTYPOT-GCOV-BEGIN/,/TTYPOT-GCOV-END/{/TTYPOT-GCOV-/d;p}' |
	base64 -d >"$tarball" 2>/dev/null || die "the base64 block does not decode"
got=$(wc -c <"$tarball")
[ "$got" = "$bytes" ] || die "dump is $got bytes, the guest sent $bytes"
[ "$(md5sum <"$tarball" | cut -d' ' -f1)" = "$md5" ] ||
	die "dump md5 differs from the guest's ($md5)"
mkdir -p "$out/raw"
tar -xzf "$tarball" -C "$out/raw" || die "cannot unpack $tarball"

# The guest's paths are debugfs's: .../<build dir>/drivers/tty/x.gcda.
n=0
while IFS= read -r -d '' f; do
	rel=drivers/tty/${f#*/drivers/tty/}
	gcno=$build/${rel%.gcda}.gcno
	[ -f "$gcno" ] || die "no $gcno for $f: counters from another build?"
	mkdir -p "$out/${rel%/*}"
	cp "$f" "$out/$rel"
	cp "$gcno" "$out/${rel%.gcda}.gcno"
	n=$((n + 1))
done < <(find "$out/raw" -path '*/drivers/tty/*' -name '*.gcda' -print0)
[ "$n" -gt 0 ] || die "the dump holds no drivers/tty .gcda file"
rm -rf "$out/raw"
echo "coverage: $n .gcda files from $console" >&2
