#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build.sh [--check]: the Debian 12 root of x86_64 guests' apps and peers
# rows (cases/apps, cases/peers), a read-only ext4 image made without a
# mount.  mmdebstrap installs the packages of ./packages from the host's
# apt sources into a directory, `mke2fs -d` turns it into an image:
#   ${TTYPOT_CACHE:-~/.cache/ttypot}/guest-root/debian12-amd64.ext4
#   ...and .key beside it: the hash of the package list and this script.
# An image whose key matches is kept (a rerun takes well under a second).
# --check only says whether the image is current (exit 0) or not (1).
# Progress goes to stderr; the image's path is the last line on stdout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${TTYPOT_CACHE:-$HOME/.cache/ttypot}/guest-root
img=$dir/debian12-amd64.ext4
log() { printf 'ttypot guest-root: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# The list without comments and blank lines, sorted: its order and
# comments do not change the root.
pkgs=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$here/packages" | grep . | sort -u) ||
	die "$here/packages lists no package"
key=$( { printf '%s\n' "$pkgs"; cat "$here/build.sh"; } | sha256sum | cut -c1-16)
current() { [ -s "$img" ] && [ "$(cat "$img.key" 2>/dev/null)" = "$key" ]; }
if [ "${1:-}" = --check ]; then
	current
	exit
fi
mkdir -p "$dir"
# Two builds at once would share the directory: one waits.
exec 9>"$dir/lock"
flock -w "${TTYPOT_ROOT_LOCK_WAIT:-3600}" 9 || die "gave up waiting for $dir/lock"
if current; then
	echo "$img"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "mmdebstrap --mode=root needs root (or run: sudo $0)"
command -v mmdebstrap >/dev/null || die "no mmdebstrap: run harness/deps.sh matrix"
command -v mke2fs >/dev/null || die "no mke2fs (e2fsprogs): run harness/deps.sh matrix"
[ "$(dpkg --print-architecture)" = amd64 ] || die "builds the amd64 root only (this host is $(dpkg --print-architecture))"
start=$(date +%s)
tree=$dir/tree.tmp
rm -rf "$tree" "$img.tmp"
log "mmdebstrap bookworm with: $(printf '%s ' $pkgs)"
# The host's apt sources (their mirror is the one that answers here).
# Documentation, man pages and translations are left out: no case reads
# them; copyright files stay.
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
mmdebstrap --mode=root --variant=minbase --quiet \
	--include="$(printf '%s' "$pkgs" | tr '\n' ',')" \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/info/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-include=/usr/share/doc/*/copyright' \
	--customize-hook='echo ttypot > "$1/etc/hostname"' \
	bookworm "$tree" "$sources" >&2 || { rm -rf "$tree"; die "mmdebstrap failed"; }
# Room for the files plus a fifth: the image is mounted read-only.
kib=$(du -sk "$tree" | cut -f1)
kib=$((kib + kib / 5 + 65536))
mke2fs -q -t ext4 -O ^has_journal -L ttypot-root -d "$tree" "$img.tmp" "${kib}k" >&2 ||
	{ rm -rf "$tree" "$img.tmp"; die "mke2fs -d failed"; }
rm -rf "$tree"
mv "$img.tmp" "$img"
echo "$key" > "$img.key"
log "$img: $(du -m "$img" | cut -f1) MiB in $(($(date +%s) - start)) s"
echo "$img"
