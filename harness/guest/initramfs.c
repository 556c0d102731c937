// SPDX-License-Identifier: GPL-2.0-only
/* initramfs.c: pack busybox, kyua (+ libraries), the built suite and the
 * guest init into a gzip'd newc cpio; per-kernel extra segments. */
#include "guest.h"
#include "kutil.h"
#include "proc.h"
#include "initramfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOL_DEADLINE_MS (5 * 60 * 1000)

struct stage {
	char dir[PATH_MAX];
	char **elves; /* ELF files whose libraries we need */
	size_t nelves, cap;
	char *err;
	size_t errlen;
};

static int
stage_fail(struct stage *s, const char *fmt, const char *a, const char *b)
{
	snprintf(s->err, s->errlen, fmt, a, b);
	return -1;
}

static bool
is_elf(const char *path)
{
	char m[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool elf = read(fd, m, 4) == 4 && !memcmp(m, "\177ELF", 4);
	close(fd);
	return elf;
}

static int
note_elf(struct stage *s, const char *path)
{
	if (s->nelves == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		char **n = realloc(s->elves, nc * sizeof *n);
		if (!n)
			return -1;
		s->elves = n, s->cap = nc;
	}
	s->elves[s->nelves] = strdup(path);
	return s->elves[s->nelves++] ? 0 : -1;
}

/* Copy host file `path` into the stage at the same path (its directory
 * resolved, so /lib/x/libc.so.6 lands where the guest's /lib points). */
static int
stage_host_file(struct stage *s, const char *path)
{
	char tmp[PATH_MAX], dir[PATH_MAX], dst[2 * PATH_MAX + 2],
		ddir[2 * PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	if (!realpath(dirname(tmp), dir))
		return stage_fail(s, "initramfs: %s: %s", path,
				  strerror(errno));
	snprintf(tmp, sizeof tmp, "%s", path);
	ku_fmt(ddir, sizeof ddir, "%s%s", s->dir, dir);
	ku_fmt(dst, sizeof dst, "%s/%s", ddir, basename(tmp));
	if (ku_is_file(dst))
		return 0;
	if (ku_mkdir_p(ddir, 0755) < 0 || ku_copy_file(path, dst) < 0)
		return stage_fail(s, "initramfs: cannot copy %s: %s", path,
				  strerror(errno));
	return 0;
}

/* Copy a tree of the suite, skipping sources and build leftovers. */
static int
stage_tree(struct stage *s, const char *from, const char *to, int depth)
{
	DIR *d = opendir(from);
	if (!d)
		return stage_fail(s, "initramfs: %s: %s", from,
				  strerror(errno));
	if (ku_mkdir_p(to, 0755) < 0) {
		closedir(d);
		return stage_fail(s, "initramfs: cannot create %s: %s", to,
				  strerror(errno));
	}
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		const char *n = e->d_name;
		size_t l = strlen(n);
		if (n[0] == '.')
			continue;
		if (l > 2 && n[l - 2] == '.' &&
		    strchr("cohda", n[l - 1]))
			continue;
		if (l > 3 && (!strcmp(n + l - 3, ".db") ||
			      !strcmp(n + l - 4, ".log")))
			continue;
		/* Kernel build inputs stay on the host. */
		if (depth == 0 && (!strcmp(n, "kernel") || !strcmp(n, "bad") ||
				   !strcmp(n, "mutants")))
			continue;
		char src[PATH_MAX], dst[PATH_MAX];
		if (ku_fmt(src, sizeof src, "%s/%s", from, n) < 0 ||
		    ku_fmt(dst, sizeof dst, "%s/%s", to, n) < 0)
			continue;
		struct stat st;
		if (stat(src, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = stage_tree(s, src, dst, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			if (ku_copy_file(src, dst) < 0)
				rc = stage_fail(s, "initramfs: cannot copy "
						"%s: %s", src, strerror(errno));
			else if ((st.st_mode & 0111) && is_elf(src))
				rc = note_elf(s, src);
		}
	}
	closedir(d);
	return rc;
}

/* The shared-library closure of every ELF noted, via ldd. */
static int
stage_libraries(struct stage *s)
{
	struct proc_result *r = malloc(sizeof *r);
	if (!r)
		return stage_fail(s, "initramfs: %s%s", "out of memory", "");
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->nelves; i++) {
		const char *argv[] = {"ldd", s->elves[i], NULL};
		struct proc_opts o = {.deadline_ms = 30000};
		if (proc_run(argv, &o, r) != 0)
			continue; /* static, or not for this loader */
		for (char *l = strtok(r->out, "\n"); l && rc == 0;
		     l = strtok(NULL, "\n")) {
			char *p = strstr(l, "=> ");
			p = p ? p + 3 : l;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p != '/')
				continue;
			p[strcspn(p, " ")] = '\0';
			rc = stage_host_file(s, p);
		}
	}
	free(r);
	return rc;
}

/* The case list, made here where the suite runs natively: without it the
 * guest's run-suite.sh starts every test program under TCG only to count
 * cases, about 7 s of each column's boot.  Not fatal: without the file the
 * guest lists for itself (and reports what a broken program says). */
static void
stage_case_list(struct stage *s, const char *suite_dir, const char *kyua)
{
	char cases[PATH_MAX], list[PATH_MAX];
	ku_fmt(cases, sizeof cases, "%s/cases", suite_dir);
	ku_fmt(list, sizeof list, "%s/ttypot/cases.list", s->dir);
	const char *argv[] = {kyua, "list", "-k", "Kyuafile", NULL};
	struct proc_opts o = {.cwd = cases, .stdout_path = list,
			      .stderr_path = "/dev/null",
			      .deadline_ms = TOOL_DEADLINE_MS};
	char err[256];
	if (proc_check(argv, &o, err, sizeof err) < 0) {
		ku_progress("initramfs: no case list, the guest lists (%s)",
			    err);
		unlink(list);
	}
}

/* Mirror the host's merged-/usr symlinks so library paths resolve. */
static int
stage_skeleton(struct stage *s)
{
	const char *dirs[] = {"dev", "proc", "sys", "tmp", "run", "root",
			      "etc/ttypot", "usr/bin", "usr/sbin", "usr/lib",
			      "usr/lib64", "usr/share"};
	char p[PATH_MAX + 64];
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		ku_fmt(p, sizeof p, "%s/%s", s->dir, dirs[i]);
		if (ku_mkdir_p(p, 0755) < 0)
			return stage_fail(s, "initramfs: cannot create %s: %s",
					  p, strerror(errno));
	}
	const char *top[] = {"bin", "sbin", "lib", "lib64"};
	for (size_t i = 0; i < 4; i++) {
		char host[16], target[PATH_MAX];
		snprintf(host, sizeof host, "/%s", top[i]);
		ku_fmt(p, sizeof p, "%s/%s", s->dir, top[i]);
		ssize_t n = readlink(host, target, sizeof target - 1);
		if (n > 0) {
			target[n] = '\0';
			if (symlink(target, p) < 0)
				return stage_fail(s, "initramfs: symlink %s: "
						  "%s", p, strerror(errno));
		} else if (ku_mkdir_p(p, 0755) < 0) {
			return stage_fail(s, "initramfs: cannot create %s: %s",
					  p, strerror(errno));
		}
	}
	ku_fmt(p, sizeof p, "%s/etc/passwd", s->dir);
	const char *pw = "root:x:0:0:root:/root:/bin/sh\n"
			 "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n";
	const char *gr = "root:x:0:\ntty:x:5:\nnogroup:x:65534:\n";
	if (ku_write_file(p, pw, strlen(pw)) < 0)
		return stage_fail(s, "initramfs: %s: %s", p, strerror(errno));
	ku_fmt(p, sizeof p, "%s/etc/group", s->dir);
	if (ku_write_file(p, gr, strlen(gr)) < 0)
		return stage_fail(s, "initramfs: %s: %s", p, strerror(errno));
	return 0;
}

/* Every path under dir, parents first, "./"-relative, one per line. */
static int
list_tree(FILE *f, const char *root, const char *rel)
{
	char path[PATH_MAX];
	ku_fmt(path, sizeof path, "%s/%s", root, rel);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[PATH_MAX];
		ku_fmt(sub, sizeof sub, "%s/%s", rel, e->d_name);
		fprintf(f, "%s\n", sub);
		bool dir = e->d_type == DT_DIR;
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;
			char full[PATH_MAX];
			ku_fmt(full, sizeof full, "%s/%s", root, sub);
			dir = lstat(full, &st) == 0 && S_ISDIR(st.st_mode);
		}
		if (dir && list_tree(f, root, sub) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

int
cpio_pack(const char *dir, const char *out_path, char *err, size_t errlen)
{
	char list[PATH_MAX], cpio[PATH_MAX];
	ku_fmt(list, sizeof list, "%s.list", out_path);
	ku_fmt(cpio, sizeof cpio, "%s.cpio", out_path);
	FILE *f = fopen(list, "w");
	if (!f || list_tree(f, dir, ".") < 0) {
		if (f)
			fclose(f);
		snprintf(err, errlen, "initramfs: cannot list %s", dir);
		return -1;
	}
	fclose(f);
	const char *cargv[] = {"cpio", "-o", "-H", "newc", "-R", "0:0",
			       "--quiet", NULL};
	struct proc_opts co = {.cwd = dir, .stdin_path = list,
			       .stdout_path = cpio,
			       .deadline_ms = TOOL_DEADLINE_MS};
	char why[400];
	int rc = proc_check(cargv, &co, why, sizeof why);
	unlink(list);
	if (rc != 0) {
		snprintf(err, errlen, "initramfs: cpio failed: %.300s", why);
		unlink(cpio);
		return -1;
	}
	const char *gargv[] = {"gzip", "-n", "-6", "-c", cpio, NULL};
	struct proc_opts go = {.stdout_path = out_path,
			       .deadline_ms = TOOL_DEADLINE_MS};
	rc = proc_check(gargv, &go, why, sizeof why);
	unlink(cpio);
	if (rc != 0) {
		snprintf(err, errlen, "initramfs: gzip failed: %.300s", why);
		unlink(out_path);
		return -1;
	}
	return 0;
}

static const char *
which(const char *name, char *buf, size_t len)
{
	const char *dirs[] = {"/usr/bin", "/bin", "/usr/sbin", "/sbin",
			      "/usr/local/bin"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		ku_fmt(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* The initramfs is written: say how big and how long it took. */
static void
progress_written(const char *path, double t0)
{
	struct stat st;
	stat(path, &st);
	ku_progress("initramfs %s: %.1f MB in %.1f s", path, st.st_size / 1e6,
		    proc_now() - t0);
}

int
initramfs_build(const char *suite_dir, const char *out_path, char *err,
		size_t errlen)
{
	struct stage s = {.err = err, .errlen = errlen};
	char p[PATH_MAX], q[PATH_MAX];
	int rc = -1;
	double t0 = proc_now();

	/* What must exist before anything is staged. */
	const char *need[] = {"cases/Kyuafile", "fixtures/guest/init",
			      "fixtures/guest/run-suite.sh",
			      "fixtures/tp_report"};
	for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
		ku_fmt(p, sizeof p, "%s/%s", suite_dir, need[i]);
		if (!ku_is_file(p)) {
			snprintf(err, errlen, "initramfs: suite %s lacks %s "
				 "(run make first)", suite_dir, need[i]);
			return -1;
		}
	}
	char busybox[PATH_MAX], kyua[PATH_MAX];
	if (!which("busybox", busybox, sizeof busybox)) {
		snprintf(err, errlen, "initramfs: busybox not found (install "
			 "busybox-static)");
		return -1;
	}
	if (!which("kyua", kyua, sizeof kyua)) {
		snprintf(err, errlen, "initramfs: kyua not found (install kyua)");
		return -1;
	}
	if (is_elf(busybox)) {
		/* A dynamic busybox would need its libraries; fine, but say. */
	}
	ku_fmt(s.dir, sizeof s.dir, "%s.d", out_path);
	ku_rm_rf(s.dir);
	if (ku_mkdir_p(s.dir, 0755) < 0) {
		snprintf(err, errlen, "initramfs: cannot create %s: %s", s.dir,
			 strerror(errno));
		return -1;
	}
	ku_progress("packing the guest initramfs from %s", suite_dir);
	if (stage_skeleton(&s) < 0)
		goto out;
	if (stage_host_file(&s, busybox) < 0 || note_elf(&s, busybox) < 0)
		goto out;
	if (stage_host_file(&s, kyua) < 0 || note_elf(&s, kyua) < 0)
		goto out;
	ku_fmt(q, sizeof q, "%s/usr/share/kyua", s.dir);
	if (stage_tree(&s, "/usr/share/kyua", q, 1) < 0)
		goto out;
	/* The suite: cases/ and fixtures/ under /ttypot. */
	ku_fmt(p, sizeof p, "%s/cases", suite_dir);
	ku_fmt(q, sizeof q, "%s/ttypot/cases", s.dir);
	if (stage_tree(&s, p, q, 1) < 0)
		goto out;
	ku_fmt(p, sizeof p, "%s/fixtures", suite_dir);
	ku_fmt(q, sizeof q, "%s/ttypot/fixtures", s.dir);
	if (stage_tree(&s, p, q, 0) < 0)
		goto out;
	ku_fmt(p, sizeof p, "%s/fixtures/guest/init", suite_dir);
	ku_fmt(q, sizeof q, "%s/init", s.dir);
	if (ku_copy_file(p, q) < 0 || chmod(q, 0755) < 0) {
		stage_fail(&s, "initramfs: cannot copy %s: %s", p,
			   strerror(errno));
		goto out;
	}
	stage_case_list(&s, suite_dir, kyua);
	if (stage_libraries(&s) < 0)
		goto out;
	char tmp[PATH_MAX];
	ku_fmt(tmp, sizeof tmp, "%s.tmp", out_path);
	if (cpio_pack(s.dir, tmp, err, errlen) < 0)
		goto out;
	if (rename(tmp, out_path) < 0) {
		snprintf(err, errlen, "initramfs: rename to %s: %s", out_path,
			 strerror(errno));
		unlink(tmp);
		goto out;
	}
	progress_written(out_path, t0);
	rc = 0;
out:
	ku_rm_rf(s.dir);
	for (size_t i = 0; i < s.nelves; i++)
		free(s.elves[i]);
	free(s.elves);
	return rc;
}

/* Append file from to file to. */
static int
append_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_APPEND | O_CLOEXEC);
	int rc = in < 0 || out < 0 ? -1 : 0;
	char buf[65536];
	ssize_t n;
	while (rc == 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		rc = -1;
	return rc;
}

/* harness/cross/build.sh: in the suite's source tree, else next to the
 * ttypot executable (harness/ttypot -> harness/cross/). */
static int
cross_script(const char *suite_dir, char *out, size_t outlen)
{
	ku_fmt(out, outlen, "%s/harness/cross/build.sh", suite_dir);
	if (ku_is_file(out))
		return 0;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		ku_fmt(out, outlen, "%s/cross/build.sh", dirname(exe));
		if (ku_is_file(out))
			return 0;
	}
	return -1;
}

/* The last "error:" line of build.sh's log (its die() messages). */
static void
last_error(const char *log, char *out, size_t outlen)
{
	char *t = ku_read_file(log, NULL);
	out[0] = '\0';
	for (char *l = t ? strtok(t, "\n") : NULL; l; l = strtok(NULL, "\n"))
		if (strstr(l, "error"))
			snprintf(out, outlen, "%s", l);
	free(t);
}

/* Wait for the cross cache's lock (build.sh takes the same one while it
 * rebuilds root/), up to an hour; returns the fd holding it, or -1. */
static int
lock_cross(const char *dir)
{
	char p[PATH_MAX];
	ku_fmt(p, sizeof p, "%s/lock", dir);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	double t0 = proc_now();
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (proc_now() - t0 > 3600) {
			close(fd);
			return -1;
		}
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return fd;
}

int
initramfs_cross(const char *suite_dir, const char *userland, char *out_path,
		size_t outlen, char *err, size_t errlen)
{
	char script[PATH_MAX], top[PATH_MAX], cache[PATH_MAX], log[PATH_MAX];
	if (cross_script(suite_dir, script, sizeof script) < 0) {
		snprintf(err, errlen, "initramfs for %s: harness/cross/build.sh "
			 "not found in %s", userland, suite_dir);
		return -1;
	}
	ku_default_cache(top, sizeof top);
	ku_fmt(log, sizeof log, "%s/cross/%s.log", top, userland);
	ku_fmt(cache, sizeof cache, "%s/cross", top);
	if (ku_mkdir_p(cache, 0755) < 0) {
		snprintf(err, errlen, "initramfs for %s: cannot create %s: %s",
			 userland, cache, strerror(errno));
		return -1;
	}
	/* build.sh is quick when nothing changed (stamps); its progress goes
	 * to the log, its last stdout line is root/. */
	ku_progress("cross userland %s: harness/cross/build.sh %s (log %s)",
		    userland, userland, log);
	double t0 = proc_now();
	struct proc_result *r = malloc(sizeof *r);
	if (!r) {
		snprintf(err, errlen, "initramfs for %s: out of memory", userland);
		return -1;
	}
	const char *argv[] = {"sh", script, userland, NULL};
	struct proc_opts po = {.stderr_path = log,
			       .deadline_ms = 45 * 60 * 1000, .nice = 5};
	proc_run(argv, &po, r);
	char root[PATH_MAX] = "";
	char *end = r->out + strlen(r->out);
	while (end > r->out && end[-1] == '\n')
		*--end = '\0';
	char *line = strrchr(r->out, '\n');
	snprintf(root, sizeof root, "%s", line ? line + 1 : r->out);
	int status = r->status;
	bool timed_out = r->timed_out;
	free(r);
	if (status != 0 || root[0] != '/' || !ku_is_dir(root)) {
		char why[400];
		last_error(log, why, sizeof why);
		snprintf(err, errlen, "initramfs for %s: harness/cross/build.sh "
			 "%s %s: %.300s (log %s)", userland, userland,
			 timed_out ? "timed out" : "failed",
			 why[0] ? why : "no root/ printed", log);
		return -1;
	}
	ku_progress("cross userland %s ready in %.1f s: %s", userland,
		    proc_now() - t0, root);

	/* The key: root/'s stamp (a hash of everything it was built from)
	 * and /init. */
	char dir[PATH_MAX], p[PATH_MAX], inith[65], keytext[512], key[65];
	char rtmp[PATH_MAX];
	snprintf(rtmp, sizeof rtmp, "%s", root);
	snprintf(dir, sizeof dir, "%s", dirname(rtmp));
	ku_fmt(p, sizeof p, "%s/fixtures/guest/init", suite_dir);
	if (ku_sha256_file(p, inith) < 0) {
		snprintf(err, errlen, "initramfs for %s: %s: %s", userland, p,
			 strerror(errno));
		return -1;
	}
	ku_fmt(p, sizeof p, "%s/stamps/root", dir);
	char *stamp = ku_read_file(p, NULL);
	snprintf(keytext, sizeof keytext, "ttypot cross initramfs 1\n%s\n%s\n",
		 stamp ? stamp : "", inith);
	free(stamp);
	ku_sha256_hex(keytext, strlen(keytext), key);
	if (ku_fmt(out_path, outlen, "%s/initramfs-%.16s.cpio.gz", dir, key) < 0) {
		snprintf(err, errlen, "initramfs for %s: path too long", userland);
		return -1;
	}
	if (ku_is_file(out_path))
		return 0;
	int lk = lock_cross(dir);
	if (lk < 0) {
		snprintf(err, errlen, "initramfs for %s: cannot lock %s/lock",
			 userland, dir);
		return -1;
	}
	int rc = -1;
	char tmp[PATH_MAX], a[PATH_MAX], b[PATH_MAX], idir[PATH_MAX];
	if (ku_is_file(out_path)) { /* packed while we waited */
		rc = 0;
		goto out;
	}
	t0 = proc_now();
	ku_fmt(tmp, sizeof tmp, "%s.%ld.tmp", out_path, (long)getpid());
	ku_fmt(a, sizeof a, "%s.root", tmp);
	ku_fmt(b, sizeof b, "%s.init", tmp);
	ku_fmt(idir, sizeof idir, "%s.d", tmp);
	/* root/ as it is, then /init as a second cpio member (the kernel
	 * unpacks concatenated archives in order). */
	ku_fmt(p, sizeof p, "%s/fixtures/guest/init", suite_dir);
	char q[PATH_MAX];
	ku_fmt(q, sizeof q, "%s/init", idir);
	if (ku_mkdir_p(idir, 0755) < 0 || ku_copy_file(p, q) < 0 ||
	    chmod(q, 0755) < 0) {
		snprintf(err, errlen, "initramfs for %s: cannot copy %s: %s",
			 userland, p, strerror(errno));
		goto out;
	}
	if (cpio_pack(root, a, err, errlen) < 0 ||
	    cpio_pack(idir, b, err, errlen) < 0)
		goto out;
	if (ku_copy_file(a, tmp) < 0 || append_file(b, tmp) < 0 ||
	    rename(tmp, out_path) < 0) {
		snprintf(err, errlen, "initramfs for %s: cannot write %s: %s",
			 userland, out_path, strerror(errno));
		goto out;
	}
	progress_written(out_path, t0);
	rc = 0;
out:
	unlink(a);
	unlink(b);
	unlink(tmp);
	ku_rm_rf(idir);
	close(lk);
	return rc;
}
