#!/bin/sh
# Install the Debian packages ttypot needs, when missing.  Run as root it
# installs them; otherwise it names them and fails.
# Usage: deps.sh check|matrix|coverage|cross
#   check:  build, Kyua, QEMU and busybox (the end-to-end guest case), the
#           tools a kernel build needs (the pipeline case's stand-in tree),
#           Chromium (the test that renders matrix.html), man (ttypot.1),
#           clang with libFuzzer (the readers' fuzz target), and the arm64
#           cross compiler, QEMU and dpkg architecture (the arm64 guest case)
#   matrix: build, Kyua, QEMU and busybox, and kernel build tools
#   coverage: as matrix, plus gcc-12 (its gcov reads the kernel's counters) and jq (its JSON)
#   cross:  build, the cross compilers and QEMUs for arm64 and ppc64el, the
#           32-bit gcc runtime for i386, and those dpkg architectures
#           (harness/cross/build.sh downloads their packages)
# matrix and coverage add the cross set when KERNELS asks for another
# architecture or ABI (abi, :arm64, :ppc64el, compat32).
set -eu
build="gcc make pkg-config kyua atf-sh libatf-dev tcl-expect-dev libjansson-dev zlib1g-dev"
# the man page check of make check
man="man-db groff-base"
# the fuzz target of make check (clang's libFuzzer and sanitizers)
fuzz="clang-14 libclang-rt-14-dev"
guest="qemu-system-x86 busybox-static cpio gzip dpkg-dev"
kbuild="ccache flex bison bc libelf-dev libssl-dev xz-utils git patch"
# what kbuild checks before it configures (t_pipeline's stand-in tree gets there)
kbuild_tools="flex bison bc libelf-dev xz-utils"
# Cross builds: gcc-multilib conflicts with Debian 12's cross compilers, so
# gcc -m32 gets only lib32gcc-12-dev (crtbegin.o, libgcc) from the host and
# libc from the i386 sysroot.  binutils gives readelf, util-linux flock.
cross_tools="binutils util-linux dpkg-dev"
cross="$cross_tools gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu lib32gcc-12-dev qemu-system-arm qemu-system-ppc"
archs=""
case "${1:-check}" in
check)
	pkgs="$build $guest $man $fuzz chromium $cross_tools gcc-aarch64-linux-gnu qemu-system-arm $kbuild_tools"
	archs="arm64" ;;
matrix) pkgs="$build $guest $kbuild" ;;
coverage) pkgs="$build $guest $kbuild gcc-12 jq" ;;
cross)
	pkgs="$build $guest $cross"
	archs="arm64 ppc64el i386" ;;
*) echo "usage: deps.sh check|matrix|coverage|cross" >&2; exit 2 ;;
esac
case "${1:-check}" in
matrix | coverage)
	case " ${KERNELS:-} " in
	*[\ ,]abi[\ ,]* | *:arm64* | *:ppc64el* | *compat32*)
		pkgs="$pkgs $cross"
		archs="arm64 ppc64el i386" ;;
	esac ;;
esac
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
# apt-get download PKG:ARCH needs ARCH's package lists.
newarch=""
for a in $archs; do
	dpkg --print-foreign-architectures | grep -qx "$a" || newarch="$newarch $a"
done
[ -z "$missing$newarch" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	[ -n "$missing" ] && echo "ttypot: missing Debian packages:$missing" >&2
	[ -n "$newarch" ] && echo "ttypot: missing dpkg architectures:$newarch" >&2
	echo "ttypot: as root:${newarch:+ for a in$newarch; do dpkg --add-architecture \$a; done;} apt-get update;${missing:+ apt-get install$missing}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
for a in $newarch; do
	echo "ttypot: adding dpkg architecture $a"
	dpkg --add-architecture "$a"
done
apt-get update -qq
[ -z "$missing" ] && exit 0
echo "ttypot: installing:$missing"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
