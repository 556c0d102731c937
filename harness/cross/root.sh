# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: assemble $cache/root, the guest's filesystem for
# the initramfs, laid out as harness/guest/initramfs.c lays out the x86
# one: busybox and kyua in /usr/bin, /bin /sbin /lib /lib64 -> usr/...,
# the suite under /ttypot (cases/, fixtures/), /usr/share/kyua, the
# libraries in /usr/lib/TRIPLET and the loader where PT_INTERP says.
# Everything but /init, which the harness adds.

ROOT_SUITE=ttypot

# What initramfs.c's stage_tree copies of a suite tree: no dotfiles,
# sources, objects, archives, databases or logs; $3 names top-level
# directories that stay on the host.
root_copy_suite() {
	mkdir -p "$2"
	ex=""
	for d in $3; do ex="$ex --exclude=./$d"; done
	# shellcheck disable=SC2086
	tar -C "$1" -cf - --exclude='*/.*' --exclude='*.[cohda]' --exclude='*.db' \
		--exclude='*.log' $ex . | tar -C "$2" -xf - ||
		die "cannot copy $1 into root/"
	[ -n "$(ls "$2")" ] || die "copying $1 into root/ gave nothing"
}

# The shared libraries an ELF file asks for, and its interpreter.
elf_needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }
elf_interp() { readelf -l "$1" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p'; }
is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

# A library of the sysroot by soname, where the target's loader looks.
sysroot_lib() {
	for d in lib/$TRIPLET usr/lib/$TRIPLET lib usr/lib; do
		[ -e "$cache/sysroot/$d/$1" ] && { echo "$cache/sysroot/$d/$1"; return 0; }
	done
	return 1
}

# Copy into $r the loader and every library the ELF files on stdin need,
# transitively; a library missing from the sysroot is fatal (name it).
root_libraries() {
	todo=$(cat) seen=" " interps=""
	while [ -n "$todo" ]; do
		next=""
		for f in $todo; do
			i=$(elf_interp "$f")
			if [ -n "$i" ] && [ ! -e "$r$i" ]; then
				[ -e "$cache/sysroot$i" ] || die "loader $i (of ${f#"$r"}) is not in the sysroot"
				mkdir -p "$(dirname "$r$i")"
				cp -L "$cache/sysroot$i" "$r$i" || die "cannot copy loader $i"
				interps="$interps ${i##*/}"
			fi
			for n in $(elf_needed "$f"); do
				case "$seen$interps " in *" $n "*) continue ;; esac
				seen="$seen$n "
				l=$(sysroot_lib "$n") || die "${f#"$r"} needs $n: not in the sysroot (add its package to harness/cross/debs.sh)"
				cp -L "$l" "$r/usr/lib/$TRIPLET/$n" || die "cannot copy $n"
				next="$next $r/usr/lib/$TRIPLET/$n"
			done
		done
		todo=$next
	done
}

stage_root() {
	key=$(printf '%s\n' "$here/root.sh" "$here/arch.sh" |
		key_of "$(stamp_get build)" "$(stamp_get sysroot)")
	if stamp_ok root "$key" && [ -d "$cache/root" ]; then
		return 0
	fi
	log "assembling root/"
	sr=$cache/sysroot
	r=$cache/root.tmp
	rm -rf "$r"
	for d in dev proc sys tmp run root etc/ttypot usr/bin usr/sbin \
		usr/lib/"$TRIPLET" usr/lib64 usr/share; do
		mkdir -p "$r/$d"
	done
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$r/$d"; done
	printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
		"nobody:x:65534:65534:nobody:/nonexistent:/bin/false" > "$r/etc/passwd"
	printf '%s\n' "root:x:0:" "tty:x:5:" "nogroup:x:65534:" > "$r/etc/group"
	echo "$ARCH" > "$r/etc/ttypot/userland"

	cp "$sr/bin/busybox" "$r/usr/bin/busybox" || die "busybox-static has no /bin/busybox"
	cp "$sr/usr/bin/kyua" "$r/usr/bin/kyua" || die "kyua has no /usr/bin/kyua"
	cp -a "$sr/usr/share/kyua" "$r/usr/share/" || die "kyua has no /usr/share/kyua"
	# Tcl's library scripts (init.tcl...), as a Tcl interpreter looks for
	# them; libexpect's C API does not start one, but a program may.  The
	# encodings and clock message catalogs (2 MB) stay out.
	if [ -d "$sr/usr/share/tcltk/tcl8.6" ]; then
		mkdir -p "$r/usr/share/tcltk"
		tar -C "$sr/usr/share/tcltk" -cf - --exclude=tcl8.6/encoding \
			--exclude=tcl8.6/msgs tcl8.6 | tar -C "$r/usr/share/tcltk" -xf -
	fi

	s=$r/$ROOT_SUITE
	root_copy_suite "$cache/build/cases" "$s/cases" ""
	root_copy_suite "$cache/build/fixtures" "$s/fixtures" "kernel bad mutants"
	cp "$cache/build/NOT-BUILT" "$s/NOT-BUILT"
	# Programs that did not build: gone from the tree (a binary of an
	# earlier build would lie) and from the Kyuafiles.
	while IFS=: read -r p _; do
		[ -n "$p" ] || continue
		rm -f "$s/$p"
		case "$p" in
		cases/*/t_*)
			kf="$s/${p%/*}/Kyuafile"
			[ -f "$kf" ] && sed -i "/atf_test_program{name=\"${p##*/}\"[,}]/d" "$kf" ;;
		esac
	done < "$s/NOT-BUILT"
	# Debug information would double the initramfs.
	find "$s" -type f -perm -u+x | while IFS= read -r f; do
		is_elf "$f" && { "${TOOLS}strip" --strip-debug "$f" || die "strip ${f#"$r"} failed"; }
	done

	{
		echo "$r/usr/bin/kyua"
		find "$s" -type f -perm -u+x | while IFS= read -r f; do
			is_elf "$f" && echo "$f"
		done
	} | root_libraries
	swap_dir "$r" "$cache/root"
	stamp_set root "$key"
}
