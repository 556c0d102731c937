# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: download the target architecture's packages into
# $cache/debs (apt-get download PKG:ARCH; nothing is installed).

# What the suite compiles and links against, and what the guest runs.
# libatf-dev is not Multi-Arch: same: it cannot be installed beside the
# host's, so every package goes into a private sysroot instead.
DEBS_BASE="libc6 libc6-dev linux-libc-dev libgcc-s1 libstdc++6
 libatf-c-1 libatf-c++-2 libatf-dev libtcl8.6 tcl8.6-dev tcl-expect
 tcl-expect-dev zlib1g kyua busybox-static"
# Programs the guest runs whose shared libraries must come along.
DEBS_RUNTIME="kyua libatf-c-1 libatf-c++-2 libtcl8.6 tcl-expect libc6"
DEBS_TIMEOUT=${TTYPOT_CROSS_DOWNLOAD_TIMEOUT:-600}

# The runtime libraries of DEBS_RUNTIME, transitively: Depends and
# Pre-Depends that are library packages (lua, sqlite3, ...); tzdata,
# debconf and the like are data the guest does not need.
debs_closure() {
	todo=$DEBS_RUNTIME seen=" "
	while [ -n "$todo" ]; do
		next=""
		for p in $todo; do
			case "$seen" in *" $p "*) continue ;; esac
			seen="$seen$p "
			out=$(timeout 60 apt-cache depends --important "$p:$ARCH" 2>&1) ||
				die "apt-cache depends $p:$ARCH failed: $(printf '%s' "$out" | tail -n 1)"
			deps=$(printf '%s\n' "$out" |
				sed -n "s/^ *\(Pre\)\{0,1\}Depends: \(lib[a-z0-9.+-]*\):$ARCH\$/\2/p")
			next="$next $deps"
		done
		todo=$next
	done
	printf '%s\n' $seen
}

stage_debs() {
	key=$(key_of "$ARCH" $DEBS_BASE $DEBS_RUNTIME </dev/null)
	if stamp_ok debs "$key" && [ -d "$cache/debs" ]; then
		return 0
	fi
	dpkg --print-foreign-architectures | grep -qx "$ARCH" ||
		[ "$(dpkg --print-architecture)" = "$ARCH" ] ||
		die "$ARCH is not a dpkg architecture here: run harness/deps.sh cross (dpkg --add-architecture $ARCH; apt-get update)"
	tmp="$cache/debs.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	debs_closure > "$tmp/closure"
	pkgs=$({ printf '%s\n' $DEBS_BASE; cat "$tmp/closure"; } | sort -u)
	rm -f "$tmp/closure"
	log "downloading $(echo $pkgs | wc -w) packages: $(echo $pkgs)"
	args=""
	for p in $pkgs; do args="$args $p:$ARCH"; done
	# One apt-get for all; when it fails, one per package names the culprit.
	# shellcheck disable=SC2086
	if ! (cd "$tmp" && timeout "$DEBS_TIMEOUT" apt-get download -q $args >download.log 2>&1); then
		for p in $pkgs; do
			ls "$tmp/${p}_"*".deb" >/dev/null 2>&1 && continue
			(cd "$tmp" && timeout "$DEBS_TIMEOUT" apt-get download -q "$p:$ARCH" >>download.log 2>&1) ||
				die "cannot download $p:$ARCH: $(grep '^E:' "$tmp/download.log" | tail -n 1)"
		done
	fi
	rm -f "$tmp/download.log"
	for p in $pkgs; do
		ls "$tmp/${p}_"*".deb" >/dev/null 2>&1 || die "apt-get download gave no .deb for $p:$ARCH"
	done
	swap_dir "$tmp" "$cache/debs"
	stamp_set debs "$key"
}
