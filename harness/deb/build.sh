#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build.sh OUTDIR: build the Debian packages (debian/) from this tree with
# dpkg-buildpackage -us -uc -b in a copy of it, so the tree's own build is
# left alone, and move the .debs, .changes and .buildinfo into OUTDIR
# (emptied of older ones first).  Prints the files it wrote.
set -eu
[ $# -eq 1 ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
work=$(mktemp -d "${TMPDIR:-/tmp}/ttypot-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/ttypot-$version
mkdir "$src"
# The sources only: git's files (tracked and new) when this is a checkout,
# else everything but results; debian/rules clean removes any build output.
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top" ls-files -z -co --exclude-standard | (cd "$top" && tar --null -T - -cf -) | tar -C "$src" -xf -
else
	tar -C "$top" --exclude=./.git --exclude=./reports -cf - . | tar -C "$src" -xf -
fi
ncpu=$(nproc 2>/dev/null || echo 1)
# ccache when there is one: the copy's path changes every build, so paths
# are hashed relative to it (the compile lines carry -ffile-prefix-map).
ccpath=$PATH
if [ -d /usr/lib/ccache ]; then
	ccpath=/usr/lib/ccache:$PATH
	export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=true
fi
echo "ttypot deb: dpkg-buildpackage -us -uc -b in $src"
if ! (cd "$src" && PATH=$ccpath DEB_BUILD_OPTIONS="parallel=$ncpu ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b > "$work/build.log" 2>&1); then
	tail -n 40 "$work/build.log"
	echo "ttypot deb: dpkg-buildpackage failed (the end of its log is above)" >&2
	exit 1
fi
rm -f "$out"/ttypot*_*.deb "$out"/ttypot_*.changes "$out"/ttypot_*.buildinfo
# The .changes lists every file the build made (with the dbgsym package).
files=$(awk '/^Files:/ { f = 1; next } /^[^ ]/ { f = 0 } f { print $5 }' "$work"/ttypot_"$version"_*.changes)
for f in $files "$(basename "$work"/ttypot_"$version"_*.changes)"; do
	mv "$work/$f" "$out/"
done
cp "$work/build.log" "$out/build.log"
echo "ttypot deb: in $out:"
(cd "$out" && ls -l ttypot*_"$version"_*)
