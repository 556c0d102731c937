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

/* A built image's own copy, so that a rebuild of its build directory
 * (another config: an older ttypot sharing the cache) never changes the
 * kernel a run resolved and will boot minutes later.  The copy is
 * DIR.images/KEY-NAME (DIR: the image's build directory; KEY: the first 16
 * hex of the sha256 of key, the build's stamp; NAME: the image's file
 * name), written whole under a unique name and renamed; an existing one is
 * reused and touched.  The keep newest copies of DIR stay.  The copy's
 * path into out; 0, or -1 with err naming the file. */
int kimage_publish(const char *builddir, const char *image, const char *key, int keep,
		   char *out, size_t outlen, char *err, size_t errlen);
#define KIMAGE_KEEP 4

/* Fill config_hash from a .config file (first 16 hex of its sha256). */
void kimage_config_hash(const char *config_path, struct kernel_info *out);

/* Where a kernel package keeps its modules: (usr/)lib/modules/REL. */
extern const char *const kpkg_module_dirs[2];

/* The first xdir/boot/PREFIX<rel> (not a .gz) of an unpacked package: its
 * path into img, rel into rel. */
bool kpkg_boot_image(const char *xdir, const char *prefix, char *img,
		     size_t imglen, char *rel, size_t rellen);

/* A kernel package unpacked in the cache, as kpkg_fill reads it. */
struct kpkg {
	const char *what;    /* the spec, first in messages */
	const char *pkg;     /* the package file, named in messages */
	const char *xdir;    /* where it is unpacked */
	const char *image;   /* its image, already checked for arch */
	const char *rel;     /* the release its paths name: the label */
	const char *release; /* uname -r, when known before boot */
	const char *version; /* the package's version */
	const char *arch;
	bool compat32;       /* +compat32: the config must allow the i386 ABI */
};

/* Fill out from p: arch, image, release, version, label, the modules
 * directory (usr/)lib/modules/REL, the config hash of REL's config
 * (lib/modules/REL/config, else boot/config-REL).  Returns 0, or -1 with
 * err naming the spec, the config and the package when p->compat32 and
 * the config does not set CONFIG_IA32_EMULATION=y. */
int kpkg_fill(const struct kpkg *p, struct kernel_info *out, char *err,
	      size_t errlen);

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
 * fragment (+ fixtures/kernel/FLAVOUR.config beside it when flavour is not
 * ""); reuse when builddir's stamp equals identity+fragments (identity
 * NULL: always run make).  Fills image/release/config_hash/flavour. */
int kbuild(const char *what, const char *srcdir, const char *builddir,
	   const char *identity, const char *flavour, struct kernel_info *out,
	   char *err, size_t errlen);

#endif
