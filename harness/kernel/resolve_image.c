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
	if (kimage_check(abs, out->release, sizeof out->release, err,
			 errlen) < 0) {
		snprintf(err, errlen, "not a kernel image: %s", s->arg);
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
	snprintf(out->arch, sizeof out->arch, "x86_64");
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
	return 0;
}
