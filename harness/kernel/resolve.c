/* resolve.c: kernel_resolve(), one resolver per kind of kernel spec.
 * A new kind of kernel source is a new resolve_<kind>.c here. */
#include "kresolve.h"
#include "kutil.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
