# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: unpack every downloaded package into $cache/sysroot
# (dpkg-deb -x; no maintainer scripts run, nothing registered with dpkg).

stage_sysroot() {
	key=$(printf '%s\n' "$here/sysroot.sh" | key_of "$(stamp_get debs)" "$(ls "$cache/debs")")
	if stamp_ok sysroot "$key" && [ -d "$cache/sysroot" ]; then
		return 0
	fi
	log "unpacking $(ls "$cache/debs" | wc -l) packages into sysroot/"
	tmp="$cache/sysroot.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	for d in "$cache/debs"/*.deb; do
		timeout 120 dpkg-deb -x "$d" "$tmp" || die "dpkg-deb -x ${d##*/} failed"
	done
	# Absolute symlinks (libz.so -> /lib/..., ld.so links) would point at
	# the host: make them relative so they stay inside the sysroot.
	find "$tmp" -type l | while IFS= read -r l; do
		t=$(readlink "$l")
		case "$t" in /*) ln -sfnr "$tmp$t" "$l" ;; esac
	done
	swap_dir "$tmp" "$cache/sysroot"
	stamp_set sysroot "$key"
}
