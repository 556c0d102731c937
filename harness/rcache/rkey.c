// SPDX-License-Identifier: GPL-2.0-only
/* rkey.c: the result cache's key (rcache.h): content hashes of the kernel,
 * the built suite and its host programs, the filter, arch/ABI, QEMU. */
#include "rcache.h"
#include "kutil.h"
#include "proc.h"
#include "qarch.h"
#include "rbuf.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define RKEY_TOOL_MS 30000

struct paths { char **v; size_t n, cap; };

static void paths_add(struct paths *p, const char *s)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 128;
		p->v = xrealloc(p->v, p->cap * sizeof *p->v);
	}
	p->v[p->n++] = xstrdup(s);
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof *p);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What initramfs_build leaves out of the suite's trees: dot files,
 * sources and objects, Kyua databases and logs, and at the top of
 * fixtures/ the kernel build inputs (kernel, bad, mutants). */
static bool suite_skips(const char *n, bool fixtures_top)
{
	size_t l = strlen(n);
	if (n[0] == '.')
		return true;
	if (l > 2 && n[l - 2] == '.' && strchr("cohda", n[l - 1]))
		return true;
	if (l > 3 && (!strcmp(n + l - 3, ".db") || (l > 4 && !strcmp(n + l - 4, ".log"))))
		return true;
	return fixtures_top && (!strcmp(n, "kernel") || !strcmp(n, "bad") ||
				!strcmp(n, "mutants"));
}

/* Regular files under root/rel, as rel paths (skip: the suite's rule). */
static void walk(const char *root, const char *rel, bool suite, bool fixtures_top,
		 struct paths *out)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/%s", root, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (suite && suite_skips(e->d_name, fixtures_top))
			continue;
		char sub[PATH_MAX], full[PATH_MAX];
		snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, sub);
		struct stat st;
		if (stat(full, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(root, sub, suite, false, out);
		else if (S_ISREG(st.st_mode))
			paths_add(out, sub);
	}
	closedir(d);
}

/* "sha256 x path" lines (x: the exec bit) for root/paths, sorted, into b. */
static int hash_files(const char *root, struct paths *p, struct rbuf *b,
		      char *err, size_t errlen)
{
	qsort(p->v, p->n, sizeof *p->v, cmp_str);
	for (size_t i = 0; i < p->n; i++) {
		char full[PATH_MAX], hex[65];
		snprintf(full, sizeof full, "%s%s%s", root, root[0] ? "/" : "", p->v[i]);
		struct stat st;
		if (stat(full, &st) < 0 || ku_sha256_file(full, hex) < 0) {
			snprintf(err, errlen, "cannot hash %s: %s", full, strerror(errno));
			return -1;
		}
		rbuf_addf(b, "%s %c %s\n", hex, (st.st_mode & 0111) ? 'x' : '-', p->v[i]);
	}
	return 0;
}

static bool is_elf(const char *path)
{
	char m[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, m, 4) == 4 && !memcmp(m, "\177ELF", 4);
	if (fd >= 0)
		close(fd);
	return elf;
}

static const char *which(const char *name, char *buf, size_t len)
{
	const char *dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* What the loader resolves an ELF's libraries from: its interpreter and
 * DT_NEEDED, DT_RPATH and DT_RUNPATH strings, into sig ("" when it cannot
 * be read: the file is then asked about alone).  Programs with the same
 * signature get the same libraries, so ldd runs once per signature. */
static void elf_sig(const char *path, struct rbuf *sig)
{
	size_t len = 0;
	char *f = ku_read_file(path, &len);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
	if (!f || len < sizeof *eh || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len) {
		free(f);
		return;
	}
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0;
	Elf64_Addr strtab = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_offset + ph[i].p_filesz > len)
			continue;
		if (ph[i].p_type == PT_INTERP)
			rbuf_addf(sig, "interp %.*s\n", (int)ph[i].p_filesz, f + ph[i].p_offset);
		if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const Elf64_Dyn *)(f + ph[i].p_offset);
			ndyn = ph[i].p_filesz / sizeof *dyn;
		}
	}
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	/* DT_STRTAB is an address: its file offset from the load segment */
	size_t stroff = 0;
	bool found = false;
	for (int i = 0; i < eh->e_phnum && !found; i++)
		if (ph[i].p_type == PT_LOAD && strtab >= ph[i].p_vaddr &&
		    strtab < ph[i].p_vaddr + ph[i].p_filesz) {
			stroff = ph[i].p_offset + (strtab - ph[i].p_vaddr);
			found = true;
		}
	for (size_t i = 0; found && i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		Elf64_Sxword t = dyn[i].d_tag;
		if (t != DT_NEEDED && t != DT_RPATH && t != DT_RUNPATH)
			continue;
		size_t o = stroff + dyn[i].d_un.d_val;
		if (o < len)
			rbuf_addf(sig, "%ld %.*s\n", (long)t, (int)strnlen(f + o, len - o), f + o);
	}
	if (!found)
		sig->len = 0;
	free(f);
}

/* The shared libraries of elves (one ldd for all), absolute, unique. */
static int libraries(struct paths *elves, struct paths *libs, char *err, size_t errlen)
{
	if (!elves->n)
		return 0;
	char out[] = "/tmp/ttypot-rkey.XXXXXX";
	int fd = mkstemp(out);
	if (fd < 0) {
		snprintf(err, errlen, "mkstemp: %s", strerror(errno));
		return -1;
	}
	close(fd);
	/* One program of each signature (ldd takes seconds for a hundred). */
	const char **argv = xrealloc(NULL, (elves->n + 2) * sizeof *argv);
	struct paths sigs = {0};
	size_t n = 0;
	argv[n++] = "ldd";
	for (size_t i = 0; i < elves->n; i++) {
		struct rbuf sig = {0};
		elf_sig(elves->v[i], &sig);
		bool seen = false;
		for (size_t k = 0; k < sigs.n && sig.len && !seen; k++)
			seen = !strcmp(sigs.v[k], rbuf_str(&sig));
		if (!seen) {
			argv[n++] = elves->v[i];
			if (sig.len)
				paths_add(&sigs, rbuf_str(&sig));
		}
		rbuf_free(&sig);
	}
	argv[n] = NULL;
	paths_free(&sigs);
	struct proc_opts o = { .stdout_path = out, .stderr_path = "/dev/null",
			       .deadline_ms = RKEY_TOOL_MS };
	struct proc_result *r = xrealloc(NULL, sizeof *r);
	proc_run(argv, &o, r); /* exit 1 when one is static: the output counts */
	free(argv);
	bool timed_out = r->timed_out;
	free(r);
	char *text = ku_read_file(out, NULL);
	unlink(out);
	if (!text || timed_out) {
		free(text);
		snprintf(err, errlen, "ldd gave no answer for the suite's programs");
		return -1;
	}
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(l, "=> ");
		p = p ? p + 3 : l;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '/' || l[0] != '\t')
			continue;
		p[strcspn(p, " ")] = '\0';
		char real[PATH_MAX];
		if (!realpath(p, real))
			continue;
		bool seen = false;
		for (size_t i = 0; i < libs->n && !seen; i++)
			seen = !strcmp(libs->v[i], real);
		if (!seen)
			paths_add(libs, real);
	}
	free(text);
	return 0;
}

/* The host's build of the suite and what the initramfs adds to it. */
static int native_suite(const char *suite_dir, struct rbuf *b, char *err, size_t errlen)
{
	struct paths files = {0}, elves = {0}, libs = {0};
	walk(suite_dir, "cases", true, false, &files);
	walk(suite_dir, "fixtures", true, true, &files);
	int rc = -1;
	if (!files.n) {
		snprintf(err, errlen, "no built suite in %s", suite_dir);
		goto out;
	}
	rbuf_add(b, "suite files\n");
	if (hash_files(suite_dir, &files, b, err, errlen) < 0)
		goto out;
	char p[PATH_MAX];
	for (size_t i = 0; i < files.n; i++) {
		snprintf(p, sizeof p, "%s/%s", suite_dir, files.v[i]);
		if (is_elf(p))
			paths_add(&elves, p);
	}
	const char *tools[] = { "kyua", "busybox" };
	for (size_t i = 0; i < 2; i++) {
		if (!which(tools[i], p, sizeof p)) {
			snprintf(err, errlen, "%s not found", tools[i]);
			goto out;
		}
		char real[PATH_MAX];
		paths_add(&libs, realpath(p, real) ? real : p);
		paths_add(&elves, p);
	}
	if (libraries(&elves, &libs, err, errlen) < 0)
		goto out;
	rbuf_add(b, "host programs and libraries\n");
	rc = hash_files("", &libs, b, err, errlen);
out:
	paths_free(&files);
	paths_free(&elves);
	paths_free(&libs);
	return rc;
}

int rcache_suite_hash(const char *suite_dir, const char *userland, char hex[65],
		      char *err, size_t errlen)
{
	/* One matrix asks for every column: hash the suite once. */
	static char memo_dir[PATH_MAX], memo_hex[65];
	char native[65];
	if (memo_hex[0] && !strcmp(memo_dir, suite_dir)) {
		memcpy(native, memo_hex, sizeof native);
	} else {
		struct rbuf b = {0};
		int rc = native_suite(suite_dir, &b, err, errlen);
		if (rc == 0)
			ku_sha256_hex(rbuf_str(&b), b.len, native);
		rbuf_free(&b);
		if (rc < 0)
			return -1;
		snprintf(memo_dir, sizeof memo_dir, "%s", suite_dir);
		memcpy(memo_hex, native, sizeof memo_hex);
	}
	if (!userland) {
		memcpy(hex, native, 65);
		return 0;
	}
	/* A cross userland is built from the same sources (the native hash
	 * moves with them) and its root's stamp hashes its own inputs. */
	char cache[PATH_MAX], stamp[PATH_MAX + 64];
	ku_default_cache(cache, sizeof cache);
	snprintf(stamp, sizeof stamp, "%s/cross/%s/stamps/root", cache, userland);
	char *s = ku_read_file(stamp, NULL);
	if (!s) {
		snprintf(err, errlen, "the %s userland is not built yet (no %s)", userland, stamp);
		return -1;
	}
	struct rbuf b = {0};
	rbuf_addf(&b, "%s\n%s\n%s", native, userland, s);
	ku_sha256_hex(rbuf_str(&b), b.len, hex);
	rbuf_free(&b);
	free(s);
	return 0;
}

/* The first line of `QEMU --version`, memoised per emulator. */
static int qemu_version(const char *qemu, char *out, size_t outlen, char *err, size_t errlen)
{
	static char memo_bin[64], memo_ver[256];
	if (memo_ver[0] && !strcmp(memo_bin, qemu)) {
		snprintf(out, outlen, "%s", memo_ver);
		return 0;
	}
	const char *argv[] = { qemu, "--version", NULL };
	struct proc_opts o = { .deadline_ms = RKEY_TOOL_MS };
	struct proc_result *r = xrealloc(NULL, sizeof *r);
	int rc = proc_run(argv, &o, r);
	if (rc != 0 || r->status != 0) {
		snprintf(err, errlen, "%s --version failed (%s)", qemu,
			 r->err[0] ? r->err : "exit status");
		free(r);
		return -1;
	}
	r->out[strcspn(r->out, "\n")] = '\0';
	snprintf(out, outlen, "%s", r->out);
	free(r);
	snprintf(memo_bin, sizeof memo_bin, "%s", qemu);
	snprintf(memo_ver, sizeof memo_ver, "%s", out);
	return 0;
}

/* The tty modules a guest gets: everything under drivers/tty. */
static int modules_hash(const struct kernel_info *ki, struct rbuf *b, char *err,
			size_t errlen)
{
	if (!ki->modules_dir[0])
		return 0;
	struct paths mods = {0};
	walk(ki->modules_dir, "kernel/drivers/tty", false, false, &mods);
	rbuf_addf(b, "modules %zu\n", mods.n);
	int rc = hash_files(ki->modules_dir, &mods, b, err, errlen);
	paths_free(&mods);
	return rc;
}

int rcache_key(const struct kernel_info *ki, const struct run_opts *ro,
	       struct rcache_key *k, char *err, size_t errlen)
{
	memset(k, 0, sizeof k->hex);
	k->text[0] = '\0';
	if (!ki->image[0]) {
		snprintf(err, errlen, "the host kernel is never cached");
		return -1;
	}
	const char *arch = ki->arch[0] ? ki->arch : "x86_64";
	const struct qarch *qa = qarch_of(arch);
	if (!qa) {
		snprintf(err, errlen, "no QEMU for architecture %s", arch);
		return -1;
	}
	char image[65], suite[65], qver[256];
	if (ku_sha256_file(ki->image, image) < 0) {
		snprintf(err, errlen, "cannot hash %s: %s", ki->image, strerror(errno));
		return -1;
	}
	if (rcache_suite_hash(ro->suite_dir, qarch_userland(ki), suite, err, errlen) < 0 ||
	    qemu_version(qa->qemu, qver, sizeof qver, err, errlen) < 0)
		return -1;
	/* The filter as the guest gets it: words, commas as spaces. */
	char filter[2048];
	snprintf(filter, sizeof filter, "%s", ro->cases_filter ? ro->cases_filter : "");
	for (char *c = filter; *c; c++)
		if (*c == ',')
			*c = ' ';
	struct rbuf b = {0};
	rbuf_addf(&b, "format %d\nimage %s\nrelease %s\narch %s\nabi %s\n", RCACHE_FORMAT,
		  image, ki->release, arch, ki->abi);
	if (modules_hash(ki, &b, err, errlen) < 0) {
		rbuf_free(&b);
		return -1;
	}
	rbuf_addf(&b, "suite %s\nfilter %s\nkyua-vars %s\nqemu %s\n", suite, filter,
		  ro->kyua_vars ? ro->kyua_vars : "", qver);
	ku_sha256_hex(rbuf_str(&b), b.len, k->hex);
	/* The readable inputs: the module lines only as a count and hash. */
	char mods[65] = "";
	const char *mstart = strstr(rbuf_str(&b), "modules ");
	const char *mend = strstr(rbuf_str(&b), "suite ");
	if (mstart && mend)
		ku_sha256_hex(mstart, (size_t)(mend - mstart), mods);
	snprintf(k->text, sizeof k->text,
		 "format %d\nimage %s %s\nrelease %s\narch %s\nabi %s\nmodules %s %s\n"
		 "suite %s %s%s%s\nfilter %s\nkyua-vars %s\nqemu %s\n",
		 RCACHE_FORMAT, image, ki->image, ki->release, arch, ki->abi,
		 ki->modules_dir[0] ? mods : "-", ki->modules_dir, suite, ro->suite_dir,
		 qarch_userland(ki) ? " userland " : "",
		 qarch_userland(ki) ? qarch_userland(ki) : "", filter,
		 ro->kyua_vars ? ro->kyua_vars : "", qver);
	rbuf_free(&b);
	return 0;
}
