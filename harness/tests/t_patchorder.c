// SPDX-License-Identifier: GPL-2.0-only
/* t_patchorder: the diff-to-programs mapping (harness/mutation/diffmap.h)
 * on real git diffs made in a temporary repository, against a small
 * hand-written coverage map: a changed line the map lists gives its
 * programs, an insertion its function's, another version goes by function
 * name, and a header, a build file, a declaration or a new function runs
 * everything. */
#include <atf-c.h>

#include "cover.h"
#include "diffmap.h"
#include "kutil.h"
#include "patch_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The map's source: drivers/tty/n_tty.c as the map knows it. */
static const char n_tty[] =
	"/* a stand-in n_tty.c */\n"            /* 1 */
	"#include <linux/tty.h>\n"              /* 2 */
	"\n"                                    /* 3 */
	"static int counter;\n"                 /* 4 */
	"\n"                                    /* 5 */
	"static int n_tty_read(int x)\n"        /* 6 */
	"{\n"                                   /* 7 */
	"\tint y = x + 1; /* { */\n"            /* 8 */
	"\tif (y > 2)\n"                        /* 9 */
	"\t\treturn y;\n"                       /* 10 */
	"\treturn 0;\n"                         /* 11 */
	"}\n"                                   /* 12 */
	"\n"                                    /* 13 */
	"static int n_tty_write(int x)\n"       /* 14 */
	"{\n"                                   /* 15 */
	"\treturn x * 2;\n"                     /* 16 */
	"}\n";                                  /* 17 */

static const char map_text[] =
	"# ttypot coverage map 1\n"
	"# source test-fixture, suite t_patchorder\n"
	"program pty/t_open 1.0\n"
	"program canon/t_line_edit 2.0\n"
	"program close/t_close_race 3.0\n"
	"fn drivers/tty/n_tty.c 6 12 n_tty_read\n"
	"fn drivers/tty/n_tty.c 14 17 n_tty_write\n"
	"line drivers/tty/n_tty.c 8 pty/t_open canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 9 pty/t_open canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 10 canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 11 pty/t_open\n"
	"line drivers/tty/n_tty.c 16 close/t_close_race\n";

static char repo[64];

static void sh(const char *fmt, const char *arg)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, fmt, repo, arg ? arg : "");
	ATF_REQUIRE_MSG(system(cmd) == 0, "failed: %s", cmd);
}

static void put(const char *rel, const char *text)
{
	char p[256], dir[256];
	snprintf(p, sizeof p, "%s/%s", repo, rel);
	snprintf(dir, sizeof dir, "%s", p);
	*strrchr(dir, '/') = '\0';
	ATF_REQUIRE(ku_mkdir_p(dir, 0755) == 0);
	ATF_REQUIRE(ku_write_file(p, text, strlen(text)) == 0);
}

#define GIT "git -C %s -c user.name=t -c user.email=t@localhost "

/* A repository whose one commit (tag base) holds n_tty.c, a header, a
 * Makefile and a Documentation file. */
static void make_repo(const char *base_n_tty)
{
	snprintf(repo, sizeof repo, "/tmp/ttypot-patchorder.XXXXXX");
	ATF_REQUIRE(mkdtemp(repo) != NULL);
	sh("git init -q %s%s", NULL);
	put("drivers/tty/n_tty.c", base_n_tty);
	put("include/linux/tty.h", "struct tty_struct;\n");
	put("drivers/tty/Makefile", "obj-y += n_tty.o\n");
	put("Documentation/tty.txt", "the tty layer\n");
	sh(GIT "add -A%s", NULL);
	sh(GIT "commit -q -m base%s", NULL);
	sh(GIT "tag base%s", NULL);
}

static void load_map(struct cover_map *m)
{
	char p[128], err[512];
	snprintf(p, sizeof p, "%s.map", repo);
	ATF_REQUIRE(ku_write_file(p, map_text, strlen(map_text)) == 0);
	ATF_REQUIRE_MSG(cover_load(p, m, err, sizeof err) == 0, "%s", err);
	unlink(p);
}

/* Map the working tree against base. */
static void map(struct dm_result *r)
{
	struct cover_map m;
	struct dm_diff d;
	char err[512];
	load_map(&m);
	ATF_REQUIRE_MSG(dm_git_diff(repo, "base", &d, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_MSG(dm_map(&m, &d, repo, "base", r, err, sizeof err) == 0, "%s", err);
	dm_diff_free(&d);
	cover_free(&m);
}

static void done(void)
{
	ku_rm_rf(repo);
}

/* n_tty with line `line` (1-based) replaced by repl. */
static char *n_tty_with(const char *base, int line, const char *repl)
{
	static char out[4096];
	char in[4096];
	snprintf(in, sizeof in, "%s", base);
	size_t o = 0;
	int l = 1;
	for (const char *p = in; *p; l++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		if (l == line)
			o += (size_t)snprintf(out + o, sizeof out - o, "%s", repl);
		else {
			memcpy(out + o, p, n);
			o += n;
		}
		p += n;
	}
	out[o] = '\0';
	return out;
}

static void check_progs(const struct dm_result *r, const char *const *want, size_t n)
{
	ATF_CHECK_MSG(!r->all, "everything: %s", r->why);
	ATF_CHECK_EQ_MSG(r->nprogs, n, "%zu programs, want %zu", r->nprogs, n);
	for (size_t i = 0; i < n; i++)
		ATF_CHECK_MSG(dm_selects(r, want[i]), "%s not selected", want[i]);
}

ATF_TC(diff_parser_on_git);
ATF_TC_HEAD(diff_parser_on_git, tc)
{
	atf_tc_set_md_var(tc, "descr", "dm_git_diff reads git's own -U0 diff: a replaced line, "
			  "an insertion, a deletion, a new file, a deleted file and a binary file");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(diff_parser_on_git, tc)
{
	make_repo(n_tty);
	char *t = n_tty_with(n_tty, 10, "\t\treturn y + 1;\n");
	t = n_tty_with(t, 16, "\treturn x * 2;\n\tx++;\n"); /* insertion after 16 */
	t = n_tty_with(t, 4, "");                           /* deletion of 4 */
	put("drivers/tty/n_tty.c", t);
	put("drivers/tty/new.c", "int x;\n");
	sh("rm %s/Documentation/tty.txt%s", NULL);
	char blob[128];
	snprintf(blob, sizeof blob, "%s/drivers/tty/blob.bin", repo);
	ATF_REQUIRE(ku_write_file(blob, "a\0b\0c", 5) == 0);
	sh(GIT "add -A%s", NULL); /* new files show in the diff once tracked */
	struct dm_diff d;
	char err[512];
	ATF_REQUIRE_MSG(dm_git_diff(repo, "base", &d, err, sizeof err) == 0, "%s", err);
	const struct dm_file *nt = NULL, *nw = NULL, *doc = NULL, *bin = NULL;
	for (size_t i = 0; i < d.n; i++) {
		if (!strcmp(d.v[i].path, "drivers/tty/n_tty.c"))
			nt = &d.v[i];
		else if (!strcmp(d.v[i].path, "drivers/tty/new.c"))
			nw = &d.v[i];
		else if (!strcmp(d.v[i].path, "Documentation/tty.txt"))
			doc = &d.v[i];
		else if (!strcmp(d.v[i].path, "drivers/tty/blob.bin"))
			bin = &d.v[i];
	}
	ATF_REQUIRE_MSG(nt && nw && doc && bin, "%zu files in the diff", d.n);
	ATF_REQUIRE_EQ(nt->nhunks, 3);
	/* deletion of base line 4: -4,1 +3,0 */
	ATF_CHECK(nt->hunks[0].os == 4 && nt->hunks[0].oc == 1 && nt->hunks[0].nc == 0);
	/* replacement of base line 10 (new line 9) */
	ATF_CHECK(nt->hunks[1].os == 10 && nt->hunks[1].oc == 1 && nt->hunks[1].ns == 9 &&
		  nt->hunks[1].nc == 1);
	/* insertion after base line 16 */
	ATF_CHECK(nt->hunks[2].os == 16 && nt->hunks[2].oc == 0 && nt->hunks[2].nc == 1);
	ATF_CHECK(nw->created && !nw->deleted);
	ATF_CHECK(doc->deleted && !doc->created);
	ATF_CHECK(bin->binary);
	dm_diff_free(&d);
	done();
}

ATF_TC(changed_line_gives_its_programs);
ATF_TC_HEAD(changed_line_gives_its_programs, tc)
{
	atf_tc_set_md_var(tc, "descr", "a replaced line the map lists selects exactly the "
			  "programs that executed it (and programs the map does not know); a "
			  "Documentation change adds nothing");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(changed_line_gives_its_programs, tc)
{
	make_repo(n_tty);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 10, "\t\treturn y + 1;\n"));
	put("Documentation/tty.txt", "the tty layer, edited\n");
	struct dm_result r;
	map(&r);
	const char *want[] = { "canon/t_line_edit" };
	check_progs(&r, want, 1);
	ATF_CHECK(!r.by_function);
	/* a program the map knows and does not name: not run first */
	ATF_CHECK(!dm_selects(&r, "pty/t_open"));
	/* a program newer than the map: it may reach anything */
	ATF_CHECK(dm_selects(&r, "serial/t_newer_than_the_map"));
	dm_result_free(&r);
	done();
}

ATF_TC(insertion_gives_its_function);
ATF_TC_HEAD(insertion_gives_its_function, tc)
{
	atf_tc_set_md_var(tc, "descr", "lines inserted into a function select every program "
			  "that executed a line of it; an unlisted line (a declaration) too");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(insertion_gives_its_function, tc)
{
	make_repo(n_tty);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 9, "\tif (y > 2)\n\t\ty++;\n"));
	struct dm_result r;
	map(&r);
	const char *want[] = { "pty/t_open", "canon/t_line_edit" };
	check_progs(&r, want, 2);
	dm_result_free(&r);
	/* The brace line 12 is no line the map lists: n_tty_read's programs. */
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 12, "} /* end */\n"));
	map(&r);
	check_progs(&r, want, 2);
	dm_result_free(&r);
	done();
}

ATF_TC(header_runs_everything);
ATF_TC_HEAD(header_runs_everything, tc)
{
	atf_tc_set_md_var(tc, "descr", "a diff that touches a header runs everything, saying "
			  "which header, even beside a change the map could narrow");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(header_runs_everything, tc)
{
	make_repo(n_tty);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 10, "\t\treturn y + 1;\n"));
	put("include/linux/tty.h", "struct tty_struct;\nstruct tty_port;\n");
	struct dm_result r;
	map(&r);
	ATF_CHECK(r.all);
	ATF_CHECK_MSG(strstr(r.why, "include/linux/tty.h") && strstr(r.why, "header"),
		      "why: %s", r.why);
	ATF_CHECK(dm_selects(&r, "serial/t_link"));
	dm_result_free(&r);
	done();
}

ATF_TC(outside_the_map_runs_everything);
ATF_TC_HEAD(outside_the_map_runs_everything, tc)
{
	atf_tc_set_md_var(tc, "descr", "a build file, a declaration outside every function and "
			  "a new function each run everything, naming the reason");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(outside_the_map_runs_everything, tc)
{
	struct dm_result r;
	make_repo(n_tty);
	put("drivers/tty/Makefile", "obj-y += n_tty.o pty.o\n");
	map(&r);
	ATF_CHECK_MSG(r.all && strstr(r.why, "build change"), "why: %s", r.why);
	dm_result_free(&r);
	done();

	make_repo(n_tty);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 4, "static long counter;\n"));
	map(&r);
	ATF_CHECK_MSG(r.all && strstr(r.why, "outside every function"), "why: %s", r.why);
	dm_result_free(&r);
	done();

	make_repo(n_tty);
	put("drivers/tty/n_tty.c",
	    n_tty_with(n_tty, 17, "}\n\nstatic int n_tty_new(void)\n{\n\treturn 1;\n}\n"));
	map(&r);
	ATF_CHECK_MSG(r.all && strstr(r.why, "n_tty_new"), "why: %s", r.why);
	dm_result_free(&r);
	done();
}

ATF_TC(other_version_by_function);
ATF_TC_HEAD(other_version_by_function, tc)
{
	atf_tc_set_md_var(tc, "descr", "in a file of another version (its functions elsewhere "
			  "than the map has them) a change maps through its function's name");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(other_version_by_function, tc)
{
	/* Three lines more at the top: every line number differs from the map's. */
	char older[4096];
	snprintf(older, sizeof older, "/*\n * another version\n */\n%s", n_tty);
	make_repo(older);
	/* n_tty_write's body: base line 19 here, 16 in the map's source. */
	put("drivers/tty/n_tty.c", n_tty_with(older, 19, "\treturn x * 3;\n"));
	struct dm_result r;
	map(&r);
	const char *want[] = { "close/t_close_race" };
	check_progs(&r, want, 1);
	ATF_CHECK(r.by_function);
	dm_result_free(&r);
	done();
}

ATF_TC(bisect_base);
ATF_TC_HEAD(bisect_base, tc)
{
	atf_tc_set_md_var(tc, "descr", "a bisect step compares with the nearest good ancestor "
			  "(refs/bisect/good-*), else with HEAD's parent");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(bisect_base, tc)
{
	make_repo(n_tty);
	char rev[128], err[512], want[128];
	put("Documentation/tty.txt", "one\n");
	sh(GIT "commit -q -am one%s", NULL);
	put("Documentation/tty.txt", "two\n");
	sh(GIT "commit -q -am two%s", NULL);
	ATF_REQUIRE_MSG(dm_bisect_base(repo, rev, sizeof rev, err, sizeof err) == 0, "%s", err);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "git -C %s rev-parse HEAD^", repo);
	FILE *p = popen(cmd, "r");
	ATF_REQUIRE(p && fgets(want, sizeof want, p));
	pclose(p);
	want[strcspn(want, "\n")] = '\0';
	ATF_CHECK_STREQ(rev, want);
	/* base is good (as git bisect start HEAD base records it) */
	sh(GIT "update-ref refs/bisect/good-x base%s", NULL);
	sh(GIT "update-ref refs/bisect/bad HEAD%s", NULL);
	ATF_REQUIRE_MSG(dm_bisect_base(repo, rev, sizeof rev, err, sizeof err) == 0, "%s", err);
	snprintf(cmd, sizeof cmd, "git -C %s rev-parse base", repo);
	p = popen(cmd, "r");
	ATF_REQUIRE(p && fgets(want, sizeof want, p));
	pclose(p);
	want[strcspn(want, "\n")] = '\0';
	ATF_CHECK_STREQ(rev, want);
	done();
}

ATF_TC(functions_of_c);
ATF_TC_HEAD(functions_of_c, tc)
{
	atf_tc_set_md_var(tc, "descr", "dm_functions finds definitions with a return type on "
			  "its own line and attributes after the parameters, and skips "
			  "initializers, structs, comments, strings and preprocessor lines");
}
ATF_TC_BODY(functions_of_c, tc)
{
	const char *src =
		"static const struct ops o = {\n"           /* 1 */
		"\t.read = f,\n"                            /* 2 */
		"};\n"                                      /* 3 */
		"#define M(x) { x }\n"                      /* 4 */
		"struct s { int a; };\n"                    /* 5 */
		"static ssize_t\n"                          /* 6 */
		"f(struct tty *t, const char *s) __must_hold(&l)\n" /* 7 */
		"{\n"                                       /* 8 */
		"\tconst char *q = \"}{\"; /* } */\n"       /* 9 */
		"\tif (q) { return '}'; }\n"                /* 10 */
		"\treturn 0;\n"                             /* 11 */
		"}\n"                                       /* 12 */
		"int g(void) { return sizeof(int); }\n";    /* 13 */
	struct dm_fn *f;
	size_t n = dm_functions(src, &f);
	ATF_REQUIRE_EQ(n, 2);
	ATF_CHECK_STREQ(f[0].name, "f");
	ATF_CHECK(f[0].start == 7 && f[0].brace == 8 && f[0].end == 12);
	ATF_CHECK_STREQ(f[1].name, "g");
	ATF_CHECK(f[1].start == 13 && f[1].end == 13);
	free(f);
}

ATF_TC(unbuilt_change_reaches_nothing);
ATF_TC_HEAD(unbuilt_change_reaches_nothing, tc)
{
	atf_tc_set_md_var(tc, "descr", "a change only to files the build never reads "
			  "(Documentation/) reaches no program, not even one the map does not "
			  "know; with a tty file changed too, the unknown one runs again");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(unbuilt_change_reaches_nothing, tc)
{
	make_repo(n_tty);
	put("Documentation/tty.txt", "the tty layer, edited\n");
	struct dm_result r;
	map(&r);
	ATF_CHECK_MSG(!r.all, "everything: %s", r.why);
	ATF_CHECK_EQ(r.nprogs, 0);
	ATF_CHECK(!dm_selects(&r, "canon/t_line_edit"));
	ATF_CHECK(!dm_selects(&r, "serial/t_newer_than_the_map"));
	dm_result_free(&r);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 10, "\t\treturn y + 1;\n"));
	map(&r);
	ATF_CHECK(dm_selects(&r, "canon/t_line_edit"));
	ATF_CHECK(dm_selects(&r, "serial/t_newer_than_the_map"));
	ATF_CHECK(!dm_selects(&r, "pty/t_open"));
	dm_result_free(&r);
	done();
}

/* patch_order_plan of the repository's working tree against base, with a
 * map of this text and a suite of these case ids. */
static void plan(const char *map, const char *const *ids, size_t n, struct patch_order *po)
{
	char mp[128], err[512];
	snprintf(mp, sizeof mp, "%s.map", repo);
	ATF_REQUIRE(ku_write_file(mp, map, strlen(map)) == 0);
	struct idlist ex = {0};
	for (size_t i = 0; i < n; i++)
		idlist_add(&ex, ids[i]);
	int rc = patch_order_plan("/nonexistent", mp, repo, "base", &ex, po, err, sizeof err);
	ATF_REQUIRE_MSG(rc == 0, "%s", err);
	idlist_free(&ex);
	unlink(mp);
}

ATF_TC(order_filters);
ATF_TC_HEAD(order_filters, tc)
{
	atf_tc_set_md_var(tc, "descr", "patch_order_plan turns the reaching programs into the "
			  "first filter (with programs the map does not know) and every other "
			  "program into the rest, a whole area as its name; N cases counted");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(order_filters, tc)
{
	make_repo(n_tty);
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 10, "\t\treturn y + 1;\n"));
	const char *ids[] = { "canon/t_eof:x", "canon/t_line_edit:a", "canon/t_line_edit:b",
			      "close/t_close_race:z", "pty/t_open:y", "pty/t_open:y2",
			      "serial/t_new:w" };
	struct patch_order po;
	plan(map_text, ids, sizeof ids / sizeof *ids, &po);
	ATF_CHECK(!po.all);
	/* canon/t_eof and serial/t_new: programs the map does not know */
	ATF_CHECK_STREQ(po.first, "canon/t_eof canon/t_line_edit serial/t_new");
	ATF_CHECK_STREQ(po.rest, "close pty");
	ATF_CHECK_EQ(po.first_cases, 4);
	ATF_CHECK_EQ(po.rest_cases, 3);
	patch_order_free(&po);
	/* no map: an error naming it */
	struct idlist ex = {0};
	idlist_add(&ex, ids[0]);
	char err[512];
	ATF_CHECK(patch_order_plan("/nonexistent", NULL, repo, "base", &ex, &po, err,
				   sizeof err) < 0);
	ATF_CHECK_MSG(strstr(err, "/nonexistent/reports/cover.map") != NULL, "%s", err);
	idlist_free(&ex);
	done();
}

/* map_text as `make coverage` writes it now: version 2, with each
 * program's cases. */
static const char map_cases_text[] =
	"# ttypot coverage map 2\n"
	"# source test-fixture, suite t_patchorder\n"
	"program pty/t_open 1.0\n"
	"cases pty/t_open y y2\n"
	"program canon/t_line_edit 2.0\n"
	"cases canon/t_line_edit a b\n"
	"program close/t_close_race 3.0\n"
	"cases close/t_close_race z\n"
	"fn drivers/tty/n_tty.c 6 12 n_tty_read\n"
	"fn drivers/tty/n_tty.c 14 17 n_tty_write\n"
	"line drivers/tty/n_tty.c 8 pty/t_open canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 9 pty/t_open canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 10 canon/t_line_edit\n"
	"line drivers/tty/n_tty.c 11 pty/t_open\n"
	"line drivers/tty/n_tty.c 16 close/t_close_race\n";

ATF_TC(changed_cases_are_selected);
ATF_TC_HEAD(changed_cases_are_selected, tc)
{
	atf_tc_set_md_var(tc, "descr", "a program that gained a case since the map was made "
			  "runs first for a change the map credits only to others (what ci --base "
			  "and bisect-run select), and the plan names it; with the cases the map "
			  "lists it is left to the rest");
	atf_tc_set_md_var(tc, "require.progs", "git");
}
ATF_TC_BODY(changed_cases_are_selected, tc)
{
	make_repo(n_tty);
	/* Line 10: only canon/t_line_edit executed it. */
	put("drivers/tty/n_tty.c", n_tty_with(n_tty, 10, "\t\treturn y + 1;\n"));
	const char *ids[] = { "canon/t_line_edit:a", "canon/t_line_edit:b",
			      "close/t_close_race:z", "pty/t_open:y", "pty/t_open:y2",
			      "pty/t_open:y3_added_after_the_map" };
	size_t n = sizeof ids / sizeof *ids;
	struct patch_order po;
	plan(map_cases_text, ids, n - 1, &po);
	ATF_CHECK_STREQ(po.first, "canon/t_line_edit");
	ATF_CHECK_STREQ(po.rest, "close pty");
	ATF_CHECK_EQ(po.nstale, 0);
	ATF_CHECK_STREQ(po.note, "");
	patch_order_free(&po);
	/* pty/t_open gains a case: its new case may reach line 10. */
	plan(map_cases_text, ids, n, &po);
	ATF_CHECK(!po.all);
	ATF_CHECK_STREQ(po.first, "canon/t_line_edit pty/t_open");
	ATF_CHECK_STREQ(po.rest, "close");
	ATF_CHECK_EQ(po.first_cases, 5);
	ATF_CHECK_EQ(po.nstale, 1);
	ATF_CHECK_MSG(strstr(po.note, "pty/t_open") && !strstr(po.note, "canon/"), "note: %s",
		      po.note);
	patch_order_free(&po);
	done();
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, order_filters);
	ATF_TP_ADD_TC(tp, changed_cases_are_selected);
	ATF_TP_ADD_TC(tp, diff_parser_on_git);
	ATF_TP_ADD_TC(tp, changed_line_gives_its_programs);
	ATF_TP_ADD_TC(tp, unbuilt_change_reaches_nothing);
	ATF_TP_ADD_TC(tp, insertion_gives_its_function);
	ATF_TP_ADD_TC(tp, header_runs_everything);
	ATF_TP_ADD_TC(tp, outside_the_map_runs_everything);
	ATF_TP_ADD_TC(tp, other_version_by_function);
	ATF_TP_ADD_TC(tp, bisect_base);
	ATF_TP_ADD_TC(tp, functions_of_c);
	return atf_no_error();
}
