// SPDX-License-Identifier: GPL-2.0-only
/* kimage.c: checks on a kernel image (per architecture: an x86 bzImage, an
 * arm64 Image, a ppc64le vmlinux), its release string, and the config
 * hash every resolver reports. */
#include "kresolve.h"
#include "kutil.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What each architecture boots, and the file a Debian package ships it
 * as (boot/PREFIX<release>).  QEMU takes all three as they come: -kernel
 * of qemu-system-aarch64 takes the raw Image (Debian's signed arm64
 * vmlinuz is one, uncompressed), qemu-system-ppc64 -M pseries an ELF. */
static const struct {
	const char *arch, *deb_prefix, *what;
} kinds[] = {
	{"x86_64", "vmlinuz-", "bzImage"},
	{"arm64", "vmlinuz-", "arm64 Image"},
	{"ppc64le", "vmlinux-", "ppc64le vmlinux (ELF)"},
};

const char *
kimage_deb_prefix(const char *arch)
{
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (!strcmp(arch, kinds[i].arch))
			return kinds[i].deb_prefix;
	return "vmlinuz-";
}

static const char *
kind_name(const char *arch)
{
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (!strcmp(arch, kinds[i].arch))
			return kinds[i].what;
	return "kernel image";
}

/* The arch a header says, or NULL. */
static const char *
header_arch(const unsigned char *h, size_t n)
{
	if (n >= 0x206 && !memcmp(h + 0x202, "HdrS", 4))
		return "x86_64";
	/* arm64 Image: "ARM\x64" at 0x38 (Documentation/arm64/booting.rst). */
	if (n >= 0x40 && !memcmp(h + 0x38, "ARM\x64", 4))
		return "arm64";
	/* ELF64, little-endian, EM_PPC64 (21). */
	if (n >= 20 && !memcmp(h, "\177ELF", 4) && h[4] == 2 && h[5] == 1 &&
	    (h[18] | h[19] << 8) == 21)
		return "ppc64le";
	return NULL;
}

const char *
kimage_detect(const char *path)
{
	unsigned char h[0x240];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = pread(fd, h, sizeof h, 0);
	close(fd);
	return n > 0 ? header_arch(h, (size_t)n) : NULL;
}

/* "Linux version REL " anywhere in the file (non-x86 images have no
 * header field for it). */
static void
scan_release(int fd, char *release, size_t rellen)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size < 64)
		return;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return;
	const char key[] = "Linux version ";
	const char *p = memmem(m, (size_t)st.st_size, key, sizeof key - 1);
	if (p) {
		p += sizeof key - 1;
		const char *end = (const char *)m + st.st_size;
		size_t k = 0;
		while (p + k < end && k + 1 < rellen && p[k] > ' ' && p[k] < 0x7f)
			k++;
		if (p + k < end && p[k] == ' ') {
			memcpy(release, p, k);
			release[k] = '\0';
		}
	}
	munmap(m, (size_t)st.st_size);
}

int
kimage_check_arch(const char *path, const char *arch, char *release,
		  size_t rellen, char *err, size_t errlen)
{
	if (!strcmp(arch, "x86_64"))
		return kimage_check(path, release, rellen, err, errlen);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "kernel image %s: %s", path,
			 strerror(errno));
		return -1;
	}
	unsigned char h[0x240];
	ssize_t n = pread(fd, h, sizeof h, 0);
	const char *got = n > 0 ? header_arch(h, (size_t)n) : NULL;
	if (!got || strcmp(got, arch)) {
		close(fd);
		snprintf(err, errlen, "not a %s kernel image: %s (%s%s)", arch,
			 path, got ? "it is an image for " : "expected an ",
			 got ? got : kind_name(arch));
		return -1;
	}
	if (release && rellen) {
		release[0] = '\0';
		scan_release(fd, release, rellen);
	}
	close(fd);
	return 0;
}

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

bool
kconfig_has(const char *config_path, const char *line)
{
	char *text = ku_read_file(config_path, NULL);
	if (!text)
		return false;
	size_t l = strlen(line);
	bool found = false;
	for (const char *p = text; p && *p && !found;
	     p = strchr(p, '\n'), p = p ? p + 1 : p)
		found = !strncmp(p, line, l) && (p[l] == '\n' || !p[l]);
	free(text);
	return found;
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

/* Remove all but the keep newest files of dir (never `current`). */
static void
prune_images(const char *dir, const char *current, int keep)
{
	for (;;) {
		DIR *d = opendir(dir);
		if (!d)
			return;
		int n = 0;
		char oldest[PATH_MAX] = "";
		struct timespec ot = {0};
		struct dirent *e;
		while ((e = readdir(d))) {
			char p[PATH_MAX];
			struct stat st;
			if (e->d_name[0] == '.' || ku_fmt(p, sizeof p, "%s/%s", dir, e->d_name) < 0 ||
			    lstat(p, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			n++;
			if (strcmp(p, current) && (!oldest[0] || st.st_mtim.tv_sec < ot.tv_sec ||
						   (st.st_mtim.tv_sec == ot.tv_sec &&
						    st.st_mtim.tv_nsec < ot.tv_nsec))) {
				snprintf(oldest, sizeof oldest, "%s", p);
				ot = st.st_mtim;
			}
		}
		closedir(d);
		if (n <= keep || !oldest[0] || unlink(oldest) < 0)
			return;
	}
}

int
kimage_publish(const char *builddir, const char *image, const char *key, int keep,
	       char *out, size_t outlen, char *err, size_t errlen)
{
	char hex[65], dir[PATH_MAX], tmp[PATH_MAX + 64];
	const char *name = strrchr(image, '/');
	name = name ? name + 1 : image;
	ku_sha256_hex(key, strlen(key), hex);
	if (ku_fmt(dir, sizeof dir, "%s.images", builddir) < 0 ||
	    ku_fmt(out, outlen, "%s/%.16s-%s", dir, hex, name) < 0) {
		snprintf(err, errlen, "%s: path too long", builddir);
		return -1;
	}
	if (ku_mkdir_p(dir, 0755) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (ku_is_file(out)) {
		utimensat(AT_FDCWD, out, NULL, 0); /* in use again: the newest */
	} else {
		ku_fmt(tmp, sizeof tmp, "%s/.%.16s.%ld.tmp", dir, hex, (long)getpid());
		if (ku_copy_file(image, tmp) < 0 || rename(tmp, out) < 0) {
			snprintf(err, errlen, "cannot copy %s to %s: %s", image, out,
				 strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	prune_images(dir, out, keep);
	return 0;
}
