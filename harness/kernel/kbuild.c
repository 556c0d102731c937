// SPDX-License-Identifier: GPL-2.0-only
/* kbuild.c: the out-of-tree kernel build shared by src: and tree: specs
 * (tinyconfig + fixtures/kernel/ttypot.config [+ a flavour's fragment],
 * ccache, a stamp to reuse). */
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BUILD_DEADLINE_S (90 * 60)
/* Generous: make tinyconfig runs niced and, beside a TCG guest and another
 * build on 2 cores, took over 5 minutes once. */
#define CONFIG_DEADLINE_MS (20 * 60 * 1000)

static bool
in_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char f[PATH_MAX];
		if (ku_fmt(f, sizeof f, "%.*s/%s", (int)n, path, name) > 0 &&
		    access(f, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* The tools a kernel build needs, named before a build fails on the first
 * one missing deep in its log ("flex: not found").  0, or -1 with err. */
static int
build_tools_present(const char *what, char *err, size_t errlen)
{
	static const char *const tools[] = {"make", "gcc", "flex", "bison",
					    "bc", "xz", "perl"};
	char missing[256] = "";
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
		if (!in_path(tools[i]))
			snprintf(missing + strlen(missing),
				 sizeof missing - strlen(missing), " %s", tools[i]);
	/* objtool needs libelf's headers */
	if (!ku_is_file("/usr/include/gelf.h"))
		snprintf(missing + strlen(missing), sizeof missing - strlen(missing),
			 " gelf.h (libelf-dev)");
	if (!missing[0])
		return 0;
	snprintf(err, errlen, "%s: cannot build a kernel here, missing:%s "
		 "(as root: harness/deps.sh matrix)", what, missing);
	return -1;
}

static int
fragment_search(char *out, size_t outlen)
{
	const char *env = getenv("TTYPOT_FRAGMENT");
	if (env && *env) {
		if (ku_fmt(out, outlen, "%s", env) > 0 && ku_is_file(out))
			return 0;
		return -1;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *d = dirname(exe);
		/* harness/ttypot, harness/tests/t_x, PREFIX/bin/ttypot */
		const char *rel[] = {"..", "../..", "../lib/ttypot/tests", "."};
		for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
			if (ku_fmt(out, outlen,
				   "%s/%s/fixtures/kernel/ttypot.config", d,
				   rel[i]) > 0 &&
			    ku_is_file(out))
				return 0;
	}
	if (ku_fmt(out, outlen, "fixtures/kernel/ttypot.config") > 0 &&
	    ku_is_file(out))
		return 0;
	return -1;
}

int
kfragment_path(char *out, size_t outlen)
{
	char found[PATH_MAX], abs[PATH_MAX];
	if (fragment_search(found, sizeof found) < 0 || !realpath(found, abs))
		return -1;
	return ku_fmt(out, outlen, "%s", abs) < 0 ? -1 : 0;
}

/* Last lines of a log file, for a build failure message. */
static void
log_tail(const char *path, char *out, size_t outlen, int lines)
{
	size_t len = 0;
	char *s = ku_read_file(path, &len);
	out[0] = '\0';
	if (!s)
		return;
	size_t i = len;
	while (i > 0 && s[i - 1] == '\n')
		i--;
	size_t end = i;
	for (int k = 0; i > 0 && k < lines; k++) {
		i--;
		while (i > 0 && s[i - 1] != '\n')
			i--;
	}
	snprintf(out, outlen, "%.*s", (int)(end - i), s + i);
	for (char *p = out; *p; p++)
		if (*p == '\n')
			*p = '|';
	free(s);
}

#define SEEDED_MARK "ttypot-seeded"

/* What a build's ttypot.stamp holds: the source, the fragment and the
 * flavour's fragment (flavour "" or NULL: none) it was built from. */
static void
stamp_text(char *out, size_t outlen, const char *identity, const char *fraghex,
	   const char *flavour, const char *ffraghex)
{
	bool flavoured = flavour && *flavour;
	snprintf(out, outlen, "source=%s\nfragment=%s\n%s%s%s%s", identity, fraghex,
		 flavoured ? "flavour=" : "", flavoured ? flavour : "", flavoured ? " " : "",
		 flavoured ? ffraghex : "");
}

/* ku_once's fill for kbuild_seed: from's files, without its stamp (from's
 * identity is not the new tree's), and the seeded mark. */
static int
fill_seed(const char *tmpdir, void *arg, char *err, size_t errlen)
{
	const char *from = arg;
	char src[PATH_MAX + 4], p[PATH_MAX + 32];
	ku_fmt(src, sizeof src, "%s/.", from);
	const char *argv[] = {"cp", "-a", src, tmpdir, NULL};
	struct proc_opts o = {.deadline_ms = 20 * 60 * 1000};
	if (proc_check(argv, &o, err, errlen) < 0)
		return -1;
	ku_fmt(p, sizeof p, "%s/ttypot.stamp", tmpdir);
	unlink(p);
	ku_fmt(p, sizeof p, "%s/%s", tmpdir, SEEDED_MARK);
	if (ku_write_file(p, from, strlen(from)) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", p, strerror(errno));
		return -1;
	}
	return 0;
}

static int
seed_locked(const char *from, const char *ident, const char *builddir, char *why,
	    size_t whylen)
{
	char frag[PATH_MAX], fraghex[65], stamp[PATH_MAX + 32], vml[PATH_MAX + 32];
	ku_fmt(stamp, sizeof stamp, "%s/ttypot.stamp", from);
	ku_fmt(vml, sizeof vml, "%s/vmlinux", from);
	char *st = ku_read_file(stamp, NULL);
	if (!st || !ku_is_file(vml)) {
		snprintf(why, whylen, "%s holds no finished build", from);
		free(st);
		return 0;
	}
	if (kfragment_path(frag, sizeof frag) < 0 || ku_sha256_file(frag, fraghex) < 0) {
		snprintf(why, whylen, "no config fragment");
		free(st);
		return 0;
	}
	/* The same source (a newer unpack may carry older mtimes than these
	 * objects) and the same config (the command-line flags a config
	 * implies are not compared under KBUILD_NOCMDDEP). */
	char want[PATH_MAX + 200];
	stamp_text(want, sizeof want, ident, fraghex, NULL, NULL);
	bool same = !strcmp(st, want);
	free(st);
	if (!same) {
		snprintf(why, whylen, "%s was built from another source or config fragment",
			 from);
		return 0;
	}
	char what[PATH_MAX + 32];
	ku_fmt(what, sizeof what, "seeding %s", builddir);
	if (ku_once(builddir, false, what, BUILD_DEADLINE_S, fill_seed, (void *)from, why,
		    whylen) < 0)
		return -1;
	return 1;
}

int
kbuild_seed(const char *from, const char *ident, const char *builddir, char *why,
	    size_t whylen)
{
	why[0] = '\0';
	if (ku_is_dir(builddir))
		return 0;
	/* from's own lock (kbuild's): a rebuild of it with another fragment
	 * (two ttypot versions sharing the cache) never meets the copy. */
	char lockp[PATH_MAX + 8];
	ku_fmt(lockp, sizeof lockp, "%s.lock", from);
	int lk = ku_lock(lockp, BUILD_DEADLINE_S, "seeding a schemata build");
	if (lk < 0) {
		snprintf(why, whylen, "cannot lock %s: %s", lockp, strerror(errno));
		return -1;
	}
	int rc = seed_locked(from, ident, builddir, why, whylen);
	ku_unlock(lk);
	return rc;
}

/* One make step; output to the build log.  0 or -1 with err. */
static int
make_step(const char *what, const char *srcdir, const char *builddir,
	  const char *logpath, const char *target, const char *jobs,
	  int deadline_s, char *err, size_t errlen)
{
	char odir[PATH_MAX + 4], cc[64];
	ku_fmt(odir, sizeof odir, "O=%s", builddir);
	bool have_ccache = access("/usr/bin/ccache", X_OK) == 0;
	snprintf(cc, sizeof cc, "CC=%s", have_ccache ? "ccache gcc" : "gcc");
	char mark[PATH_MAX + 32];
	ku_fmt(mark, sizeof mark, "%s/%s", builddir, SEEDED_MARK);
	const char *argv[] = {"make", "-C", srcdir, odir, "ARCH=x86_64", cc,
			      jobs ? jobs : target, jobs ? target : NULL,
			      NULL, NULL};
	if (ku_is_file(mark)) /* kbuild_seed */
		argv[jobs ? 8 : 7] = "KBUILD_NOCMDDEP=1";
	char e[256];
	struct proc_opts o = {.stdout_path = logpath, .stdout_append = true,
			      .stderr_path = logpath, .nice = 10};
	pid_t pid = proc_spawn(argv, &o, e, sizeof e);
	if (pid < 0) {
		snprintf(err, errlen, "%s: %s", what, e);
		return -1;
	}
	double t0 = proc_now(), last = t0;
	int st = -1;
	for (;;) {
		if (proc_poll_exit(pid, &st))
			break;
		double now = proc_now();
		if (now - t0 > deadline_s) {
			proc_kill(pid, 2000);
			snprintf(err, errlen, "%s: make %s timed out after %d s "
				 "(log: %.300s)", what, target, deadline_s,
				 logpath);
			return -1;
		}
		if (now - last >= 60) {
			ku_progress("%s: still building (%.0f s)", what,
				    now - t0);
			last = now;
		}
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (st != 0) {
		char tail[300];
		log_tail(logpath, tail, sizeof tail, 3);
		snprintf(err, errlen, "%s: build failed (make %s exit %d): "
			 "%s (log: %.300s)", what, target, st, tail, logpath);
		return -1;
	}
	return 0;
}

/* The mtime every file of a seeded build's objtool gets (backdate_file). */
static struct timespec objtool_time;

static int
backdate_file(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	if (type == FTW_F) {
		struct timespec ts[2] = {objtool_time, objtool_time};
		if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) < 0)
			return -1;
	}
	return 0;
}

/* In a seeded build every object depends on the objtool binary, and the
 * tools' own build (no Kbuild: KBUILD_NOCMDDEP is not read there) remakes
 * objtool because its command lines name the other tree: which would make
 * every object again.  So objtool is made first, from the same sources (a
 * seeded tree differs from its source in no tools/ file, mseed.h), and its
 * whole output directory given the seed's objtool mtime: not newer than
 * the seeded objects, not older than its own inputs.  0, or -1 with err. */
static int
keep_seeded_objtool(const char *what, const char *srcdir, const char *builddir,
		    const char *logpath, const char *jobs, char *err, size_t errlen)
{
	char mark[PATH_MAX + 32], dir[PATH_MAX + 32], tool[PATH_MAX + 32];
	ku_fmt(mark, sizeof mark, "%s/%s", builddir, SEEDED_MARK);
	ku_fmt(dir, sizeof dir, "%s/tools/objtool", builddir);
	ku_fmt(tool, sizeof tool, "%s/objtool", dir);
	struct stat st;
	if (!ku_is_file(mark) || stat(tool, &st) < 0)
		return 0;
	if (make_step(what, srcdir, builddir, logpath, "tools/objtool", jobs,
		      BUILD_DEADLINE_S, err, errlen) < 0)
		return -1;
	objtool_time = st.st_mtim;
	if (nftw(dir, backdate_file, 16, FTW_PHYS) < 0) {
		snprintf(err, errlen, "%s: backdating %s: %s", what, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Warn about fragment options the final .config does not have. */
static void
check_fragment(const char *what, const char *frag, const char *config)
{
	char *f = ku_read_file(frag, NULL), *c = ku_read_file(config, NULL);
	if (!f || !c)
		goto out;
	for (char *line = strtok(f, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "CONFIG_", 7))
			continue;
		char want[256];
		bool off = strstr(line, "=n") != NULL;
		if (off) {
			snprintf(want, sizeof want, "# %.*s is not set",
				 (int)strcspn(line, "="), line);
		} else {
			snprintf(want, sizeof want, "%s", line);
		}
		char *hit = strstr(c, want);
		size_t wl = strlen(want);
		bool ok = hit && (hit == c || hit[-1] == '\n') &&
			  (hit[wl] == '\n' || hit[wl] == '\0');
		if (!ok && !(off && !strstr(c, want) &&
			     !strstr(c, line)))
			ku_progress("%s: fragment option not in .config "
				    "(unavailable in this kernel?): %s",
				    what, line);
	}
out:
	free(f);
	free(c);
}

/* tinyconfig, the fragment (and a flavour's, ffrag, unless NULL) merged
 * over it, olddefconfig: builddir/.config.  0, or -1 with err. */
static int
kconfig_steps(const char *what, const char *srcdir, const char *builddir,
	      const char *frag, const char *ffrag, const char *logpath,
	      char *err, size_t errlen)
{
	char config[PATH_MAX + 32];
	ku_fmt(config, sizeof config, "%s/.config", builddir);
	if (make_step(what, srcdir, builddir, logpath, "tinyconfig",
		      NULL, CONFIG_DEADLINE_MS / 1000, err, errlen) < 0)
		return -1;
	char merge[PATH_MAX + 64];
	ku_fmt(merge, sizeof merge, "%s/scripts/kconfig/merge_config.sh",
	       srcdir);
	const char *margv[] = {merge, "-m", "-O", builddir, config,
			       frag, ffrag, NULL};
	struct proc_opts mo = {.cwd = builddir,
			       .stdout_path = logpath,
			       .stdout_append = true,
			       .stderr_path = logpath,
			       .deadline_ms = CONFIG_DEADLINE_MS};
	struct proc_result *r = malloc(sizeof *r);
	if (!r || proc_run(margv, &mo, r) != 0) {
		snprintf(err, errlen, "%s: merge_config.sh failed: %s "
			 "(log: %.300s)", what, r ? r->err : "",
			 logpath);
		free(r);
		return -1;
	}
	free(r);
	if (make_step(what, srcdir, builddir, logpath, "olddefconfig",
		      NULL, CONFIG_DEADLINE_MS / 1000, err, errlen) < 0)
		return -1;
	check_fragment(what, frag, config);
	if (ffrag)
		check_fragment(what, ffrag, config);
	return 0;
}

int
kconfig_make(const char *what, const char *srcdir, const char *builddir,
	     char *err, size_t errlen)
{
	char frag[PATH_MAX], logpath[PATH_MAX + 32];
	if (kfragment_path(frag, sizeof frag) < 0) {
		snprintf(err, errlen, "%s: config fragment "
			 "fixtures/kernel/ttypot.config not found (set "
			 "TTYPOT_FRAGMENT)", what);
		return -1;
	}
	if (build_tools_present(what, err, errlen) < 0 ||
	    ku_mkdir_p(builddir, 0755) < 0)
		return -1;
	ku_fmt(logpath, sizeof logpath, "%s/ttypot-config.log", builddir);
	ku_write_file(logpath, "", 0);
	return kconfig_steps(what, srcdir, builddir, frag, NULL, logpath, err,
			     errlen);
}

/* Let every copy of the same source hit the same ccache entries: paths
 * relative to the common directory of source and build (the src: build,
 * the mutant copy and the bisect copy all sit at ../../src/NAME from their
 * build directory), and no hash of the working directory.  A
 * CCACHE_BASEDIR already set (by the user, or by `mutants`/`bisect`/`ci`)
 * wins.  Returns true when it set CCACHE_BASEDIR, to unset it after. */
static bool
ccache_share(const char *srcdir, const char *builddir)
{
	setenv("CCACHE_NOHASHDIR", "true", 0);
	const char *cur = getenv("CCACHE_BASEDIR");
	char dir[PATH_MAX];
	if ((cur && *cur) || ku_common_dir(srcdir, builddir, dir, sizeof dir) < 0)
		return false;
	setenv("CCACHE_BASEDIR", dir, 1);
	return true;
}

static int kbuild_steps(const char *what, const char *srcdir,
			const char *builddir, const char *identity,
			const char *flavour, struct kernel_info *out, char *err,
			size_t errlen);

int
kbuild(const char *what, const char *srcdir, const char *builddir,
       const char *identity, const char *flavour, struct kernel_info *out,
       char *err, size_t errlen)
{
	if (ku_mkdir_p(builddir, 0755) < 0) {
		snprintf(err, errlen, "%s: cannot create %s: %s", what,
			 builddir, strerror(errno));
		return -1;
	}
	/* Two ttypot processes building one directory (make check's tests
	 * beside a matrix) would wreck each other's build: one at a time. */
	char lockp[PATH_MAX + 8];
	ku_fmt(lockp, sizeof lockp, "%s.lock", builddir);
	int lk = ku_lock(lockp, BUILD_DEADLINE_S, what);
	if (lk < 0) {
		snprintf(err, errlen, "%s: cannot lock %s: %s", what, lockp,
			 strerror(errno));
		return -1;
	}
	bool set = ccache_share(srcdir, builddir);
	int rc = kbuild_steps(what, srcdir, builddir, identity, flavour, out,
			      err, errlen);
	if (set)
		unsetenv("CCACHE_BASEDIR");
	ku_unlock(lk);
	return rc;
}

static int
kbuild_steps(const char *what, const char *srcdir, const char *builddir,
	     const char *identity, const char *flavour, struct kernel_info *out,
	     char *err, size_t errlen)
{
	/* The fragments merged in order: ttypot.config, then the flavour's
	 * (fixtures/kernel/debug.config) beside it. */
	char frag[PATH_MAX], fraghex[65], ffrag[PATH_MAX + 32], ffraghex[65] = "";
	if (kfragment_path(frag, sizeof frag) < 0 ||
	    ku_sha256_file(frag, fraghex) < 0) {
		snprintf(err, errlen, "%s: config fragment "
			 "fixtures/kernel/ttypot.config not found (set "
			 "TTYPOT_FRAGMENT)", what);
		return -1;
	}
	bool flavoured = flavour && *flavour;
	if (flavoured) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%s", frag);
		ku_fmt(ffrag, sizeof ffrag, "%s/%s.config", dirname(dir), flavour);
		if (ku_sha256_file(ffrag, ffraghex) < 0) {
			snprintf(err, errlen, "%s: the %s flavour's config "
				 "fragment %s: %s", what, flavour, ffrag,
				 strerror(errno));
			return -1;
		}
	}
	char stamp_path[PATH_MAX + 32], image[PATH_MAX + 32],
		config[PATH_MAX + 32], logpath[PATH_MAX + 32],
		relpath[PATH_MAX + 64];
	ku_fmt(stamp_path, sizeof stamp_path, "%s/ttypot.stamp", builddir);
	ku_fmt(image, sizeof image, "%s/arch/x86/boot/bzImage", builddir);
	ku_fmt(config, sizeof config, "%s/.config", builddir);
	ku_fmt(logpath, sizeof logpath, "%s/ttypot-build.log", builddir);
	ku_fmt(relpath, sizeof relpath, "%s/include/config/kernel.release",
	       builddir);
	char stamp[2048] = "";
	if (identity)
		stamp_text(stamp, sizeof stamp, identity, fraghex, flavour, ffraghex);
	char *old = ku_read_file(stamp_path, NULL);
	bool reuse = identity && old && !strcmp(old, stamp) &&
		     ku_is_file(image);
	free(old);
	if (reuse) {
		ku_progress("%s: reusing the build in %s", what, builddir);
	} else {
		if (build_tools_present(what, err, errlen) < 0)
			return -1;
		double t0 = proc_now();
		unlink(stamp_path);
		ku_write_file(logpath, "", 0);
		ku_progress("%s: configuring in %s (log: %s)", what, builddir,
			    logpath);
		if (kconfig_steps(what, srcdir, builddir, frag,
				  flavoured ? ffrag : NULL, logpath, err,
				  errlen) < 0)
			return -1;
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		char jobs[32];
		snprintf(jobs, sizeof jobs, "-j%ld", ncpu > 0 ? ncpu : 2);
		if (keep_seeded_objtool(what, srcdir, builddir, logpath, jobs, err, errlen) < 0)
			return -1;
		ku_progress("%s: building bzImage (%s)", what, jobs);
		if (make_step(what, srcdir, builddir, logpath, "bzImage", jobs,
			      BUILD_DEADLINE_S, err, errlen) < 0)
			return -1;
		if (!ku_is_file(image)) {
			snprintf(err, errlen, "%s: build produced no %s", what,
				 image);
			return -1;
		}
		if (identity)
			ku_write_file(stamp_path, stamp, strlen(stamp));
		ku_progress("%s: built in %.0f s", what, proc_now() - t0);
	}
	if (kimage_check(image, NULL, 0, err, errlen) < 0)
		return -1;
	snprintf(out->image, sizeof out->image, "%.1000s", image);
	/* The run boots its own copy: this directory may be rebuilt with
	 * another fragment before the run's boot (two ttypot versions sharing
	 * the cache take turns here; seen: a column booting the other
	 * config's kernel).  Without a stamp there is no key to name it by. */
	if (identity && kimage_publish(builddir, image, stamp, KIMAGE_KEEP, out->image,
				       sizeof out->image, err, errlen) < 0)
		return -1;
	char *rel = ku_read_file(relpath, NULL);
	if (rel) {
		rel[strcspn(rel, "\n")] = '\0';
		snprintf(out->release, sizeof out->release, "%s", rel);
		free(rel);
	} else {
		kimage_check(image, out->release, sizeof out->release, err,
			     errlen);
	}
	kimage_config_hash(config, out);
	snprintf(out->flavour, sizeof out->flavour, "%s", flavoured ? flavour : "");
	return 0;
}
