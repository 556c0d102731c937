// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_cache_race: two ttypot processes that need the same kernel at the same
 * moment, as two matrix runs, a matrix beside a ci, or make check's own
 * tests do, sharing one cache.  The race cases start two real resolutions
 * at once (released together from a barrier) into a cache that does not
 * yet have the kernel: both must succeed with the same image, and the work
 * that takes minutes (a download, a build) must happen once, the second
 * process waiting for the first and saying what it waits for.  A kernel
 * once resolved must also stay what it was when the shared build directory
 * is rebuilt for another config before the run boots it.
 */
#include <atf-c.h>

#include "guest.h"
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A download of a 27 MB package and its unpack, twice over, on a loaded
 * machine. */
#define RESOLVE_DEADLINE_S 900

struct racer {
	pid_t pid;
	char log[64], image[64];
};

/* Child: wait at the barrier, resolve spec into cache, write the image
 * path to r->image; progress and errors go to r->log. */
static void racer_start(struct racer *r, int idx, const int barrier[2],
			const char *spec, const char *cache)
{
	snprintf(r->log, sizeof r->log, "racer%d.log", idx);
	snprintf(r->image, sizeof r->image, "racer%d.image", idx);
	r->pid = fork();
	ATF_REQUIRE(r->pid >= 0);
	if (r->pid > 0)
		return;
	int fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 2) < 0)
		_exit(3);
	close(barrier[1]);
	char c;
	if (read(barrier[0], &c, 1) != 0) /* EOF: the parent let both go */
		_exit(3);
	alarm(RESOLVE_DEADLINE_S);
	struct kspec s;
	struct kernel_info k;
	char err[2048];
	memset(&k, 0, sizeof k);
	if (kspec_parse(spec, &s, err, sizeof err) < 0 ||
	    kernel_resolve(&s, cache, &k, err, sizeof err) < 0) {
		fprintf(stderr, "RESOLVE FAILED: %s\n", err);
		_exit(1);
	}
	ku_write_file(r->image, k.image, strlen(k.image));
	_exit(0);
}

/* Start two racers on spec, release them together, wait for both; each
 * must succeed, and both must name the same image. */
static void race(const char *spec, const char *cache)
{
	struct racer r[2];
	int p[2];
	ATF_REQUIRE(pipe(p) == 0);
	for (int i = 0; i < 2; i++)
		racer_start(&r[i], i, p, spec, cache);
	close(p[0]);
	close(p[1]); /* both read EOF now: go */
	for (int i = 0; i < 2; i++) {
		int st;
		ATF_REQUIRE(waitpid(r[i].pid, &st, 0) == r[i].pid);
		char *log = ku_read_file(r[i].log, NULL);
		ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "resolver %d of %s: %s (status %#x); its log:\n%s", i,
			      spec, WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ?
			      "still resolving after the deadline" : "failed",
			      st, log ? log : "(none)");
		free(log);
	}
	char *a = ku_read_file(r[0].image, NULL), *b = ku_read_file(r[1].image, NULL);
	ATF_CHECK_MSG(a && b && !strcmp(a, b), "the two resolvers name different "
		      "images: %s and %s", a ? a : "(none)", b ? b : "(none)");
	ATF_CHECK_MSG(a && ku_is_file(a), "the image %s is not there", a ? a : "(none)");
	free(a);
	free(b);
}

/* How many lines of the two racers' logs contain what. */
static int count_in_logs(const char *what)
{
	int n = 0;
	for (int i = 0; i < 2; i++) {
		char name[32];
		snprintf(name, sizeof name, "racer%d.log", i);
		char *log = ku_read_file(name, NULL);
		for (const char *p = log; p && (p = strstr(p, what)); p += strlen(what))
			n++;
		free(log);
	}
	return n;
}

/* Nothing but finished entries and lock files may be left: no temporary
 * directory of a writer. */
static void check_no_leftovers(const char *dir)
{
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "find %s -name '.*.tmp.*' | grep -q .", dir);
	ATF_CHECK_MSG(system(cmd) != 0, "temporary entries left under %s", dir);
}

ATF_TC(same_deb_downloads_once);
ATF_TC_HEAD(same_deb_downloads_once, tc)
{
	atf_tc_set_md_var(tc, "descr", "two resolutions of the same Debian kernel "
			  "started at once into a cache without it both succeed with the "
			  "same image, the package is downloaded and unpacked once, the "
			  "second resolver says what it waits for, and no temporary "
			  "entry is left");
	atf_tc_set_md_var(tc, "require.progs", "apt-get dpkg-deb");
	atf_tc_set_md_var(tc, "timeout", "1200");
}
ATF_TC_BODY(same_deb_downloads_once, tc)
{
	/* The cloud flavour: the smallest real kernel package Debian has.
	 * Its meta package resolves to the versioned image package, so each
	 * of two packages must be fetched once. */
	race("deb:linux-image-cloud-amd64", "cache");
	/* the lines a download and an unpack print when they are done */
	int dl = count_in_logs("ttypot: downloaded ");
	int unpacked = count_in_logs("ttypot: unpacked ");
	ATF_CHECK_MSG(dl == 2, "%d downloads for two packages (the meta package and "
		      "the image): two resolvers each downloaded", dl);
	ATF_CHECK_MSG(unpacked == 2, "%d unpacks for two packages", unpacked);
	ATF_CHECK_MSG(count_in_logs("waiting for another ttypot doing the same") >= 1,
		      "neither resolver said it waited for the other");
	check_no_leftovers("cache");
}

/* A tree that passes for a kernel source whose build takes a few seconds
 * and counts itself in builds.log (its image says "build N" at 1536): the
 * build of a src:/tree: kernel is the longest work a resolver does. */
static void counting_tree(const char *cwd)
{
	ATF_REQUIRE(ku_mkdir_p("tree/arch/x86/boot", 0755) == 0);
	ATF_REQUIRE(ku_mkdir_p("tree/scripts/kconfig", 0755) == 0);
	ATF_REQUIRE(ku_write_file("tree/Kconfig", "", 0) == 0);
	const char *merge = "#!/bin/sh\nexit 0\n";
	ATF_REQUIRE(ku_write_file("tree/scripts/kconfig/merge_config.sh", merge,
				  strlen(merge)) == 0);
	ATF_REQUIRE(chmod("tree/scripts/kconfig/merge_config.sh", 0755) == 0);
	/* bzImage: a minimal image with the bzImage header and a version
	 * string (kimage_check reads both), written after a pause long
	 * enough that a second build would overlap the first. */
	char mk[PATH_MAX * 3];
	int n = snprintf(mk, sizeof mk,
		"tinyconfig olddefconfig:\n\ttouch $(O)/.config\n"
		"bzImage:\n\techo build >> %s/builds.log\n"
		"\tsleep 3\n"
		"\tmkdir -p $(O)/arch/x86/boot $(O)/include/config\n"
		"\techo 6.99.0-ttypot-race > $(O)/include/config/kernel.release\n"
		"\tprintf 'HdrS' | dd of=$(O)/arch/x86/boot/bzImage bs=1 seek=514 conv=notrunc status=none\n"
		"\tprintf '\\000\\002' | dd of=$(O)/arch/x86/boot/bzImage bs=1 seek=526 conv=notrunc status=none\n"
		"\tprintf '6.99.0-ttypot-race (race)\\000' | dd of=$(O)/arch/x86/boot/bzImage bs=1 seek=1024 conv=notrunc status=none\n"
		"\ttruncate -s 2048 $(O)/arch/x86/boot/bzImage\n"
		"\tprintf 'build %%s\\n' $$(wc -l < %s/builds.log) | dd of=$(O)/arch/x86/boot/bzImage bs=1 seek=1536 conv=notrunc status=none\n",
		cwd, cwd);
	ATF_REQUIRE(n > 0 && (size_t)n < sizeof mk);
	ATF_REQUIRE(ku_write_file("tree/Makefile", mk, (size_t)n) == 0);
	/* A clean commit: a tree: build is reused only for one (a dirty
	 * tree always runs its incremental make). */
	ATF_REQUIRE_MSG(system("cd tree && git init -q && git add -A && "
			       "git -c user.name=ttypot -c user.email=ttypot@localhost "
			       "commit -q -m tree") == 0, "cannot commit the stand-in tree");
}

/* kbuild checks for these before it configures: skip without them. */
static void require_build_tools(void)
{
	const char *tools[] = {"flex", "bison", "bc", "xz", "perl"};
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "command -v %s >/dev/null", tools[i]);
		if (system(cmd) != 0)
			atf_tc_skip("%s is missing: kbuild refuses to build "
				    "(harness/deps.sh check installs it)", tools[i]);
	}
}

ATF_TC(same_tree_builds_once);
ATF_TC_HEAD(same_tree_builds_once, tc)
{
	atf_tc_set_md_var(tc, "descr", "two resolutions of the same tree: kernel "
			  "started at once both succeed with the same image, and the "
			  "tree is built once: the second resolver waits for the first "
			  "build and reuses it");
	atf_tc_set_md_var(tc, "require.progs", "make dd truncate git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(same_tree_builds_once, tc)
{
	char cwd[PATH_MAX], spec[PATH_MAX + 16];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	counting_tree(cwd);
	require_build_tools();
	snprintf(spec, sizeof spec, "tree:%s/tree", cwd);
	race(spec, "cache");
	char *builds = ku_read_file("builds.log", NULL);
	int n = 0;
	for (const char *p = builds; p && (p = strstr(p, "build\n")); p++)
		n++;
	free(builds);
	ATF_CHECK_MSG(n == 1, "the tree was built %d times", n);
	ATF_CHECK_MSG(count_in_logs("reusing the build") == 1,
		      "the second resolver did not reuse the first one's build");
}

/* Resolve spec into cache with the config fragment frag (TTYPOT_FRAGMENT);
 * the image path into image. */
static void resolve_with(const char *spec, const char *cache, const char *frag,
			 char *image, size_t len)
{
	setenv("TTYPOT_FRAGMENT", frag, 1);
	struct kspec s;
	struct kernel_info k;
	char err[2048];
	memset(&k, 0, sizeof k);
	ATF_REQUIRE_MSG(kspec_parse(spec, &s, err, sizeof err) == 0 &&
			kernel_resolve(&s, cache, &k, err, sizeof err) == 0,
			"resolving %s with %s: %s", spec, frag, err);
	snprintf(image, len, "%s", k.image);
	unsetenv("TTYPOT_FRAGMENT");
}

ATF_TC(rebuild_keeps_resolved_image);
ATF_TC_HEAD(rebuild_keeps_resolved_image, tc)
{
	atf_tc_set_md_var(tc, "descr", "a kernel resolved from a tree: build is its own "
			  "copy: when the same build directory is then rebuilt with another "
			  "config fragment (another ttypot sharing the cache), the image the "
			  "first resolve named is still there with the first build's bytes, "
			  "and the second resolve names another file");
	atf_tc_set_md_var(tc, "require.progs", "make dd truncate git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(rebuild_keeps_resolved_image, tc)
{
	char cwd[PATH_MAX], spec[PATH_MAX + 16], a[PATH_MAX], b[PATH_MAX];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	counting_tree(cwd);
	require_build_tools();
	ATF_REQUIRE(ku_write_file("frag-a.config", "CONFIG_TTY=y\n", 13) == 0);
	ATF_REQUIRE(ku_write_file("frag-b.config", "CONFIG_VT=y\n", 12) == 0);
	snprintf(spec, sizeof spec, "tree:%s/tree", cwd);
	resolve_with(spec, "cache", "frag-a.config", a, sizeof a);
	resolve_with(spec, "cache", "frag-b.config", b, sizeof b);
	char *builds = ku_read_file("builds.log", NULL);
	int n = 0;
	for (const char *p = builds; p && (p = strstr(p, "build\n")); p++)
		n++;
	free(builds);
	ATF_REQUIRE_MSG(n == 2, "the tree was built %d times, want 2 (two fragments)", n);
	ATF_CHECK_MSG(strcmp(a, b), "both fragments' resolves name %s", a);
	size_t la = 0, lb = 0;
	char *ia = ku_read_file(a, &la), *ib = ku_read_file(b, &lb);
	ATF_REQUIRE_MSG(ia && la >= 1544, "the first resolve's image %s is gone", a);
	ATF_CHECK_MSG(!memcmp(ia + 1536, "build 1\n", 8), "the first resolve's image "
		      "%s now holds the second build (%.7s)", a, ia + 1536);
	ATF_CHECK_MSG(ib && lb >= 1544 && !memcmp(ib + 1536, "build 2\n", 8),
		      "the second resolve's image %s is not the second build", b);
	free(ia);
	free(ib);
}

ATF_TC_WITHOUT_HEAD(published_images_pruned);
ATF_TC_BODY(published_images_pruned, tc)
{
	(void)tc;
	ATF_REQUIRE(ku_mkdir_p("b/arch/x86/boot", 0755) == 0);
	ATF_REQUIRE(ku_write_file("b/arch/x86/boot/bzImage", "image", 5) == 0);
	char out[PATH_MAX], err[512], key[32];
	for (int i = 0; i < KIMAGE_KEEP + 2; i++) {
		snprintf(key, sizeof key, "stamp %d", i);
		ATF_REQUIRE_MSG(kimage_publish("b", "b/arch/x86/boot/bzImage", key, KIMAGE_KEEP,
					       out, sizeof out, err, sizeof err) == 0, "%s", err);
		ATF_REQUIRE_MSG(ku_is_file(out), "%s not written", out);
	}
	struct rbuf ls = {0};
	char *argv[] = {"ls", "b.images", NULL};
	ATF_REQUIRE(capture_run(argv, NULL, 30, &ls, NULL, err, sizeof err) == 0);
	int n = 0;
	for (const char *p = rbuf_str(&ls); *p; p++)
		n += *p == '\n';
	ATF_CHECK_MSG(n == KIMAGE_KEEP, "%d copies kept, want %d: %s", n, KIMAGE_KEEP,
		      rbuf_str(&ls));
	ATF_CHECK_MSG(ku_is_file(out), "the newest copy %s was pruned", out);
	rbuf_free(&ls);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, same_deb_downloads_once);
	ATF_TP_ADD_TC(tp, same_tree_builds_once);
	ATF_TP_ADD_TC(tp, rebuild_keeps_resolved_image);
	ATF_TP_ADD_TC(tp, published_images_pruned);
	return atf_no_error();
}
