// SPDX-License-Identifier: GPL-2.0-only
/* resolve_src.c: src:linux-source-X.Y kernels (Debian source packages, built by kbuild.c). */
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define UNPACK_DEADLINE_MS (20 * 60 * 1000)

int
ksource_unpack(const char *what, const char *pkg, const char *cache,
	       char *srcdir, size_t srclen, char *ident, size_t identlen,
	       char *err, size_t errlen)
{
	char tar[PATH_MAX];
	ku_fmt(tar, sizeof tar, "/usr/src/%s.tar.xz", pkg);
	if (!ku_is_file(tar)) {
		if (geteuid() != 0) {
			snprintf(err, errlen, "kernel spec '%s': %s is missing: "
				 "install the Debian package %s", what, tar,
				 pkg);
			return -1;
		}
		ku_progress("installing %s", pkg);
		/* apt waits for the dpkg lock another install holds */
		const char *argv[] = {"apt-get", "install", "-y", "-q",
				      "-o", "DPkg::Lock::Timeout=1200",
				      "--no-install-recommends", pkg, NULL};
		char *envp[] = {"DEBIAN_FRONTEND=noninteractive",
				"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
		struct proc_opts o = {.envp = envp,
				      .deadline_ms = 30 * 60 * 1000};
		struct proc_result *r = malloc(sizeof *r);
		if (r)
			proc_run((const char *const *)argv, &o, r);
		bool ok = r && r->status == 0 && ku_is_file(tar);
		free(r);
		if (!ok) {
			snprintf(err, errlen, "kernel spec '%s': cannot install "
				 "%s (unknown package? run apt-get update)",
				 what, pkg);
			return -1;
		}
	}
	struct stat st;
	if (stat(tar, &st) < 0) {
		snprintf(err, errlen, "%s: %s", tar, strerror(errno));
		return -1;
	}
	ku_fmt(ident, identlen, "tar:%s size=%lld mtime=%lld", tar,
	       (long long)st.st_size, (long long)st.st_mtime);

	/* Unpack once; the marker says from which tarball. */
	char marker[PATH_MAX + 32], parent[PATH_MAX];
	ku_fmt(parent, sizeof parent, "%s/src", cache);
	ku_fmt(srcdir, srclen, "%s/%s", parent, pkg);
	ku_fmt(marker, sizeof marker, "%s/.ttypot-unpacked", srcdir);
	/* One unpack at a time (make check's tests may resolve it at once). */
	char lockp[PATH_MAX + 8];
	ku_fmt(lockp, sizeof lockp, "%s.lock", srcdir);
	ku_mkdir_p(parent, 0755);
	char doing[PATH_MAX + 16];
	ku_fmt(doing, sizeof doing, "%s: unpacking %s", what, tar);
	int lk = ku_lock(lockp, UNPACK_DEADLINE_MS / 1000 * 2, doing);
	if (lk < 0) {
		snprintf(err, errlen, "%s: cannot lock %s: %s", what, lockp,
			 strerror(errno));
		return -1;
	}
	char *m = ku_read_file(marker, NULL);
	bool fresh = m && !strncmp(m, ident, strlen(ident));
	free(m);
	if (!fresh) {
		char tmp[PATH_MAX + 8], inner[PATH_MAX + 300];
		ku_rm_rf(srcdir);
		if (ku_tmpdir_beside(srcdir, tmp, sizeof tmp) < 0) {
			snprintf(err, errlen, "%s: cannot create %s: %s",
				 what, tmp, strerror(errno));
			ku_unlock(lk);
			return -1;
		}
		ku_progress("%s: unpacking %s", what, tar);
		double t0 = proc_now();
		const char *argv[] = {"tar", "-xf", tar, "-C", tmp, NULL};
		struct proc_opts o = {.deadline_ms = UNPACK_DEADLINE_MS};
		struct proc_result *r = malloc(sizeof *r);
		int rc = r ? proc_run(argv, &o, r) : -1;
		free(r);
		ku_fmt(inner, sizeof inner, "%s/%s", tmp, pkg);
		if (rc != 0 || !ku_is_dir(inner) || rename(inner, srcdir) < 0) {
			snprintf(err, errlen, "%s: cannot unpack %s", what,
				 tar);
			ku_rm_rf(tmp);
			ku_unlock(lk);
			return -1;
		}
		ku_rm_rf(tmp);
		char line[PATH_MAX + 120];
		int n = ku_fmt(line, sizeof line, "%s\n", ident);
		ku_write_file(marker, line, n > 0 ? (size_t)n : 0);
		ku_progress("%s: unpacked in %.0f s", what, proc_now() - t0);
	}
	ku_unlock(lk);
	return 0;
}

int
resolve_src(const struct kspec *s, const char *cache, struct kernel_info *out,
	    char *err, size_t errlen)
{
	char srcdir[PATH_MAX], ident[PATH_MAX + 100];
	if (ksource_unpack(s->text, s->arg, cache, srcdir, sizeof srcdir,
			   ident, sizeof ident, err, errlen) < 0)
		return -1;
	char builddir[PATH_MAX];
	ku_fmt(builddir, sizeof builddir, "%s/build/src-%s%s%s", cache, s->arg,
	       s->flavour[0] ? "-" : "", s->flavour);
	if (kbuild(s->text, srcdir, builddir, ident, s->flavour, out, err,
		   errlen) < 0)
		return -1;
	snprintf(out->label, sizeof out->label, "%.100s%s%s", s->arg,
		 s->flavour[0] ? "+" : "", s->flavour);
	snprintf(out->version, sizeof out->version, "%s",
		 s->arg + strlen("linux-source-"));
	/* The Debian version of the source, when dpkg knows it. */
	const char *qargv[] = {"dpkg-query", "-W", "-f=${Version}", s->arg,
			       NULL};
	struct proc_opts qo = {.deadline_ms = 30000};
	struct proc_result *r = malloc(sizeof *r);
	if (r && proc_run(qargv, &qo, r) == 0 && r->out[0])
		snprintf(out->version, sizeof out->version, "%.255s", r->out);
	free(r);
	return 0;
}
