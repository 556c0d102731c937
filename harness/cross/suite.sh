# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: build atf/, cases/ and fixtures/ out of the source
# tree, in $cache/build, with the Makefile's own rules and the target's
# compiler pointed at the sysroot.  A program that does not build is
# listed in build/NOT-BUILT ("path: first error"), not fatal.

SUITE_TIMEOUT=${TTYPOT_CROSS_COMPILE_TIMEOUT:-300}

# The suite's source files, relative to $src: everything under atf/,
# cases/ and fixtures/ except what make builds there (objects, archives,
# a program beside its .c) and run leftovers.
suite_sources() {
	(cd "$src" && find Makefile atf cases fixtures -type f \
		! -name '*.o' ! -name '*.a' ! -name '*.db' ! -name '*.log' \
		! -name '.*' -print | LC_ALL=C sort |
		awk '{ f[NR] = $0; have[$0] = 1 }
		     END { for (i = 1; i <= NR; i++) if (!have[f[i] ".c"]) print f[i] }')
}

# Programs make builds: cases/AREA/t_NAME and fixtures/tp_NAME.
suite_programs() {
	(cd "$src" && ls cases/*/t_*.c fixtures/*.c 2>/dev/null | sed 's/\.c$//')
}

# make's variables for the target's compiler: only headers and libraries
# of the sysroot: --sysroot moves the default include and library paths
# there (an -isystem for the sysroot's /usr/include would reorder the
# system directories and break #include_next); -isystem adds Tcl's headers,
# -L and -rpath-link say the library directories explicitly.  Exported:
# xargs' shells run make.
suite_env() {
	sr=$cache/sysroot
	libdirs="-L$sr/usr/lib/$TRIPLET -L$sr/lib/$TRIPLET -Wl,-rpath-link,$sr/usr/lib/$TRIPLET:$sr/lib/$TRIPLET"
	export XC_DIR="$build" XC_TIMEOUT="$SUITE_TIMEOUT"
	export XC_CC="$CC --sysroot=$sr" XC_AR="${TOOLS}ar"
	export XC_CFLAGS="-O2 -g $libdirs"
	export XC_EXPECT_CFLAGS="-isystem $sr/usr/include/tcl8.6"
}
# shellcheck disable=SC2016
XC_MAKE='timeout "$XC_TIMEOUT" nice make --no-print-directory -C "$XC_DIR" \
	CC="$XC_CC" AR="$XC_AR" CFLAGS="$XC_CFLAGS" \
	ATF_CFLAGS= ATF_LIBS=-latf-c \
	EXPECT_CFLAGS="$XC_EXPECT_CFLAGS" EXPECT_LIBS="-lexpect -ltcl8.6"'

stage_build() {
	build=$cache/build
	toolchain="$CC $($CC -dumpfullversion -dumpmachine 2>/dev/null | tr '\n' ' ')"
	srckey=$(suite_sources | sed "s|^|$src/|" | key_of)
	key=$(printf '%s\n' "$here/suite.sh" "$here/arch.sh" |
		key_of "$(stamp_get sysroot)" "$toolchain" "$srckey")
	if stamp_ok build "$key" && [ -f "$build/NOT-BUILT" ]; then
		return 0
	fi
	# Another compiler or sysroot: nothing in build/ can be reused.
	base="$(stamp_get sysroot) $toolchain"
	if [ "$(cat "$build/.base" 2>/dev/null)" != "$base" ]; then
		rm -rf "$build"
		mkdir -p "$build"
		printf '%s\n' "$base" > "$build/.base"
	fi
	# Copy only what changed, so make rebuilds only what depends on it.
	n=0
	for f in $(suite_sources); do
		if ! cmp -s "$src/$f" "$build/$f"; then
			mkdir -p "$(dirname "$build/$f")"
			cp "$src/$f" "$build/$f" || die "cannot copy $f"
			n=$((n + 1))
		fi
	done
	log "building the suite in build/ ($n changed source files) with $CC"
	rm -rf "$build/.logs" && mkdir -p "$build/.logs"
	suite_env
	if ! sh -c "$XC_MAKE atf/libttypot.a" > "$build/.logs/libttypot.log" 2>&1; then
		cat "$build/.logs/libttypot.log" >&2
		die "atf/libttypot.a does not build for $ARCH (log above)"
	fi
	# One make per program, as many at once as there are CPUs, each with
	# its own log; the library is current, so they only read it.
	: > "$build/.logs/failed"
	suite_programs | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c '
		log="$XC_DIR/.logs/$(echo "$1" | tr / _).log"
		'"$XC_MAKE"' "$1" > "$log" 2>&1 || echo "$1" >> "$XC_DIR/.logs/failed"
	' sh {}
	: > "$build/NOT-BUILT.tmp"
	for p in $(suite_programs); do
		if [ -x "$build/$p" ] && ! grep -qxF "$p" "$build/.logs/failed"; then
			continue
		fi
		log="$build/.logs/$(echo "$p" | tr / _).log"
		err=$(grep -m1 -E ': (fatal )?error: |undefined reference|Terminated|Killed' "$log" 2>/dev/null ||
			head -n 1 "$log" 2>/dev/null)
		printf '%s: %s\n' "$p" "${err:-no output (timed out after ${SUITE_TIMEOUT} s?)}" >> "$build/NOT-BUILT.tmp"
	done
	rm -f "$build/.logs/failed"
	mv "$build/NOT-BUILT.tmp" "$build/NOT-BUILT"
	stamp_set build "$key"
}
