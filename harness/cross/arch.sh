# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: what differs between the target architectures.
# ARCH is the Debian architecture name; sets TRIPLET (Debian multiarch
# directory), CC (the compiler as make gets it, sysroot added later),
# TOOLS (prefix of binutils for strip/ar) and QEMU_USER (the user-mode
# emulator smoke.sh runs the staged programs with on the host).
case "$ARCH" in
arm64)
	TRIPLET=aarch64-linux-gnu CC=aarch64-linux-gnu-gcc
	TOOLS=aarch64-linux-gnu- QEMU_USER=qemu-aarch64-static ;;
ppc64el)
	TRIPLET=powerpc64le-linux-gnu CC=powerpc64le-linux-gnu-gcc
	TOOLS=powerpc64le-linux-gnu- QEMU_USER=qemu-ppc64le-static ;;
i386)
	# The host gcc with -m32: Debian 12's gcc-multilib conflicts with the
	# cross compilers, so only lib32gcc-12-dev (crtbegin.o, libgcc) comes
	# from the host; libc and its headers come from the sysroot.
	TRIPLET=i386-linux-gnu CC="gcc -m32"
	TOOLS="" QEMU_USER=qemu-i386-static ;;
*)
	echo "usage: build.sh arm64|ppc64el|i386" >&2
	exit 2 ;;
esac
