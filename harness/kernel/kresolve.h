/* SPDX-License-Identifier: GPL-2.0-only */
/* kresolve.h: internals of kernel_resolve() shared by resolve_*.c. */
#ifndef TTYPOT_KRESOLVE_H
#define TTYPOT_KRESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"

/* Check a bzImage ("HdrS" at 0x202) and read its release string.
 * Returns 0, or -1 with err naming path. */
int kimage_check(const char *path, char *release, size_t rellen, char *err,
		 size_t errlen);

/* The same for a kernel of arch (x86_64: kimage_check; arm64: the Image
 * header; ppc64le: an ELF64 LE EM_PPC64 vmlinux); the release is read
 * from its "Linux version" string.  err names path and what it is. */
int kimage_check_arch(const char *path, const char *arch, char *release,
		      size_t rellen, char *err, size_t errlen);
/* The arch a kernel image's header says (x86_64, arm64, ppc64le), or NULL. */
const char *kimage_detect(const char *path);
/* The file name prefix of arch's image in a Debian package's boot/. */
const char *kimage_deb_prefix(const char *arch);
/* Does a .config have this exact line (e.g. "CONFIG_IA32_EMULATION=y")? */
bool kconfig_has(const char *config_path, const char *line);

/* Fill config_hash from a .config file (first 16 hex of its sha256). */
void kimage_config_hash(const char *config_path, struct kernel_info *out);

int resolve_host(const struct kspec *s, struct kernel_info *out, char *err,
		 size_t errlen);
int resolve_image(const struct kspec *s, struct kernel_info *out, char *err,
		  size_t errlen);
int resolve_deb(const struct kspec *s, const char *cache,
		struct kernel_info *out, char *err, size_t errlen);
int resolve_src(const struct kspec *s, const char *cache,
		struct kernel_info *out, char *err, size_t errlen);
int resolve_rpm(const struct kspec *s, const char *cache,
		struct kernel_info *out, char *err, size_t errlen);
int resolve_tree(const struct kspec *s, const char *cache,
		 struct kernel_info *out, char *err, size_t errlen);

/* Build srcdir out of tree into builddir with tinyconfig + the ttypot
 * fragment; reuse when builddir's stamp equals identity+fragment (identity
 * NULL: always run make).  Fills image/release/config_hash. */
int kbuild(const char *what, const char *srcdir, const char *builddir,
	   const char *identity, struct kernel_info *out, char *err,
	   size_t errlen);

#endif
