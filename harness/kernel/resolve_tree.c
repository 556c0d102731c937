// SPDX-License-Identifier: GPL-2.0-only
/* resolve_tree.c: tree:DIR kernels, built out of tree into the cache. */
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* git sha (+"-dirty") of dir; "" when it is not a git checkout. */
static void
git_version(const char *dir, char *out, size_t outlen, bool *dirty)
{
	struct proc_result *r = malloc(sizeof *r);
	out[0] = '\0';
	*dirty = false;
	if (!r)
		return;
	const char *a1[] = {"git", "-C", dir, "rev-parse", "HEAD", NULL};
	struct proc_opts o = {.deadline_ms = 60000, .stderr_path = "/dev/null"};
	if (proc_run(a1, &o, r) == 0 && r->out_len >= 40) {
		const char *a2[] = {"git", "--no-optional-locks", "-C", dir,
				    "status", "--porcelain",
				    "--untracked-files=no", NULL};
		char sha[41];
		snprintf(sha, sizeof sha, "%.40s", r->out);
		if (proc_run(a2, &o, r) != 0 || r->out_len > 0)
			*dirty = true;
		snprintf(out, outlen, "%s%s", sha, *dirty ? "-dirty" : "");
	}
	free(r);
}

int
resolve_tree(const struct kspec *s, const char *cache, struct kernel_info *out,
	     char *err, size_t errlen)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32];
	if (!realpath(s->arg, dir) || !ku_is_dir(dir)) {
		snprintf(err, errlen, "kernel tree %s: %s", s->arg,
			 errno ? strerror(errno) : "not a directory");
		return -1;
	}
	ku_fmt(probe, sizeof probe, "%s/Kconfig", dir);
	bool ok = ku_is_file(probe);
	ku_fmt(probe, sizeof probe, "%s/arch/x86/boot", dir);
	if (!ok || !ku_is_dir(probe)) {
		snprintf(err, errlen, "not a kernel source tree: %s", s->arg);
		return -1;
	}
	/* O= builds refuse a tree with an in-tree build; we never clean it. */
	ku_fmt(probe, sizeof probe, "%s/.config", dir);
	if (ku_is_file(probe)) {
		snprintf(err, errlen, "kernel tree %s has an in-tree build "
			 "(.config): out-of-tree builds need a clean tree "
			 "(make mrproper there)", s->arg);
		return -1;
	}
	bool dirty;
	git_version(dir, out->version, sizeof out->version, &dirty);
	char hex[65], builddir[PATH_MAX];
	ku_sha256_hex(dir, strlen(dir), hex);
	ku_fmt(builddir, sizeof builddir, "%s/build/tree-%.16s%s%s", cache, hex,
	       s->flavour[0] ? "-" : "", s->flavour);
	/* A clean commit can be reused; a dirty tree always runs make
	 * (incremental, so cheap when little changed). */
	char ident[PATH_MAX + 100];
	const char *identity = NULL;
	if (out->version[0] && !dirty) {
		ku_fmt(ident, sizeof ident, "tree:%s git=%s", dir,
		       out->version);
		identity = ident;
	}
	if (kbuild(s->text, dir, builddir, identity, s->flavour, out, err,
		   errlen) < 0)
		return -1;
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", dir);
	if (out->version[0])
		snprintf(out->label, sizeof out->label, "%.60s@%.12s%s%s%s",
			 basename(tmp), out->version, dirty ? "+" : "",
			 s->flavour[0] ? "+" : "", s->flavour);
	else
		snprintf(out->label, sizeof out->label, "%.100s%s%s",
			 basename(tmp), s->flavour[0] ? "+" : "", s->flavour);
	return 0;
}
