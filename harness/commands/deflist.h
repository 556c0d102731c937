/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * deflist.h: the kernels of `ttypot matrix`: the command line with its
 * presets expanded, or the default set when it names none.
 *   default: host, deb:linux-image-6.1.0-<newest ABI>-amd64, the oldest ABI
 *     the apt lists still have, the cloud-amd64 and rt-amd64 flavours of
 *     the newest ABI that has them, src:linux-source-6.12;
 *   abi: the newest 6.1 ABI as four columns: amd64, amd64+compat32,
 *     arm64 (:arm64) and powerpc64le (:ppc64el).
 * ABIs come from apt-cache search; the other architectures' packages are
 * looked up in their own apt lists (apt-cache show PKG:ARCH).
 */
#ifndef TTYPOT_DEFLIST_H
#define TTYPOT_DEFLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"
#include "rbuf.h"
#include "result.h"

/* The names `ttypot matrix` takes for a set of kernels, for messages. */
#define DEFLIST_PRESETS "default, abi"

/* Where the lists come from: apt-cache, or a test's fake lists. */
struct apt_src {
	/* `apt-cache search --names-only REGEX` ("name - description"
	 * lines).  0, or -1 with a message. */
	int (*search)(void *ctx, const char *regex, struct rbuf *out, char *err,
		      size_t errlen);
	/* Which of the n packages pkgs[i] of Debian architecture debarchs[i]
	 * are in the apt lists (found[i])?  0, or -1 with a message (apt-cache
	 * could not run). */
	int (*has)(void *ctx, const char *const *pkgs, const char *const *debarchs,
		   size_t n, bool *found, char *err, size_t errlen);
	void *ctx;
};
/* The real one: apt-cache search, and one apt-cache show for the
 * packages (60 s deadline each). */
extern const struct apt_src deflist_apt;

/* From `apt-cache search` output (package names before " - "). */
int deflist_from_names(const char *apt_output, struct idlist *out, char *err,
		       size_t errlen);
/* The abi preset from the same output; its packages are checked with
 * apt->has.  -1 with a message naming a missing package. */
int deflist_abi_from_names(const char *apt_output, const struct apt_src *apt,
			   struct idlist *out, char *err, size_t errlen);
/* Runs apt-cache.  -1 with a message (e.g. apt lists missing). */
int deflist_kernels(struct idlist *out, char *err, size_t errlen);

/* Is arg written as a preset (a bare lower-case word, not "host")?  Such a
 * word that is neither a preset nor an existing file is an error; an image
 * file named like a preset is written ./NAME. */
bool deflist_preset_like(const char *arg);

/* The command line's kernels with presets expanded in place (a spec a
 * preset brings that is already in the list is not repeated); no kernels
 * at all is the default preset.  -1 with a message naming an unknown
 * preset or a package the apt lists lack. */
int deflist_expand(const struct apt_src *apt, char *const *args, int nargs,
		   struct idlist *out, char *err, size_t errlen);

/* Parse specs->v[i] into out[i] (specs->n of them); arch (--arch, may be
 * NULL) is set on every kernel image path (kspec_set_arch), and must have
 * one to apply to.  -1 with a message naming the spec. */
int deflist_parse_specs(const struct idlist *specs, const char *arch,
			struct kspec *out, char *err, size_t errlen);

#endif
