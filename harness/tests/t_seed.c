// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_seed.c: when a schemata build may start from the src: build's objects.
 * mseed_check holds a user's tree against the source file by file (only C
 * files of the kernel may differ), mseed_refresh gives those a copy of
 * their own with a new mtime without touching the user's files, and
 * kbuild_seed copies a build only when its stamp names the same source and
 * fragment, marking the copy so that make decides by dependencies alone.
 * Small stand-in trees: the real seeded build is t_mutation_kernel's.
 */
#include <atf-c.h>

#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel.h"
#include "kutil.h"
#include "mseed.h"
#include "rbuf.h"

static void put(const char *path, const char *text)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = '\0';
	ATF_REQUIRE(ku_mkdir_p(dir, 0755) == 0);
	ATF_REQUIRE(ku_write_file(path, text, strlen(text)) == 0);
}

/* A source and a tree of hard links to it, as `cp -al` makes one. */
static void source_and_tree(void)
{
	put("src/drivers/tty/n_tty.c", "int n_tty;\n");
	put("src/include/linux/tty.h", "struct tty;\n");
	put("src/tools/objtool/check.c", "int check;\n");
	put("src/Makefile", "obj-y += drivers/\n");
	put("src/.ttypot-unpacked", "linux-source-6.12 1\n");
	ATF_REQUIRE(system("cp -al src tree && mkdir -p tree/.git && "
			   "echo x > tree/.git/HEAD") == 0);
}

/* Replace tree/rel (a link into src) by a file of its own. */
static void change(const char *rel, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "tree/%s", rel);
	ATF_REQUIRE(unlink(p) == 0);
	put(p, text);
}

static int check(struct rbuf *differ, char *why, size_t whylen)
{
	return mseed_check("src", "tree", differ, why, whylen);
}

ATF_TC_WITHOUT_HEAD(only_c_files_may_differ);
ATF_TC_BODY(only_c_files_may_differ, tc)
{
	(void)tc;
	char why[600];
	struct rbuf d = {0};
	source_and_tree();
	ATF_CHECK_EQ(check(&d, why, sizeof why), 1);
	ATF_CHECK_STREQ(rbuf_str(&d), "");
	/* the same bytes in a file of its own are the same file */
	change("include/linux/tty.h", "struct tty;\n");
	d.len = 0;
	ATF_CHECK_EQ(check(&d, why, sizeof why), 1);
	ATF_CHECK_STREQ(rbuf_str(&d), "");
	/* a clone's symbolic link of its own to the same name */
	ATF_REQUIRE(symlink("tty.h", "src/include/linux/tty_link.h") == 0);
	ATF_REQUIRE(symlink("tty.h", "tree/include/linux/tty_link.h") == 0);
	d.len = 0;
	ATF_CHECK_EQ(check(&d, why, sizeof why), 1);
	change("drivers/tty/n_tty.c", "int n_tty = 1;\n");
	d.len = 0;
	ATF_CHECK_EQ(check(&d, why, sizeof why), 1);
	ATF_CHECK_STREQ(rbuf_str(&d), "drivers/tty/n_tty.c\n");
	/* a header: the seeded objects' dependencies name the source's */
	change("include/linux/tty.h", "struct tty { int x; };\n");
	ATF_CHECK_EQ(check(&d, why, sizeof why), 0);
	ATF_CHECK_MSG(strstr(why, "include/linux/tty.h"), "why: %s", why);
	change("include/linux/tty.h", "struct tty;\n");
	/* a build tool's C file: objtool is kept from the seed */
	change("tools/objtool/check.c", "int check = 2;\n");
	ATF_CHECK_EQ(check(&d, why, sizeof why), 0);
	ATF_CHECK_MSG(strstr(why, "tools/objtool/check.c"), "why: %s", why);
	change("tools/objtool/check.c", "int check;\n");
	/* a file the source lacks (an in-tree build's object) */
	put("tree/drivers/tty/n_tty.o", "ELF");
	ATF_CHECK_EQ(check(&d, why, sizeof why), 0);
	ATF_CHECK_MSG(strstr(why, "drivers/tty/n_tty.o is not in the source"), "why: %s", why);
	rbuf_free(&d);
}

ATF_TC_WITHOUT_HEAD(refresh_leaves_the_user_file);
ATF_TC_BODY(refresh_leaves_the_user_file, tc)
{
	(void)tc;
	source_and_tree();
	change("drivers/tty/n_tty.c", "int n_tty = 1;\n");
	/* an old edit: make would take the seeded object as newer */
	struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
	ATF_REQUIRE(utimensat(AT_FDCWD, "tree/drivers/tty/n_tty.c", old, 0) == 0);
	ATF_REQUIRE(system("cp -al tree run") == 0);
	char err[300];
	time_t before = time(NULL);
	ATF_REQUIRE_MSG(mseed_refresh("run", "drivers/tty/n_tty.c\n", err, sizeof err) == 0,
			"%s", err);
	struct stat u, r;
	ATF_REQUIRE(stat("tree/drivers/tty/n_tty.c", &u) == 0);
	ATF_REQUIRE(stat("run/drivers/tty/n_tty.c", &r) == 0);
	ATF_CHECK_MSG(u.st_ino != r.st_ino, "the run tree's copy is still the user's file");
	ATF_CHECK_EQ(u.st_mtime, 1000000000);
	ATF_CHECK_MSG(r.st_mtime >= before, "the copy's mtime %ld is not new", (long)r.st_mtime);
	char *t = ku_read_file("run/drivers/tty/n_tty.c", NULL);
	ATF_CHECK_STREQ(t, "int n_tty = 1;\n");
	free(t);
}

/* A finished build of `from` with a stamp of ident and this fragment. */
static void finished_build(const char *ident, const char *frag_text)
{
	char cwd[PATH_MAX], frag[PATH_MAX + 16], hex[65], stamp[600];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(frag, sizeof frag, "%s/frag.config", cwd);
	put(frag, frag_text);
	setenv("TTYPOT_FRAGMENT", frag, 1);
	put("from/vmlinux", "ELF");
	put("from/fs/open.o", "ELF");
	ATF_REQUIRE(ku_sha256_file(frag, hex) == 0);
	snprintf(stamp, sizeof stamp, "source=%s\nfragment=%s\n", ident, hex);
	put("from/ttypot.stamp", stamp);
}

ATF_TC_WITHOUT_HEAD(seed_only_same_source_and_config);
ATF_TC_BODY(seed_only_same_source_and_config, tc)
{
	(void)tc;
	char why[600];
	finished_build("linux-source-6.12 1", "CONFIG_TTY=y\n");
	ATF_CHECK_EQ(kbuild_seed("from", "linux-source-6.12 2", "b1", why, sizeof why), 0);
	ATF_CHECK_MSG(strstr(why, "another source or config"), "why: %s", why);
	ATF_CHECK(!ku_is_dir("b1"));
	/* the fragment changed since the build */
	put(getenv("TTYPOT_FRAGMENT"), "CONFIG_TTY=y\nCONFIG_VT=y\n");
	ATF_CHECK_EQ(kbuild_seed("from", "linux-source-6.12 1", "b2", why, sizeof why), 0);
	ATF_CHECK(!ku_is_dir("b2"));
	put(getenv("TTYPOT_FRAGMENT"), "CONFIG_TTY=y\n");
	ATF_CHECK_EQ(kbuild_seed("from", "linux-source-6.12 1", "b3", why, sizeof why), 1);
	ATF_CHECK_MSG(ku_is_file("b3/fs/open.o"), "the objects were not copied");
	ATF_CHECK_MSG(!ku_is_file("b3/ttypot.stamp"), "the seed's stamp came along");
	ATF_CHECK_MSG(ku_is_file("b3/ttypot-seeded"), "no seeded mark");
	glob_t g;
	ATF_CHECK_MSG(glob(".b3.tmp.*", GLOB_NOSORT, NULL, &g) == GLOB_NOMATCH,
		      "the temporary copy is left");
	globfree(&g);
	/* never over a build that exists */
	ATF_CHECK_EQ(kbuild_seed("from", "linux-source-6.12 1", "b3", why, sizeof why), 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, only_c_files_may_differ);
	ATF_TP_ADD_TC(tp, refresh_leaves_the_user_file);
	ATF_TP_ADD_TC(tp, seed_only_same_source_and_config);
	return atf_no_error();
}
