/* SPDX-License-Identifier: GPL-2.0-only */
/* initramfs.h: internal helpers of initramfs.c used by run_qemu.c. */
#ifndef TTYPOT_INITRAMFS_H
#define TTYPOT_INITRAMFS_H

#include <stddef.h>

/* Pack every file under dir into a gzip'd newc cpio at out_path. */
int cpio_pack(const char *dir, const char *out_path, char *err, size_t errlen);

/* The initramfs of a guest whose userland is not the host's (userland:
 * arm64, ppc64el, i386): root/ of harness/cross/build.sh USERLAND plus
 * /init from suite_dir, cached beside root/ under a key of root/'s stamp
 * and /init.  Fills out_path.  0, or -1 with err naming the step. */
int initramfs_cross(const char *suite_dir, const char *userland,
		    char *out_path, size_t outlen, char *err, size_t errlen);

#endif
