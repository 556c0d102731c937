/* SPDX-License-Identifier: GPL-2.0-only */
/* qarch.h: what QEMU needs to know about each guest architecture. */
#ifndef TTYPOT_QARCH_H
#define TTYPOT_QARCH_H

#include "kernel.h"

struct qarch {
	const char *arch;    /* kernel arch: x86_64, arm64, ppc64le */
	const char *host;    /* uname -m of a host whose KVM could run it */
	const char *qemu;    /* the system emulator */
	const char *machine; /* -M, NULL: the emulator's default */
	const char *cpu;     /* -cpu under TCG */
	const char *console; /* console= of the kernel command line */
	const char *image;   /* what -kernel gets (kernel/kimage.c checks it) */
};

/* The row of a kernel arch, or NULL for one ttypot cannot boot. */
const struct qarch *qarch_of(const char *arch);

/* The Debian arch of the cross userland (harness/cross/build.sh ARCH) a
 * kernel's guest needs: arm64, ppc64el, i386 (x86_64 + compat32); NULL
 * for x86_64 native, which packs the host's own programs. */
const char *qarch_userland(const struct kernel_info *k);

#endif
