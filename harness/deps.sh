#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages ttypot needs, when missing.  Run as root it
# installs them; otherwise it names them and fails.
# Usage: deps.sh check|matrix|coverage|cross|report|deb
#   check:  build, Kyua, QEMU and busybox (the end-to-end guest case), the
#           tools a kernel build needs (the pipeline case's stand-in tree),
#           Chromium (the test that renders matrix.html), man (ttypot.1),
#           clang with libFuzzer (the readers' fuzz target), the arm64
#           cross compiler, QEMU and dpkg architecture (the arm64 guest case),
#           gcc-12's gcov and jq (the coverage map's pipeline test),
#           mmdebstrap and e2fsprogs (the Debian root of t_guest_apps),
#           rpm/rpmbuild/rpm2cpio (t_rpm), linux-source-6.12 with python3
#           (t_ktap runs the kernel's KTAP parser) and the report set
#   report: what the mutation report needs and its test checks: the npm
#           packages of fixtures/report-npm (the report schema and the web
#           component mutation.html inlines; npm ci from its lock file into
#           $TTYPOT_NPM_DIR, default ~/.cache/ttypot/npm), Node.js and npm
#           when there is no npm, python3-jsonschema and Chromium
#   matrix: build, Kyua, QEMU and busybox, kernel build tools, and
#           mmdebstrap and e2fsprogs (the guests' Debian root)
#   coverage: as matrix, plus gcc-12 (its gcov reads the kernel's counters) and jq (its JSON)
#   cross:  build, the cross compilers and QEMUs for arm64 and ppc64el, the
#           32-bit gcc runtime for i386, and those dpkg architectures
#           (harness/cross/build.sh downloads their packages)
#   deb:    build and Debian's package build tools (make deb)
#   check also gets lintian and autopkgtest (harness/tests/t_deb builds the
#           packages, checks them with lintian, runs their autopkgtests)
# matrix and coverage add the cross set when KERNELS asks for another
# architecture or ABI (abi, :arm64, :ppc64el, compat32), and the rpm set
# for rpm: kernels.
set -eu
# tcl-dev: tcl.pc, which the Makefile asks pkg-config for (tcl-expect-dev
# brings only tcl8.6.pc)
build="gcc make pkg-config kyua atf-sh libatf-dev tcl-dev tcl-expect-dev libjansson-dev zlib1g-dev"
# the man page check of make check
man="man-db groff-base"
# the fuzz target of make check (clang's libFuzzer and sanitizers)
fuzz="clang-14 libclang-rt-14-dev"
guest="qemu-system-x86 busybox-static cpio gzip dpkg-dev"
# ttypot mutants --generate and its test: Coccinelle reads the kernel C
mutation="coccinelle binutils"
# the Debian root of x86_64 guests' apps and peers rows (harness/guest-root)
guest_root="mmdebstrap e2fsprogs"
kbuild="ccache flex bison bc libelf-dev libssl-dev xz-utils git patch"
# what kbuild checks before it configures (t_pipeline's stand-in tree gets there)
kbuild_tools="flex bison bc libelf-dev xz-utils"
# gcc-12's gcov and jq: the coverage map's pipeline test (t_cover) and make coverage
covmap="gcc-12 jq"
# rpm: kernels (rpm -qp, rpm2cpio, cpio, compressed modules); rpmbuild makes
# t_rpm's RPMs
rpm="rpm rpm2cpio cpio xz-utils zstd"
# t_ktap reads the KTAP reports with the kernel's own parser, which it takes
# out of linux-source-6.12 (tools/testing/kunit/kunit_parser.py)
ktap="python3 xz-utils linux-source-6.12"
# Cross builds: gcc-multilib conflicts with Debian 12's cross compilers, so
# gcc -m32 gets only lib32gcc-12-dev (crtbegin.o, libgcc) from the host and
# libc from the i386 sysroot.  binutils gives readelf, util-linux flock.
cross_tools="binutils util-linux dpkg-dev"
# make deb (debian/): dpkg-buildpackage and debhelper; the package tests
debbuild="build-essential debhelper"
debcheck="lintian autopkgtest"
# t_lava_lab's lab (fixtures/lava/local-lava.sh installs the same when run
# alone): installed up front, so that no test installs packages while
# t_deb's null runner records what its run installed
lava="postgresql lava-server lava-dispatcher lavacli curl"
cross="$cross_tools gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu lib32gcc-12-dev qemu-system-arm qemu-system-ppc"
# the mutation report: a validator for its JSON, a browser for its page,
# and npm for the packages it is built from (any npm will do)
report="python3-jsonschema chromium"
command -v npm >/dev/null 2>&1 || report="$report nodejs npm"
archs=""
npm_part=""
case "${1:-check}" in
check)
	# git: t_patchorder makes real diffs in a scratch repository
	# ccache: t_mutation_kernel's kernels (a fresh build directory each
	# run) and t_deb's package build compile from ccache after the first
	pkgs="$build $guest $guest_root $man $fuzz chromium $cross_tools gcc-aarch64-linux-gnu qemu-system-arm $kbuild_tools ccache $covmap $report $mutation git $debbuild $debcheck $lava $rpm $ktap"
	archs="arm64"
	npm_part=1 ;;
report)
	pkgs="$report"
	npm_part=1 ;;
matrix) pkgs="$build $guest $guest_root $kbuild $mutation" ;;
coverage) pkgs="$build $guest $kbuild $covmap" ;;
deb) pkgs="$build $debbuild" ;;
cross)
	pkgs="$build $guest $cross"
	archs="arm64 ppc64el i386" ;;
*) echo "usage: deps.sh check|matrix|coverage|cross|report|deb" >&2; exit 2 ;;
esac
case "${1:-check}" in
matrix | coverage)
	case " ${KERNELS:-} " in
	*[\ ,]abi[\ ,]* | *:arm64* | *:ppc64el* | *compat32*)
		pkgs="$pkgs $cross"
		archs="arm64 ppc64el i386" ;;
	esac
	case " ${KERNELS:-} " in
	*rpm:* | *.rpm[\ ,+]*) pkgs="$pkgs $rpm" ;;
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
# The report's npm packages, from the committed lock file, into the cache
# (a user's own, no root needed); again only when the lock file changed or
# a file the report reads is missing.
report_npm() {
	dir=${TTYPOT_NPM_DIR:-${TTYPOT_CACHE:-$HOME/.cache/ttypot}/npm}
	lock=$(dirname "$0")/../fixtures/report-npm
	if cmp -s "$lock/package-lock.json" "$dir/package-lock.json" &&
	   [ -f "$dir/node_modules/mutation-testing-elements/dist/mutation-test-elements.js" ] &&
	   [ -f "$dir/node_modules/mutation-testing-report-schema/src/mutation-testing-report-schema.json" ]; then
		return 0
	fi
	echo "ttypot: npm ci of fixtures/report-npm into $dir"
	mkdir -p "$dir"
	cp "$lock/package.json" "$lock/package-lock.json" "$dir/"
	npm ci --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
}
if [ -n "$missing$newarch" ]; then
	if [ "$(id -u)" != 0 ]; then
		[ -n "$missing" ] && echo "ttypot: missing Debian packages:$missing" >&2
		[ -n "$newarch" ] && echo "ttypot: missing dpkg architectures:$newarch" >&2
		echo "ttypot: as root:${newarch:+ for a in$newarch; do dpkg --add-architecture \$a; done;} apt-get update;${missing:+ apt-get install$missing}" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	# Package scripts (lava-server's) call python3: Debian's, not one a
	# user put first on PATH (pyenv: "No module named 'django'").
	export PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
	for a in $newarch; do
		echo "ttypot: adding dpkg architecture $a"
		dpkg --add-architecture "$a"
	done
	apt-get update -qq
	if [ -n "$missing" ]; then
		echo "ttypot: installing:$missing"
		# shellcheck disable=SC2086
		apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends $missing >/dev/null
	fi
fi
[ -z "$npm_part" ] || report_npm
