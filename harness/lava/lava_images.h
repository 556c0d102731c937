/* SPDX-License-Identifier: GPL-2.0-only */
/* lava_images.h: the ramdisk a LAVA job boots (lava_images.c). */
#ifndef TTYPOT_LAVA_IMAGES_H
#define TTYPOT_LAVA_IMAGES_H

#include <stddef.h>

#include "kernel.h"

/* out = the suite initramfs (gzip'd newc cpio) with k's tty modules
 * appended into the same archive.  0, or -1 with a message. */
int lava_ramdisk(const struct kernel_info *k, const char *initramfs, const char *out,
		 char *err, size_t errlen);

#endif
