// SPDX-License-Identifier: GPL-2.0-only
/* guest_root.c: which Debian root image a guest gets and the modules that
 * mount it (guest_root.h). */
#include "guest_root.h"
#include "kutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Load order: each after what it depends on (Debian 6.1's modinfo
 * depends=); ext4 asks the crypto API for crc32c at mount, where no
 * modprobe can answer, so crc32c_generic is loaded first.  A module the
 * kernel has built in is simply not in its modules directory. */
static const char *const disk_modules[] = {
	"kernel/drivers/virtio/virtio_ring.ko",
	"kernel/drivers/virtio/virtio.ko",
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko",
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
	"kernel/drivers/virtio/virtio_pci.ko",
	"kernel/drivers/block/virtio_blk.ko",
	"kernel/crypto/crc32c_generic.ko",
	"kernel/lib/crc16.ko",
	"kernel/fs/mbcache.ko",
	"kernel/fs/jbd2/jbd2.ko",
	"kernel/fs/ext4/ext4.ko",
};

int
guest_root_image(char *out, size_t outlen, char *err, size_t errlen)
{
	const char *env = getenv("TTYPOT_GUEST_ROOT");
	if (env && (!*env || !strcmp(env, "none")))
		return 0;
	if (env) {
		if (!ku_is_file(env)) {
			snprintf(err, errlen, "TTYPOT_GUEST_ROOT=%.400s: not a file",
				 env);
			return -1;
		}
		snprintf(out, outlen, "%s", env);
	} else {
		char cache[PATH_MAX];
		ku_default_cache(cache, sizeof cache);
		ku_fmt(out, outlen, "%s/guest-root/debian12-amd64.ext4", cache);
		if (!ku_is_file(out))
			return 0;
	}
	/* QEMU's option syntax would split the path at a comma. */
	if (strchr(out, ',')) {
		snprintf(err, errlen, "guest root %.400s: a path with a comma "
			 "cannot be given to QEMU's -drive", out);
		return -1;
	}
	return 1;
}

int
guest_root_modules(const struct kernel_info *k, const char *dir,
		   const char *libdir, char *err, size_t errlen)
{
	if (!k->modules_dir[0] || !k->release[0])
		return 0;
	char q[PATH_MAX];
	ku_fmt(q, sizeof q, "%s/%s/modules/%s/ttypot-disk", dir, libdir,
	       k->release);
	for (size_t i = 0; i < sizeof disk_modules / sizeof *disk_modules; i++) {
		char from[PATH_MAX], to[PATH_MAX];
		ku_fmt(from, sizeof from, "%s/%s", k->modules_dir,
		       disk_modules[i]);
		if (!ku_is_file(from))
			continue;
		ku_fmt(to, sizeof to, "%s/%02zu-%s", q, i,
		       strrchr(disk_modules[i], '/') + 1);
		if (ku_mkdir_p(q, 0755) < 0 || ku_copy_file(from, to) < 0) {
			snprintf(err, errlen, "cannot copy %.300s: %s", from,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}
