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
	struct stat st;
	stat(out_path, &st);
	ku_progress("initramfs %s: %.1f MB in %.1f s", out_path,
		    st.st_size / 1e6, proc_now() - t0);
	rc = 0;
out:
	ku_rm_rf(s.dir);
	for (size_t i = 0; i < s.nelves; i++)
		free(s.elves[i]);
	free(s.elves);
	return rc;
}
