/* initramfs.h: internal helpers of initramfs.c used by run_qemu.c. */
#ifndef TTYPOT_INITRAMFS_H
#define TTYPOT_INITRAMFS_H

#include <stddef.h>

/* Pack every file under dir into a gzip'd newc cpio at out_path. */
int cpio_pack(const char *dir, const char *out_path, char *err, size_t errlen);

#endif
