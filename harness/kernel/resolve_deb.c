// SPDX-License-Identifier: GPL-2.0-only
/* resolve_deb.c: deb:PACKAGE[=VERSION] and PATH.deb kernels. */
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define APT_DEADLINE_MS (15 * 60 * 1000)
#define DPKG_DEADLINE_MS (10 * 60 * 1000)

/* First line of a command's output, for error messages. */
static const char *
first_line(const struct proc_result *r, char *buf, size_t len)
{
	return proc_first_line(r->out, buf, len);
}

/* Value of "Field: value" in control-file text. */
static bool
control_field(const char *text, const char *field, char *out, size_t outlen)
{
	size_t fl = strlen(field);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (!strncmp(p, field, fl) && p[fl] == ':') {
			const char *v = p + fl + 1;
			while (*v == ' ')
				v++;
			size_t n = strcspn(v, "\n");
			if (n >= outlen)
				return false;
			memcpy(out, v, n);
			out[n] = '\0';
			return true;
		}
	}
	return false;
}

/* The linux-image-* package a meta package depends on, if any. */
static bool
image_dependency(const char *depends, char *out, size_t outlen)
{
	const char *p = strstr(depends, "linux-image-");
	if (!p)
		return false;
	size_t n = strcspn(p, " ,|(");
	if (n >= outlen)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

struct unpack_job {
	const char *deb, *what;
};

/* ku_once's fill: dpkg-deb -x the package into tmpdir. */
static int
unpack_into(const char *tmpdir, void *arg, char *err, size_t errlen)
{
	const struct unpack_job *j = arg;
	struct proc_result *r = malloc(sizeof *r);
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", j->what);
		return -1;
	}
	double t0 = proc_now();
	ku_progress("unpacking %s", j->deb);
	const char *xargv[] = {"dpkg-deb", "-x", j->deb, tmpdir, NULL};
	struct proc_opts o = {.deadline_ms = DPKG_DEADLINE_MS};
	int rc = proc_run(xargv, &o, r) == 0 ? 0 : -1;
	if (rc < 0) {
		char l[200];
		snprintf(err, errlen, "broken .deb %s: %s", j->deb,
			 r->err[0] ? r->err : first_line(r, l, sizeof l));
	} else {
		ku_progress("unpacked %s in %.1f s", j->deb, proc_now() - t0);
	}
	free(r);
	return rc;
}

/* Unpack a .deb (once) and fill out from its contents.  arch: the
 * kernel arch asked for, NULL when only the package says. */
static int
unpack_deb(const char *deb, const char *what, const char *cache,
	   const char *key, const char *arch, bool compat32,
	   bool follow_deps, struct kernel_info *out,
	   char *depend_pkg, size_t deplen, char *err, size_t errlen)
{
	struct proc_result *r = malloc(sizeof *r);
	char xdir[PATH_MAX];
	int rc = -1;
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	const char *fargv[] = {"dpkg-deb", "-f", deb, NULL};
	struct proc_opts fo = {.deadline_ms = DPKG_DEADLINE_MS};
	if (proc_run(fargv, &fo, r) != 0) {
		char l[200];
		snprintf(err, errlen, "broken .deb %s: %s", deb,
			 r->err[0] ? r->err : first_line(r, l, sizeof l));
		goto out;
	}
	char pkg[256] = "", version[256] = "", depends[2048] = "",
		darch[64] = "";
	control_field(r->out, "Package", pkg, sizeof pkg);
	control_field(r->out, "Version", version, sizeof version);
	control_field(r->out, "Depends", depends, sizeof depends);
	control_field(r->out, "Architecture", darch, sizeof darch);
	/* The package's architecture ("all" for some meta packages). */
	const char *parch = karch_canon(darch);
	if (arch && parch && strcmp(arch, parch)) {
		snprintf(err, errlen, "%s: %s is a package for %s, not %s",
			 what, deb, darch, karch_debian(arch));
		goto out;
	}
	if (!arch)
		arch = parch ? parch : "x86_64";

	ku_fmt(xdir, sizeof xdir, "%s/deb/x/%s", cache, key);
	char doing[PATH_MAX + 16];
	ku_fmt(doing, sizeof doing, "unpacking %s", deb);
	struct unpack_job uj = {.deb = deb, .what = what};
	if (ku_once(xdir, false, doing, DPKG_DEADLINE_MS / 1000 * 2, unpack_into,
		    &uj, err, errlen) < 0)
		goto out;
	char img[PATH_MAX + 200], rel[128];
	const char *prefix = kimage_deb_prefix(arch);
	if (!kpkg_boot_image(xdir, prefix, img, sizeof img, rel, sizeof rel)) {
		if (follow_deps && depend_pkg &&
		    image_dependency(depends, depend_pkg, deplen)) {
			rc = 1; /* a meta package: resolve its dependency */
			goto out;
		}
		snprintf(err, errlen, "%s: no boot/%s* in %s (not a "
			 "kernel image package)", what, prefix, deb);
		goto out;
	}
	if (kimage_check_arch(img, arch, NULL, 0, err, errlen) < 0)
		goto out;
	struct kpkg kp = {.what = what, .pkg = deb, .xdir = xdir, .image = img,
			  .rel = rel, .release = rel, .version = version,
			  .arch = arch, .compat32 = compat32};
	if (kpkg_fill(&kp, out, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	free(r);
	return rc;
}

/* The locks apt and dpkg hold while they rewrite the package lists, the
 * package cache or the status: held by a pid, or 0. */
static pid_t
apt_lock_holder(char *path, size_t len)
{
	static const char *const locks[] = {"/var/lib/apt/lists/lock",
					    "/var/lib/dpkg/lock-frontend",
					    "/var/cache/apt/archives/lock"};
	for (size_t i = 0; i < sizeof locks / sizeof *locks; i++) {
		int fd = open(locks[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		int rc = fcntl(fd, F_GETLK, &fl);
		close(fd);
		if (rc == 0 && fl.l_type != F_UNLCK) {
			snprintf(path, len, "%s", locks[i]);
			return fl.l_pid;
		}
	}
	return 0;
}

/* Until no apt or dpkg holds its locks (an install beside us, as t_deb's
 * autopkgtest does in make check), at most APT_DEADLINE_MS. */
static void
wait_apt_idle(const char *what)
{
	double t0 = proc_now(), said = t0;
	char path[64];
	pid_t pid;
	while ((pid = apt_lock_holder(path, sizeof path)) &&
	       proc_now() - t0 < APT_DEADLINE_MS / 1000.0) {
		if (proc_now() - said >= 30) {
			ku_progress("%s: waiting for apt (pid %d holds %s, %.0f s so far)",
				    what, (int)pid, path, proc_now() - t0);
			said = proc_now();
		}
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

struct download_job {
	const char *spec, *exact, *base;
};

/* ku_once's fill: apt-get download the exact version into tmpdir. */
static int
download_into(const char *tmpdir, void *arg, char *err, size_t errlen)
{
	const struct download_job *j = arg;
	struct proc_result *r = malloc(sizeof *r);
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", j->spec);
		return -1;
	}
	ku_progress("downloading %s", j->exact);
	double t0 = proc_now();
	const char *dargv[] = {"apt-get", "download", "-q", j->exact, NULL};
	struct proc_opts d = {.cwd = tmpdir, .deadline_ms = APT_DEADLINE_MS};
	char got[PATH_MAX];
	ku_fmt(got, sizeof got, "%s/%s", tmpdir, j->base);
	proc_run(dargv, &d, r);
	if ((r->status != 0 || !ku_is_file(got)) && !r->timed_out) {
		/* as resolve_pkg's apt-cache: another apt rewriting its lists */
		wait_apt_idle(j->spec);
		proc_run(dargv, &d, r);
	}
	int rc = 0;
	if (r->status != 0 || !ku_is_file(got)) {
		char l[300];
		const char *msg = r->err[0] ? r->err : first_line(r, l, sizeof l);
		if (r->timed_out)
			msg = "timed out";
		snprintf(err, errlen, "kernel spec '%s': apt-get download "
			 "%s failed: %s", j->spec, j->exact, msg);
		rc = -1;
	} else {
		ku_progress("downloaded %s in %.1f s", j->base, proc_now() - t0);
	}
	free(r);
	return rc;
}

static int
resolve_pkg(const struct kspec *s, const char *pkg, const char *pinned,
	    const char *cache, int depth, struct kernel_info *out, char *err,
	    size_t errlen)
{
	struct proc_result *r = malloc(sizeof *r);
	int rc = -1;
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", s->text);
		return -1;
	}
	/* PKG:ARCH when the spec names an architecture (apt's syntax). */
	char qual[300], want[512];
	if (s->arch_given)
		snprintf(qual, sizeof qual, "%.250s:%s", pkg,
			 karch_debian(s->arch));
	else
		snprintf(qual, sizeof qual, "%.250s", pkg);
	if (pinned && *pinned)
		snprintf(want, sizeof want, "%s=%s", qual, pinned);
	else
		snprintf(want, sizeof want, "%s", qual);
	/* What apt would fetch: the exact version and file name. */
	const char *sargv[] = {"apt-cache", "show", "--no-all-versions", want,
			       NULL};
	/* Without a pkgcache.bin every call parses the whole lists (8 s at a
	 * load of 7 here): minutes, not seconds, on a loaded machine. */
	struct proc_opts so = {.deadline_ms = 300000};
	char version[256] = "", filename[1024] = "";
	bool known = false;
	int timeouts = 0;
	for (int attempt = 0; !known && attempt < 2; attempt++) {
		/* Lists or a package cache that another apt is rewriting
		 * read as no such package (seen in make check beside t_deb):
		 * once more when apt is idle. */
		if (attempt)
			wait_apt_idle(s->text);
		known = proc_run(sargv, &so, r) == 0 &&
			control_field(r->out, "Version", version, sizeof version) &&
			control_field(r->out, "Filename", filename, sizeof filename);
		timeouts += r->timed_out;
	}
	if (!known && timeouts) {
		snprintf(err, errlen, "kernel spec '%s': apt-cache show %s timed "
			 "out after %d s (%d of 2 attempts; a loaded machine?)",
			 s->text, want, so.deadline_ms / 1000, timeouts);
		goto out;
	}
	if (!known) {
		snprintf(err, errlen, "kernel spec '%s': unknown package %s "
			 "(apt-cache has no such package/version; run "
			 "apt-get update?)", s->text, want);
		goto out;
	}
	const char *base = strrchr(filename, '/');
	base = base ? base + 1 : filename;
	char dl[PATH_MAX], deb[PATH_MAX + 600];
	ku_fmt(dl, sizeof dl, "%s/deb", cache);
	if (ku_mkdir_p(dl, 0755) < 0) {
		snprintf(err, errlen, "%s: cannot create %s: %s", s->text, dl,
			 strerror(errno));
		goto out;
	}
	ku_fmt(deb, sizeof deb, "%s/%s", dl, base);
	char exact[600], doing[700];
	snprintf(exact, sizeof exact, "%s=%s", qual, version);
	ku_fmt(doing, sizeof doing, "%s: downloading %s", s->text, exact);
	struct download_job dj = {.spec = s->text, .exact = exact, .base = base};
	if (ku_once(deb, true, doing, APT_DEADLINE_MS / 1000 * 2, download_into,
		    &dj, err, errlen) < 0)
		goto out;
	char key[512];
	snprintf(key, sizeof key, "%.*s", (int)(strlen(base) - 4), base);
	char dep[256] = "";
	rc = unpack_deb(deb, s->text, cache, key,
			s->arch_given ? s->arch : NULL, s->abi[0] != 0,
			depth == 0, out, dep,
			sizeof dep, err, errlen);
	if (rc == 1) {
		ku_progress("%s is a meta package: following %s", pkg, dep);
		rc = resolve_pkg(s, dep, NULL, cache, depth + 1, out, err,
				 errlen);
	}
out:
	free(r);
	return rc;
}

int
resolve_deb(const struct kspec *s, const char *cache, struct kernel_info *out,
	    char *err, size_t errlen)
{
	if (!s->deb_is_file)
		return resolve_pkg(s, s->arg, s->version, cache, 0, out, err,
				   errlen);
	char abs[PATH_MAX];
	if (!realpath(s->arg, abs) || !ku_is_file(abs)) {
		snprintf(err, errlen, "kernel .deb %s: %s", s->arg,
			 errno ? strerror(errno) : "not a regular file");
		return -1;
	}
	char hex[65], key[80];
	if (ku_sha256_file(abs, hex) < 0) {
		snprintf(err, errlen, "kernel .deb %s: %s", s->arg,
			 strerror(errno));
		return -1;
	}
	snprintf(key, sizeof key, "file-%.16s", hex);
	return unpack_deb(abs, s->arg, cache, key,
			  s->arch_given ? s->arch : NULL, s->abi[0] != 0,
			  false, out, NULL, 0, err, errlen);
}
