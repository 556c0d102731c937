// SPDX-License-Identifier: GPL-2.0-only
/* kpkg.c: what the package resolvers (deb: in resolve_deb.c, rpm: in
 * resolve_rpm.c) do alike once a kernel package is unpacked in the cache:
 * find the image in its boot/, its modules directory and config, check
 * +compat32 against that config, and fill kernel_info. */
#include "kresolve.h"
#include "kutil.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

const char *const kpkg_module_dirs[2] = {"lib/modules", "usr/lib/modules"};

bool
kpkg_boot_image(const char *xdir, const char *prefix, char *img, size_t imglen,
		char *rel, size_t rellen)
{
	char boot[PATH_MAX];
	size_t pl = strlen(prefix);
	bool found = false;
	ku_fmt(boot, sizeof boot, "%s/boot", xdir);
	DIR *d = opendir(boot);
	struct dirent *e;
	while (d && !found && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, pl))
			continue;
		const char *r = e->d_name + pl;
		size_t rl = strlen(r);
		/* vmlinux-REL.gz is compressed: not bootable as is */
		if (rl >= rellen || (rl > 3 && !strcmp(r + rl - 3, ".gz")) ||
		    ku_fmt(img, imglen, "%s/%s", boot, e->d_name) < 0)
			continue;
		strcpy(rel, r);
		found = true;
	}
	if (d)
		closedir(d);
	return found;
}

int
kpkg_fill(const struct kpkg *p, struct kernel_info *out, char *err,
	  size_t errlen)
{
	snprintf(out->arch, sizeof out->arch, "%s", p->arch);
	snprintf(out->image, sizeof out->image, "%.1000s", p->image);
	snprintf(out->release, sizeof out->release, "%.127s", p->release);
	snprintf(out->version, sizeof out->version, "%.255s", p->version);
	snprintf(out->label, sizeof out->label, "%.127s", p->rel);
	char path[PATH_MAX];
	for (size_t i = 0; i < 2; i++) {
		ku_fmt(path, sizeof path, "%s/%s/%s", p->xdir, kpkg_module_dirs[i],
		       p->rel);
		if (ku_is_dir(path)) {
			snprintf(out->modules_dir, sizeof out->modules_dir,
				 "%.1000s", path);
			break;
		}
	}
	/* Fedora keeps the config beside the modules, Debian and SUSE in
	 * boot/. */
	ku_fmt(path, sizeof path, "%s/config", out->modules_dir);
	if (!out->modules_dir[0] || !ku_is_file(path))
		ku_fmt(path, sizeof path, "%s/boot/config-%s", p->xdir, p->rel);
	kimage_config_hash(path, out);
	/* The i386 userland needs the kernel's 32-bit syscall entry. */
	if (p->compat32 && !kconfig_has(path, "CONFIG_IA32_EMULATION=y")) {
		size_t xl = strlen(p->xdir);
		snprintf(err, errlen, "%s: +compat32 needs "
			 "CONFIG_IA32_EMULATION=y, which %s of %s does not set",
			 p->what, !strncmp(path, p->xdir, xl) && path[xl] == '/' ?
			 path + xl + 1 : path, p->pkg);
		return -1;
	}
	return 0;
}
