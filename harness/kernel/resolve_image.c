// SPDX-License-Identifier: GPL-2.0-only
/* resolve_image.c: the host and image (bzImage path) kernel specs. */
#include "kresolve.h"
#include "kutil.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

int
resolve_host(const struct kspec *s, struct kernel_info *out, char *err,
	     size_t errlen)
{
	(void)s, (void)err, (void)errlen;
	struct utsname u;
	uname(&u);
	snprintf(out->label, sizeof out->label, "host");
	snprintf(out->release, sizeof out->release, "%s", u.release);
	snprintf(out->arch, sizeof out->arch, "%.15s", u.machine);
	char cfg[512];
	snprintf(cfg, sizeof cfg, "/boot/config-%s", u.release);
	kimage_config_hash(cfg, out);
	return 0;
}

int
resolve_image(const struct kspec *s, struct kernel_info *out, char *err,
	      size_t errlen)
{
	char abs[PATH_MAX];
	if (!realpath(s->arg, abs)) {
		snprintf(err, errlen, "kernel image %s: %s", s->arg,
			 strerror(errno));
		return -1;
	}
	if (!ku_is_file(abs)) {
		snprintf(err, errlen, "not a kernel image: %s (not a regular "
			 "file)", s->arg);
		return -1;
	}
	/* The header says the arch; --arch (or deb:...:ARCH) must agree. */
	const char *arch = kimage_detect(abs);
	if (s->arch_given && arch && strcmp(arch, s->arch)) {
		snprintf(err, errlen, "not a %s kernel image: %s (it is an "
			 "image for %s)", s->arch, s->arg, arch);
		return -1;
	}
	if (!arch || !strcmp(arch, "x86_64")) {
		if (kimage_check(abs, out->release, sizeof out->release, err,
				 errlen) < 0) {
			snprintf(err, errlen, "not a kernel image: %s", s->arg);
			return -1;
		}
		arch = "x86_64";
	} else if (kimage_check_arch(abs, arch, out->release,
				     sizeof out->release, err, errlen) < 0) {
		return -1;
	}
	if (ku_fmt(out->image, sizeof out->image, "%s", abs) < 0) {
		snprintf(err, errlen, "kernel image %.200s: path too long",
			 s->arg);
		return -1;
	}
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", abs);
	snprintf(out->label, sizeof out->label, "%s", basename(tmp));
	snprintf(out->arch, sizeof out->arch, "%s", arch);
	/* A config next to it: /boot/config-<rel>, or a build dir's .config. */
	char dir[PATH_MAX], cfg[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s", abs);
	char *d = dirname(dir);
	if (out->release[0] &&
	    ku_fmt(cfg, sizeof cfg, "%s/config-%s", d, out->release) > 0 &&
	    ku_is_file(cfg))
		kimage_config_hash(cfg, out);
	else if (ku_fmt(cfg, sizeof cfg, "%s/../../../.config", d) > 0 &&
		 ku_is_file(cfg))
		kimage_config_hash(cfg, out);
	else
		cfg[0] = '\0';
	if (s->abi[0] && cfg[0] && !kconfig_has(cfg, "CONFIG_IA32_EMULATION=y")) {
		snprintf(err, errlen, "kernel spec '%s': +compat32 needs "
			 "CONFIG_IA32_EMULATION=y, which %s does not set",
			 s->text, cfg);
		return -1;
	}
	return 0;
}
