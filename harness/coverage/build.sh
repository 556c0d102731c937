#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh: the gcov kernel of `make coverage`: src:linux-source-6.12 with
# tinyconfig + fixtures/kernel/ttypot.config + fixtures/kernel/gcov.config,
# out of tree in its own build directory, with gcov profiling for the
# objects of the tty layer only: drivers/tty and drivers/usb/serial (the
# USB serial drivers register tty drivers through tty_port).  Prints the
# bzImage path on stdout.
#
# Profiling is chosen per object with GCOV_PROFILE_<name>.o=y in make's
# environment (scripts/Makefile.lib reads it), so the read-only source tree
# needs no Makefile edit.  The variable matches a basename anywhere in the
# tree, so a name that also exists outside the profiled directories is made
# y only for their objects, and the build fails if any object outside them
# was profiled.
#
# Usage: build.sh SUITE_DIR   (the tree whose fixtures/kernel/*.config count)
# Environment: TTYPOT_CACHE (default ~/.cache/ttypot), TTYPOT_GCOV_BUILD
# (build directory), TTYPOT_GCOV_SEED (build to take objects from, empty for
# none), TTYPOT_GCOV_NICE (default 10), TTYPOT_GCOV_JOBS (default: cores),
# TTYPOT_GCOV_BUILD_DEADLINE (seconds, default 5400), TTYPOT_GCOV_TTY_ONLY=1
# (configure and build the profiled directories only, without seeding,
# and print nothing: the objects the seed cannot give, built while the
# seed build still runs).
set -euo pipefail

suite=$(cd "${1:?usage: build.sh SUITE_DIR}" && pwd)
cache=${TTYPOT_CACHE:-$HOME/.cache/ttypot}
pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz
src=$cache/src/$pkg
build=${TTYPOT_GCOV_BUILD:-$cache/build/gcov-$pkg}
log=$build/ttypot-build.log
# A full build of a tinyconfig kernel on 2 busy cores takes 20-60 min.
deadline_s=${TTYPOT_GCOV_BUILD_DEADLINE:-5400}
# As the harness's builds: below the guests and the cases.
niceness=${TTYPOT_GCOV_NICE:-10}

say() { echo "coverage: $*" >&2; }
die() { echo "coverage: build step '$1' failed: $2" >&2; exit 1; }

# The source: unpacked once into the harness's cache, as src: specs do, and
# under the same lock (resolve_src.c), so that the two never unpack at once.
mkdir -p "$cache/src"
exec 8>"$src.lock"
if ! flock -n 8; then
	say "unpacking $pkg: waiting for another ttypot doing the same (lock $src.lock)"
	flock -w 2400 8 || die source "gave up waiting for $src.lock"
fi
if [ ! -f "$src/.ttypot-unpacked" ]; then
	if [ ! -f "$tarball" ]; then
		[ "$(id -u)" = 0 ] || die source "$tarball missing: install $pkg"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			-o DPkg::Lock::Timeout=1200 --no-install-recommends "$pkg" >&2 ||
			die source "cannot install $pkg"
	fi
	say "unpacking $tarball"
	rm -rf "$src"
	tmp=$(mktemp -d "$cache/src/.$pkg.tmp.XXXXXX")
	timeout 1200 tar -xf "$tarball" -C "$tmp" ||
		{ rm -rf "$tmp"; die source "cannot unpack $tarball"; }
	mv "$tmp/$pkg" "$src" && rm -rf "$tmp"
	st=$(stat -c '%s %Y' "$tarball")
	echo "tar:$tarball size=${st% *} mtime=${st#* }" >"$src/.ttypot-unpacked"
fi
exec 8>&-

frag_base=$suite/fixtures/kernel/ttypot.config
frag_gcov=$suite/fixtures/kernel/gcov.config
for f in "$frag_base" "$frag_gcov"; do
	[ -f "$f" ] || die config "$f missing"
done

# The objects to profile: every .c of these directories.  kbuild names
# them by basename (GCOV_PROFILE_<name>.o); a basename that another
# directory built for x86 also uses (vt.c, keyboard.c, generic.c,
# earlycon.c...) gets a value that make expands per object, y only in a
# profiled directory ($(obj)).
profiled_dirs=(drivers/tty drivers/usb/serial)
not_profiled=()
obj_filter=""
for d in "${profiled_dirs[@]}"; do
	not_profiled+=(-not -path "./$d/*")
	obj_filter="$obj_filter $d $d/%"
done
others=$(cd "$src" && find . -name '*.c' "${not_profiled[@]}" \
	-not -path './tools/*' -not -path './Documentation/*' \
	-not -path './samples/*' -not -path './scripts/*' \
	\( -not -path './arch/*' -o -path './arch/x86/*' \) \
	-printf '%f\n' | sort -u)
mine=$(cd "$src" && find "${profiled_dirs[@]}" -name '*.c' -printf '%f\n' | sort -u)
profile_env=()
for c in $(comm -23 <(echo "$mine") <(echo "$others")); do
	profile_env+=("GCOV_PROFILE_${c%.c}.o=y")
done
# shellcheck disable=SC2016 # $(...) is make's, expanded per object
for c in $(comm -12 <(echo "$mine") <(echo "$others")); do
	profile_env+=("GCOV_PROFILE_${c%.c}.o="'$(if $(filter'"$obj_filter"',$(obj)),y)')
done

cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
# mk SECONDS TARGET...: one bounded make step, output to the log.
mk() {
	local t=$1
	shift
	timeout -k 20 "$t" nice -n "$niceness" env "${profile_env[@]}" \
		make -C "$src" O="$build" ARCH=x86_64 CC="$cc" "$@" >>"$log" 2>&1
}

mkdir -p "$build"
# One build of this directory at a time (the lock kbuild.c takes for its
# builds); held until the script exits.
exec 7>"$build.lock"
if ! flock -n 7; then
	say "building $build: waiting for another ttypot doing the same (lock $build.lock)"
	flock -w "$deadline_s" 7 || die lock "gave up waiting for $build.lock"
fi
config_id=$(cat "$src/.ttypot-unpacked" "$frag_base" "$frag_gcov" |
	sha256sum | cut -c1-64)
if [ "$(cat "$build/ttypot-config.stamp" 2>/dev/null)" != "$config_id" ]; then
	say "configuring in $build (log: $log)"
	rm -f "$build/ttypot-config.stamp"
	: >"$log"
	mk 1200 tinyconfig ||
		die tinyconfig "make tinyconfig (log: $log)"
	(cd "$build" && timeout 1200 "$src/scripts/kconfig/merge_config.sh" -m \
		-O "$build" "$build/.config" "$frag_base" "$frag_gcov" \
		>>"$log" 2>&1) || die merge_config "merge_config.sh (log: $log)"
	mk 1200 olddefconfig ||
		die olddefconfig "make olddefconfig (log: $log)"
	for opt in CONFIG_DEBUG_FS=y CONFIG_GCOV_KERNEL=y CONFIG_SERIAL_8250=y; do
		grep -qx "$opt" "$build/.config" ||
			die config "$opt is not in $build/.config"
	done
	echo "$config_id" >"$build/ttypot-config.stamp"
fi

if [ "${TTYPOT_GCOV_TTY_ONLY:-}" = 1 ]; then
	t0=$(date +%s)
	say "building ${profiled_dirs[*]} only in $build (log: $log)"
	mk "$deadline_s" -j"${TTYPOT_GCOV_JOBS:-$(nproc)}" "${profiled_dirs[@]/%//}" ||
		die profiled-dirs "make ${profiled_dirs[*]} failed: $(tail -n 3 "$log" | tr '\n' '|') (log: $log)"
	say "${profiled_dirs[*]} built in $(($(date +%s) - t0)) s"
	exit 0
fi

# Seeding (first build only): a cold build takes an hour on 2 busy cores,
# so take the objects the harness's own build of the same source already
# compiled (same tinyconfig + ttypot.config, ccache cannot help: the config
# header differs).  Their command lines differ from ours only in objtool's
# --no-unreachable, which only matters for gcov objects, so make runs with
# KBUILD_NOCMDDEP=1 and decides by dependencies: objects that use a symbol
# whose value differs are rebuilt (its include/config/ file is touched),
# the profiled directories are never copied, and only objects whose .cmd exists (written
# after the compile finished) are taken.
seed=${TTYPOT_GCOV_SEED-$cache/build/src-$pkg}
nocmddep=()
[ -f "$build/ttypot-seeded" ] && nocmddep=(KBUILD_NOCMDDEP=1)
if [ ! -f "$build/ttypot-seeded" ] && [ ! -f "$build/vmlinux" ] &&
	[ -n "$seed" ] && [ -f "$seed/.config" ] && [ "$seed" != "$build" ]; then
	say "seeding $build with the objects of $seed"
	# An object of ours without its .cmd was cut short: drop it.
	while IFS= read -r -d '' o; do
		c=${o%/*}/.${o##*/}.cmd
		[ -f "$build/$c" ] || rm -f "$build/$o"
	done < <(cd "$build" && find . -mindepth 2 -name '*.o' \
		-not -path './scripts/*' -not -path './tools/*' -print0)
	n=0
	while IFS= read -r -d '' cmd; do
		d=${cmd%/*}
		o=${cmd##*/}
		o=${o#.}
		o=$d/${o%.cmd}
		[ -f "$seed/$o" ] && [ ! -f "$build/$cmd" ] || continue
		mkdir -p "$build/$d"
		cp "$seed/$o" "$build/$o" && cp "$seed/$cmd" "$build/$cmd"
		n=$((n + 1))
	done < <(cd "$seed" && find . -mindepth 2 -name '.*.o.cmd' \
		"${not_profiled[@]}" -not -path './scripts/*' \
		-not -path './tools/*' -not -path './arch/x86/boot/*' -print0)
	# Every symbol whose value differs between the two configs.
	changed=$({ diff <(grep '^CONFIG_' "$seed/.config" | sort) \
		<(grep '^CONFIG_' "$build/.config" | sort) || true; } |
		sed -n 's/^[<>] CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' | sort -u)
	sleep 1 # the touched files must be newer than the copied objects
	for s in $changed; do
		# Without modules, CONSTRUCTORS only shapes struct module (never
		# used) besides the ctor calls of init/main.c and the linker
		# script: rebuild those two instead of 480 objects.
		if [ "$s" = CONSTRUCTORS ] && ! grep -qx CONFIG_MODULES=y "$build/.config"; then
			rm -f "$build/init/main.o" "$build/arch/x86/kernel/vmlinux.lds"
			continue
		fi
		touch "$build/include/config/$s"
	done
	say "seeded $n objects; config symbols that differ: $(echo $changed)"
	echo "$seed" >"$build/ttypot-seeded"
	nocmddep=(KBUILD_NOCMDDEP=1)
fi

# Incremental after the first time: make decides what changed.  Under
# KBUILD_NOCMDDEP a changed command line rebuilds nothing, so an object of
# a profiled directory built without profiling (before its basename, or
# its directory, was profiled) is removed to be built again.
while IFS= read -r -d '' c; do
	o=$build/${c%.c}.o
	[ -f "$o" ] && [ ! -f "${o%.o}.gcno" ] && rm -f "$o"
done < <(cd "$src" && find "${profiled_dirs[@]}" -name '*.c' -print0)
t0=$(date +%s)
say "building bzImage in $build (log: $log)"
mk "$deadline_s" -j"${TTYPOT_GCOV_JOBS:-$(nproc)}" "${nocmddep[@]}" bzImage ||
	die bzImage "make bzImage failed or passed ${deadline_s} s: $(tail -n 3 "$log" | tr '\n' '|') (log: $log)"
say "bzImage ready in $(($(date +%s) - t0)) s"

image=$build/arch/x86/boot/bzImage
[ -f "$image" ] || die bzImage "no $image"
[ -f "$build/drivers/tty/n_tty.gcno" ] ||
	die profile "drivers/tty/n_tty.gcno missing: the objects were not profiled"
[ -f "$build/drivers/usb/serial/usb-serial.gcno" ] ||
	die profile "drivers/usb/serial/usb-serial.gcno missing: CONFIG_USB_SERIAL is not built or not profiled"
stray=$(cd "$build" && find . -name '*.gcno' "${not_profiled[@]}" | head -5)
[ -z "$stray" ] || die profile "objects outside ${profiled_dirs[*]} were profiled: $stray"
echo "$image"
