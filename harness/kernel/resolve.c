// SPDX-License-Identifier: GPL-2.0-only
/* resolve.c: kernel_resolve(), one resolver per kind of kernel spec.
 * A new kind of kernel source is a new resolve_<kind>.c here. */
#include "kresolve.h"
#include "kutil.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The column label says the architecture and ABI when they are not the
 * default x86_64 one: "6.1.0-57-arm64 [arm64]",
 * "6.1.0-57-amd64 [x86_64-compat32]". */
static void
label_arch(struct kernel_info *k)
{
	if (!strcmp(k->arch, "x86_64") && !k->abi[0])
		return;
	char l[sizeof k->label];
	snprintf(l, sizeof l, "%.90s [%s%s%s]", k->label, k->arch,
		 k->abi[0] ? "-" : "", k->abi);
	memcpy(k->label, l, sizeof l);
}

static int
dispatch(const struct kspec *spec, const char *cache, struct kernel_info *out,
	 char *err, size_t errlen)
{
	/* A kernel of another architecture from source needs a cross kernel
	 * build (and its own config fragment): not there yet. */
	bool built = spec->kind == KSPEC_SRC || spec->kind == KSPEC_TREE;
	if (built && strcmp(spec->arch, "x86_64")) {
		snprintf(err, errlen, "kernel spec '%s': cross-building %s "
			 "for %s is not supported yet", spec->text,
			 spec->kind == KSPEC_SRC ? "src:" : "tree:", spec->arch);
		return -1;
	}
	if (built && spec->abi[0]) {
		snprintf(err, errlen, "kernel spec '%s': +compat32 needs "
			 "CONFIG_IA32_EMULATION=y, which the ttypot config "
			 "fragment (fixtures/kernel/ttypot.config) does not set: "
			 "not supported yet", spec->text);
		return -1;
	}
	switch (spec->kind) {
	case KSPEC_HOST:
		return resolve_host(spec, out, err, errlen);
	case KSPEC_IMAGE:
		return resolve_image(spec, out, err, errlen);
	case KSPEC_DEB:
		return resolve_deb(spec, cache, out, err, errlen);
	case KSPEC_RPM:
		return resolve_rpm(spec, cache, out, err, errlen);
	case KSPEC_SRC:
		return resolve_src(spec, cache, out, err, errlen);
	case KSPEC_TREE:
		return resolve_tree(spec, cache, out, err, errlen);
	}
	snprintf(err, errlen, "kernel spec '%s': unknown kind", spec->text);
	return -1;
}

int
kernel_resolve(const struct kspec *spec, const char *cache_dir,
	       struct kernel_info *out, char *err, size_t errlen)
{
	char cache[1024];
	memset(out, 0, sizeof *out);
	snprintf(out->arch, sizeof out->arch, "%s",
		 spec->arch[0] ? spec->arch : "x86_64");
	snprintf(out->abi, sizeof out->abi, "%s", spec->abi);
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
	/* Builds run make -C SOURCE O=BUILD: a relative cache would be
	 * taken relative to the source. */
	char abs[PATH_MAX];
	if (cache[0] != '/' && realpath(cache, abs))
		ku_fmt(cache, sizeof cache, "%s", abs);
	if (dispatch(spec, cache, out, err, errlen) < 0)
		return -1;
	/* Resolvers may have learnt the arch from the kernel itself. */
	snprintf(out->abi, sizeof out->abi, "%s", spec->abi);
	label_arch(out);
	return 0;
}
