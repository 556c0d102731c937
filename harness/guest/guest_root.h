/* SPDX-License-Identifier: GPL-2.0-only */
/* guest_root.h: the Debian root image x86_64 guests mount read-only for the
 * apps and peers rows (built by harness/guest-root/build.sh), and the
 * kernel modules a guest needs to reach it. */
#ifndef TTYPOT_GUEST_ROOT_H
#define TTYPOT_GUEST_ROOT_H

#include "kernel.h"

#include <stddef.h>

/* The image to attach: $TTYPOT_GUEST_ROOT when set ("" or "none": no
 * image), else CACHE/guest-root/debian12-amd64.ext4 when it exists.
 * Returns 1 with out filled, 0 for none, -1 with err (a path that is not
 * a file, or that QEMU's -drive cannot carry). */
int guest_root_image(char *out, size_t outlen, char *err, size_t errlen);

/* Copy the modules of k that reach a virtio disk and read ext4 (those a
 * distribution builds as modules) into DIR/LIBDIR/modules/REL/ttypot-disk/,
 * numbered in load order (fixtures/guest/debian-root.sh loads them).
 * 0, or -1 with err. */
int guest_root_modules(const struct kernel_info *k, const char *dir,
		       const char *libdir, char *err, size_t errlen);

#endif
