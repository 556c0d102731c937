/* resolve_image.c: kernel_resolve() dispatch, the host and image specs. */
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
kimage_check(const char *path, char *release, size_t rellen, char *err,
	     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "kernel image %s: %s", path,
			 strerror(errno));
		return -1;
	}
	unsigned char hdr[0x240];
	ssize_t n = pread(fd, hdr, sizeof hdr, 0);
	if (n < (ssize_t)sizeof hdr || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		snprintf(err, errlen, "not a kernel image: %s (no bzImage "
			 "\"HdrS\" header)", path);
		return -1;
	}
	if (release && rellen) {
		/* kernel_version: offset of the version string - 0x200. */
		unsigned off = hdr[0x20e] | hdr[0x20f] << 8;
		char ver[256] = "";
		release[0] = '\0';
		if (off && pread(fd, ver, sizeof ver - 1, off + 0x200) > 0) {
			ver[sizeof ver - 1] = '\0';
			size_t k = strcspn(ver, " ");
			if (k < rellen) {
				memcpy(release, ver, k);
				release[k] = '\0';
			}
		}
	}
	close(fd);
	return 0;
}

void
kimage_config_hash(const char *config_path, struct kernel_info *out)
{
	char hex[65];
	out->config_hash[0] = '\0';
	if (ku_sha256_file(config_path, hex) == 0)
		snprintf(out->config_hash, sizeof out->config_hash, "%.16s",
			 hex);
}

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

int
kernel_resolve(const struct kspec *spec, const char *cache_dir,
	       struct kernel_info *out, char *err, size_t errlen)
{
	char cache[1024];
	memset(out, 0, sizeof *out);
	snprintf(out->arch, sizeof out->arch, "x86_64");
	if (cache_dir && *cache_dir)
		snprintf(cache, sizeof cache, "%s", cache_dir);
	else
		ku_default_cache(cache, sizeof cache);
	if (spec->kind != KSPEC_HOST && spec->kind != KSPEC_IMAGE &&
	    ku_mkdir_p(cache, 0755) < 0) {
		snprintf(err, errlen, "cache dir %s: %s", cache,
			 strerror(errno));
		return -1;
	}
	switch (spec->kind) {
	case KSPEC_HOST:
		return resolve_host(spec, out, err, errlen);
	case KSPEC_IMAGE:
		return resolve_image(spec, out, err, errlen);
	case KSPEC_DEB:
		return resolve_deb(spec, cache, out, err, errlen);
	case KSPEC_SRC:
		return resolve_src(spec, cache, out, err, errlen);
	case KSPEC_TREE:
		return resolve_tree(spec, cache, out, err, errlen);
	}
	snprintf(err, errlen, "kernel spec '%s': unknown kind", spec->text);
	return -1;
}
