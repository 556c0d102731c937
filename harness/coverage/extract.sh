#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# extract.sh: take the gcov counters a guest printed on its console
# (fixtures/guest/gcov-dump.sh: base64 of a gzipped tar between
# TTYPOT-GCOV-BEGIN and TTYPOT-GCOV-END, each checked against the size and
# md5 its BEGIN line gives) and unpack the .gcda files of drivers/tty and
# drivers/usb/serial (build.sh's profiled directories), beside links to
# the build's .gcno files, ready for gcov.
#
# A whole-suite run (one dump, no prog= label) goes to OUTDIR/drivers/tty/.
# A per-program run (fixtures/guest/gcov-per-program.sh: the boot dump
# prog=* first, then one dump per program) goes to OUTDIR/NNN/drivers/tty/,
# 000 the boot dump, listed in OUTDIR/index as "NNN PROGRAM SECONDS".  A
# program whose dump is missing, cut short or corrupt is left out of the
# index and named in OUTDIR/missing (and on stderr); a missing boot dump
# is an error.
# Usage: extract.sh CONSOLE_LOG BUILD_DIR OUTDIR
set -euo pipefail
console=${1:?usage: extract.sh CONSOLE_LOG BUILD_DIR OUTDIR}
build=${2:?}
out=${3:?}
die() { echo "coverage: extract step failed: $*" >&2; exit 1; }
warn() { echo "coverage: extract: $*" >&2; }

[ -f "$console" ] || die "no console log $console"
if ! grep -aq 'TTYPOT-GCOV-BEGIN' "$console"; then
	grep -aq 'TTYPOT-GCOV-ERROR' "$console" &&
		die "the guest says: $(grep -a -m1 -o 'TTYPOT-GCOV-ERROR.*' "$console" | tr -d '\r')"
	die "no TTYPOT-GCOV-BEGIN line in $console (not a gcov kernel, no gcov block in the suite's fixtures/guest/init, or the guest stopped before the dump)"
fi
rm -rf "$out" && mkdir -p "$out/blocks"
out=$(cd "$out" && pwd)

# Split the console into blocks: blocks/N.hdr (the BEGIN line's fields),
# blocks/N.b64, blocks/N.end (present when the END line came).  Errors the
# guest reported go to blocks/errors.
tr -d '\r' <"$console" | awk -v d="$out/blocks" '
	/TTYPOT-GCOV-ERROR/ {
		print substr($0, index($0, "TTYPOT-GCOV-ERROR")) >> (d "/errors")
		next
	}
	/TTYPOT-GCOV-BEGIN/ {
		if (in_block) close(f)
		n++
		in_block = 1
		f = d "/" n ".b64"
		printf "" > f
		h = substr($0, index($0, "TTYPOT-GCOV-BEGIN") + 18)
		print h > (d "/" n ".hdr")
		close(d "/" n ".hdr")
		next
	}
	/TTYPOT-GCOV-END/ {
		if (in_block) { close(f); printf "" > (d "/" n ".end"); close(d "/" n ".end") }
		in_block = 0
		next
	}
	in_block { print > f }
'
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# unpack N DEST: decode and check block N, put its tty layer counters
# under DEST with links to the .gcno files; 1 (with a warning) when bad.
unpack() {
	local n=$1 dest=$2 hdr what bytes md5 tarball got f rel gcno count=0
	hdr=$(cat "$out/blocks/$n.hdr")
	what="dump $n ($hdr)"
	[ -f "$out/blocks/$n.end" ] ||
		{ warn "$what has no TTYPOT-GCOV-END line (cut short: the guest stopped while printing it?)"; return 1; }
	bytes=$(field bytes "$hdr")
	md5=$(field md5 "$hdr")
	mkdir -p "$dest/raw"
	tarball=$dest/gcda.tar.gz
	base64 -d <"$out/blocks/$n.b64" >"$tarball" 2>/dev/null ||
		{ warn "$what: the base64 block does not decode"; return 1; }
	got=$(wc -c <"$tarball")
	[ "$got" = "$bytes" ] || { warn "$what is $got bytes, the guest sent $bytes"; return 1; }
	[ "$(md5sum <"$tarball" | cut -d' ' -f1)" = "$md5" ] ||
		{ warn "$what: md5 differs from the guest's ($md5)"; return 1; }
	tar -xzf "$tarball" -C "$dest/raw" || { warn "$what: cannot unpack"; return 1; }
	# The guest's paths are debugfs's: .../<build dir>/drivers/tty/x.gcda
	# (or drivers/usb/serial/).
	while IFS= read -r -d '' f; do
		case $f in
		*/drivers/usb/serial/*) rel=drivers/usb/serial/${f#*/drivers/usb/serial/} ;;
		*) rel=drivers/tty/${f#*/drivers/tty/} ;;
		esac
		gcno=$build/${rel%.gcda}.gcno
		[ -f "$gcno" ] || die "no $gcno for $f: counters from another build?"
		mkdir -p "$dest/${rel%/*}"
		mv "$f" "$dest/$rel"
		ln -sf "$gcno" "$dest/${rel%.gcda}.gcno"
		count=$((count + 1))
	done < <(find "$dest/raw" \( -path '*/drivers/tty/*' -o -path '*/drivers/usb/serial/*' \) \
		-name '*.gcda' -print0)
	rm -rf "$dest/raw" "$tarball"
	[ "$count" -gt 0 ] || { warn "$what holds no .gcda file of drivers/tty or drivers/usb/serial"; return 1; }
}

nblocks=$(find "$out/blocks" -name '*.hdr' | wc -l)
first=$(cat "$out/blocks/1.hdr")
if [ -z "$(field prog "$first")" ]; then
	# Whole suite: the first dump, as before.
	[ ! -s "$out/blocks/errors" ] || die "the guest says: $(head -n 1 "$out/blocks/errors")"
	unpack 1 "$out" || die "see the message above"
	rm -rf "$out/blocks"
	echo "coverage: $(find "$out" -name '*.gcda' | wc -l) .gcda files from $console" >&2
	exit 0
fi

# Per program.
: >"$out/index"
: >"$out/missing"
[ "$(field prog "$first")" = '*' ] || die "the first dump in $console is not the boot dump (prog=*): $first"
unpack 1 "$out/000" || die "the boot dump is unusable (see above)"
echo "000 * 0" >>"$out/index"
for n in $(seq 2 "$nblocks"); do
	hdr=$(cat "$out/blocks/$n.hdr")
	prog=$(field prog "$hdr")
	secs=$(field secs "$hdr")
	dir=$(printf '%03d' $((n - 1)))
	if unpack "$n" "$out/$dir"; then
		echo "$dir $prog ${secs:--1}" >>"$out/index"
	else
		rm -rf "${out:?}/$dir"
		echo "$prog" >>"$out/missing"
	fi
done
if [ -s "$out/blocks/errors" ]; then
	while IFS= read -r e; do
		warn "the guest says: $e"
		p=$(field prog "$e")
		[ -n "$p" ] && echo "$p" >>"$out/missing"
	done <"$out/blocks/errors"
fi
rm -rf "$out/blocks"
echo "coverage: $(($(wc -l <"$out/index") - 1)) programs' counters and the boot set from $console$([ -s "$out/missing" ] && echo ", $(wc -l <"$out/missing") missing: $(tr '\n' ' ' <"$out/missing")")" >&2
