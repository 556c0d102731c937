/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel.h: kernel specs and their resolution (stage 1 of the harness:
 * kernel/ -> guest/ -> results/ -> report/ -> commands/).
 *
 * kspec_parse() checks a command-line kernel (host, a bzImage path,
 * deb:PACKAGE[:ARCH], src:linux-source-X.Y, tree:DIR, rpm:KERNEL.rpm[,MODULES.rpm...],
 * each optionally +compat32, src: and tree: optionally +debug);
 * kernel_resolve() turns it into
 * a bootable image (downloads, builds, caches).  A new kind of kernel source
 * is a resolve_<kind>.c in this folder plus a case in resolve.c.
 */
#ifndef TTYPOT_KERNEL_H
#define TTYPOT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

enum kspec_kind {
	KSPEC_HOST,   /* "host": the running kernel, kyua directly */
	KSPEC_IMAGE,  /* a path to a bzImage/vmlinuz */
	KSPEC_DEB,    /* "deb:PACKAGE[=VERSION]" or a path to a .deb */
	KSPEC_SRC,    /* "src:linux-source-6.12" (Debian source package) */
	KSPEC_TREE,   /* "tree:DIR" (a kernel source tree, built out of tree) */
	KSPEC_RPM,    /* "rpm:KERNEL.rpm[,MODULES.rpm...]" or a path to a .rpm */
};

struct kspec {
	enum kspec_kind kind;
	char text[512];    /* the spec as the user wrote it */
	char arg[512];     /* path, package name, source package, tree dir, or
			    * (rpm:) the kernel RPM and modules RPMs, ','-separated */
	char version[128]; /* deb:PACKAGE=VERSION, else "" */
	bool deb_is_file;  /* KSPEC_DEB given as a path to a .deb */
	char arch[16];     /* guest architecture: x86_64, arm64, ppc64le */
	bool arch_given;   /* said by the spec (":ARCH") or --arch */
	char abi[16];      /* userland ABI: "" native, "compat32" (i386 on x86_64) */
	char flavour[16];  /* src:/tree: build: "" plain, "debug"
			    * (fixtures/kernel/debug.config merged too) */
};

/* Architecture names: the kernel's (x86_64, arm64, ppc64le) and Debian's
 * (amd64, arm64, ppc64el; aarch64 too).  Returns the kernel's name, or NULL. */
const char *karch_canon(const char *name);
/* The Debian architecture of a kernel arch name (x86_64 -> amd64). */
const char *karch_debian(const char *arch);

/* Set the architecture of a parsed spec (--arch ARCH); an arch the spec
 * already names must agree.  0, or -1 with a message. */
int kspec_set_arch(struct kspec *s, const char *arch, char *err,
		   size_t errlen);

/* Parse one kernel spec.  Returns 0, or -1 with a message naming the input
 * in err (syntax only: no file system or network access). */
int kspec_parse(const char *text, struct kspec *out, char *err, size_t errlen);

/* What exactly will run, for the matrix column header. */
struct kernel_info {
	char label[128];       /* short column label, unique in a run */
	char image[1024];      /* bzImage path ("" for host) */
	char modules_dir[1024];/* lib/modules/<rel> to pack, "" if none */
	char release[128];     /* uname -r, when known before boot */
	char version[256];     /* .deb version, git sha (+dirty), or "" */
	char config_hash[20];  /* first 16 hex of sha256 of the .config */
	char arch[16];         /* x86_64, arm64, ppc64le */
	char abi[16];          /* "" native, "compat32" */
	char flavour[16];      /* "" plain, "debug" (a src:/tree: build) */
};

/* Resolve a parsed spec to a bootable kernel, downloading/building into the
 * cache dir (default ~/.cache/ttypot or $TTYPOT_CACHE).  Progress goes to
 * stderr.  Returns 0, or -1 with a message naming the input in err: missing
 * file, not a kernel image, broken .deb, unknown package, build failure. */
int kernel_resolve(const struct kspec *spec, const char *cache_dir,
		   struct kernel_info *out, char *err, size_t errlen);

/* A Debian kernel source package (linux-source-X.Y) unpacked once into
 * CACHE/src/PKG (installed with apt-get first when root and missing):
 * srcdir gets its path, ident the tarball it came from.  what names the
 * request in messages.  0, or -1 with err. */
int ksource_unpack(const char *what, const char *pkg, const char *cache,
		   char *srcdir, size_t srclen, char *ident, size_t identlen,
		   char *err, size_t errlen);

/* The .config a src:/tree: build of srcdir uses (tinyconfig, then
 * fixtures/kernel/ttypot.config merged over it, then olddefconfig), made
 * in builddir without building the kernel.  0, or -1 with err. */
int kconfig_make(const char *what, const char *srcdir, const char *builddir,
		 char *err, size_t errlen);

/* Locate fixtures/kernel/ttypot.config ($TTYPOT_FRAGMENT, else next to the
 * ttypot executable, else the current directory). */
int kfragment_path(char *out, size_t outlen);

/* Start builddir (not there yet) as a copy of the finished build `from` of
 * the source `ident` (from's stamp names it, the same fragment and no
 * flavour), marked seeded: its builds run make with KBUILD_NOCMDDEP=1, so
 * an object is remade only when its source or a header it read is newer
 * (the command lines name the tree by its absolute path, which differs
 * between the two, and would remake them all).  The caller vouches that
 * every file of the new tree that differs from from's source is newer than
 * from's objects and that no header or Makefile differs.  1 seeded, 0 not
 * (why says why), -1 with why. */
int kbuild_seed(const char *from, const char *ident, const char *builddir, char *why,
		size_t whylen);

#endif
