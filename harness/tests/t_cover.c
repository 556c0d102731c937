// SPDX-License-Identifier: GPL-2.0-only
/* t_cover: the per-program coverage map (harness/mutation/cover.h) and
 * `ttypot cover`, on the small map fixtures/cover/small.map (a version 1
 * map: no case lists), cases.map (with them) and the broken maps beside
 * them. */
#include <atf-c.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "cover.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#define COVER_DEADLINE_S 30

static void fixture(const atf_tc_t *tc, const char *name, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s/../../fixtures/cover/%s", atf_tc_get_config_var(tc, "srcdir"),
		 name);
}

static void load_small(const atf_tc_t *tc, struct cover_map *m)
{
	char path[PATH_MAX], err[512];
	fixture(tc, "small.map", path, sizeof path);
	ATF_REQUIRE_EQ_MSG(cover_load(path, m, err, sizeof err), 0, "%s", err);
}

ATF_TC(load_small_map);
ATF_TC_HEAD(load_small_map, tc)
{
	atf_tc_set_md_var(tc, "descr", "cover_load reads programs with their seconds (- is "
			  "unknown), functions, lines sorted by file and line, the source comment, "
			  "and ignores blank lines and trailing comments");
}
ATF_TC_BODY(load_small_map, tc)
{
	struct cover_map m;
	load_small(tc, &m);
	ATF_REQUIRE_EQ(m.nprogs, 3);
	ATF_CHECK_STREQ(m.progs[0], "pty/t_open");
	ATF_CHECK_STREQ(m.progs[1], "canon/t_line_edit");
	ATF_CHECK_STREQ(m.progs[2], "serial/t_loop");
	ATF_CHECK(m.prog_secs[0] == 3.25 && m.prog_secs[1] == 10.5 && m.prog_secs[2] == -1);
	ATF_CHECK_EQ(m.nfns, 5);
	ATF_REQUIRE_EQ(m.nlines, 6);
	static const struct { const char *file; int line; } want[] = {
		{ "drivers/tty/n_tty.c", 5 },   { "drivers/tty/n_tty.c", 101 },
		{ "drivers/tty/n_tty.c", 105 }, { "drivers/tty/n_tty.c", 131 },
		{ "drivers/tty/n_tty.c", 135 }, { "drivers/tty/pty.c", 12 },
	};
	for (size_t i = 0; i < m.nlines; i++) {
		ATF_CHECK_STREQ(m.lines[i].file, want[i].file);
		ATF_CHECK_EQ(m.lines[i].line, want[i].line);
	}
	ATF_CHECK(m.lines[1].boot && m.lines[1].nprogs == 0);
	ATF_CHECK(!m.lines[3].boot && m.lines[3].nprogs == 1);
	ATF_CHECK_MATCH("^linux-source-6.12 6.12.test, suite test-fixture", m.source);
	cover_free(&m);
	ATF_CHECK_EQ(m.nlines, 0);
}

ATF_TC(lookups);
ATF_TC_HEAD(lookups, tc)
{
	atf_tc_set_md_var(tc, "descr", "cover_find finds executed lines only, cover_fn_at the "
			  "function holding a line, cover_fn_named a function in a file or the "
			  "first anywhere, cover_knows_file the files that were profiled");
}
ATF_TC_BODY(lookups, tc)
{
	struct cover_map m;
	load_small(tc, &m);
	const struct cover_line *c = cover_find(&m, "drivers/tty/n_tty.c", 105);
	ATF_REQUIRE(c);
	ATF_REQUIRE_EQ(c->nprogs, 2);
	ATF_CHECK_STREQ(c->progs[0], "pty/t_open");
	ATF_CHECK_STREQ(c->progs[1], "canon/t_line_edit");
	ATF_CHECK(!cover_find(&m, "drivers/tty/n_tty.c", 106));
	ATF_CHECK(!cover_find(&m, "drivers/tty/pty.c", 105));
	ATF_CHECK(!cover_find(&m, "drivers/tty/tty_io.c", 12));

	const struct cover_fn *f = cover_fn_at(&m, "drivers/tty/n_tty.c", 120);
	ATF_REQUIRE(f);
	ATF_CHECK_STREQ(f->name, "n_tty_read");
	ATF_CHECK(cover_fn_at(&m, "drivers/tty/n_tty.c", 100) == f);
	ATF_CHECK(!cover_fn_at(&m, "drivers/tty/n_tty.c", 125));
	ATF_CHECK(!cover_fn_at(&m, "drivers/tty/pty.c", 105));

	f = cover_fn_named(&m, NULL, "pty_write");
	ATF_REQUIRE(f);
	ATF_CHECK_STREQ(f->file, "drivers/tty/pty.c");
	f = cover_fn_named(&m, "drivers/tty/serial/serial_core.c", "pty_write");
	ATF_REQUIRE(f);
	ATF_CHECK_STREQ(f->file, "drivers/tty/serial/serial_core.c");
	ATF_CHECK(!cover_fn_named(&m, "drivers/tty/n_tty.c", "pty_write"));
	ATF_CHECK(!cover_fn_named(&m, NULL, "no_such_fn"));

	/* serial_core.c has functions and no executed line: profiled; a file
	 * with neither was never profiled, and its lines are unknown. */
	ATF_CHECK(cover_knows_file(&m, "drivers/tty/n_tty.c"));
	ATF_CHECK(cover_knows_file(&m, "drivers/tty/serial/serial_core.c"));
	ATF_CHECK(!cover_knows_file(&m, "drivers/usb/serial/generic.c"));
	cover_free(&m);
}

ATF_TC(boot_lines_every_program);
ATF_TC_HEAD(boot_lines_every_program, tc)
{
	atf_tc_set_md_var(tc, "descr", "cover_programs gives every program for a line reached "
			  "before the first program (*), the listed ones otherwise, none for a "
			  "line nobody executes, and never half a name when out is short");
}
ATF_TC_BODY(boot_lines_every_program, tc)
{
	struct cover_map m;
	load_small(tc, &m);
	char out[256];
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 101, out, sizeof out), 3);
	ATF_CHECK_STREQ(out, "pty/t_open canon/t_line_edit serial/t_loop");
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 131, out, sizeof out), 1);
	ATF_CHECK_STREQ(out, "canon/t_line_edit");
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 150, out, sizeof out), 0);
	ATF_CHECK_STREQ(out, "");
	char small[16];
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 101, small, sizeof small), 3);
	ATF_CHECK_STREQ(small, "pty/t_open");
	cover_free(&m);
}

ATF_TC(parse_errors_name_file_and_line);
ATF_TC_HEAD(parse_errors_name_file_and_line, tc)
{
	atf_tc_set_md_var(tc, "descr", "cover_load refuses a broken map with a message naming "
			  "the file, the line and what is wrong, and leaves the map empty");
}
ATF_TC_BODY(parse_errors_name_file_and_line, tc)
{
	static const struct { const char *file, *where, *what; } bad[] = {
		{ "no-magic.map", ":1:", "not a ttypot coverage map" },
		{ "version.map", ":1:", "version 4" },
		{ "cases-twice.map", ":4:", "cases of pty/t_open listed twice" },
		{ "cases-no-program.map", ":3:", "cases of pty/t_nope: it has no 'program' line" },
		{ "unknown-program.map", ":3:", "program pty/t_nope" },
		{ "bad-range.map", ":4:", "before its first" },
		{ "twice.map", ":4:", "drivers/tty/n_tty.c:10 is listed twice" },
		{ "unknown-record.map", ":3:", "unknown record 'lines'" },
		{ "unrun-v2.map", ":3:", "'unrun' is a version 3 record" },
		{ "unrun-and-run.map", ":", "drivers/tty/n_tty.c:10 is both executed and unrun" },
		{ "star-and-programs.map", ":3:", "stands alone" },
		{ "bad-secs.map", ":2:", "'abc' is not a number" },
		{ "does-not-exist.map", "", "cannot read" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char path[PATH_MAX], err[512] = "", want[PATH_MAX + 8];
		fixture(tc, bad[i].file, path, sizeof path);
		struct cover_map m;
		ATF_CHECK_EQ_MSG(cover_load(path, &m, err, sizeof err), -1, "%s loaded",
				 bad[i].file);
		snprintf(want, sizeof want, "%s%s", path, bad[i].where);
		ATF_CHECK_MSG(strstr(err, want) && strstr(err, bad[i].what),
			      "%s: want '%s' and '%s' in: %s", bad[i].file, want, bad[i].what,
			      err);
		ATF_CHECK_EQ(m.nprogs + m.nlines + m.nfns, 0);
	}
}

ATF_TC(case_lists_make_changed_programs_stale);
ATF_TC_HEAD(case_lists_make_changed_programs_stale, tc)
{
	atf_tc_set_md_var(tc, "descr", "cover_check_cases marks stale a program that gained a "
			  "case, one that lost one and one the map has no list for, keeps one whose "
			  "cases are the same in another order; stale programs leave "
			  "cover_programs (boot lines too) and cover_knows, and the note names them");
}
ATF_TC_BODY(case_lists_make_changed_programs_stale, tc)
{
	char path[PATH_MAX], err[512], note[1024];
	struct cover_map m;
	fixture(tc, "cases.map", path, sizeof path);
	ATF_REQUIRE_EQ_MSG(cover_load(path, &m, err, sizeof err), 0, "%s", err);
	ATF_CHECK_EQ(m.version, 2);
	ATF_REQUIRE_EQ(m.nprogs, 4);
	ATF_REQUIRE_EQ(m.prog_ncases[0], 2);
	ATF_CHECK_STREQ(m.prog_cases[0][1], "master_and_slave");
	ATF_CHECK(m.prog_cases[2] == NULL); /* serial/t_loop: no list */
	/* Before any check every listed program is known. */
	char out[256];
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 101, out, sizeof out), 4);
	/* pty/t_open gained a case, canon/t_line_edit is the same in another
	 * order, close/t_race lost its only one (the suite has none now). */
	const char *ids[] = { "canon/t_line_edit:kill", "canon/t_line_edit:erase",
			      "pty/t_open:opens", "pty/t_open:master_and_slave",
			      "pty/t_open:added_later", "serial/t_loop:x" };
	ATF_CHECK_EQ(cover_check_cases(&m, ids, sizeof ids / sizeof *ids, note, sizeof note), 3);
	ATF_CHECK(!cover_knows(&m, "pty/t_open"));
	ATF_CHECK(cover_knows(&m, "canon/t_line_edit"));
	ATF_CHECK(!cover_knows(&m, "serial/t_loop"));
	ATF_CHECK(!cover_knows(&m, "close/t_race"));
	ATF_CHECK(!cover_knows(&m, "pty/t_never_mapped"));
	ATF_CHECK_MSG(strstr(note, "pty/t_open") && strstr(note, "serial/t_loop") &&
		      strstr(note, "close/t_race") && !strstr(note, "canon/"), "note: %s", note);
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 101, out, sizeof out), 1);
	ATF_CHECK_STREQ(out, "canon/t_line_edit");
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 105, out, sizeof out), 1);
	ATF_CHECK_STREQ(out, "canon/t_line_edit");
	ATF_CHECK_EQ(cover_programs(&m, "drivers/tty/n_tty.c", 106, out, sizeof out), 0);
	/* The suite as the map knew it: nothing stale, nothing said. */
	const char *same[] = { "pty/t_open:opens", "pty/t_open:master_and_slave",
			       "canon/t_line_edit:erase", "canon/t_line_edit:kill",
			       "close/t_race:race" };
	ATF_CHECK_EQ(cover_check_cases(&m, same, 5, note, sizeof note), 1); /* serial/t_loop */
	ATF_CHECK(cover_knows(&m, "pty/t_open") && cover_knows(&m, "close/t_race"));
	cover_free(&m);

	/* A version 1 map still loads: its lists are unknown, its programs
	 * trusted, and the note says the map cannot tell. */
	load_small(tc, &m);
	ATF_CHECK_EQ(m.version, 1);
	ATF_CHECK_EQ(cover_check_cases(&m, ids, sizeof ids / sizeof *ids, note, sizeof note), 0);
	ATF_CHECK(cover_knows(&m, "pty/t_open"));
	ATF_CHECK_MSG(strstr(note, "no case lists") && strstr(note, "make coverage"), "note: %s",
		      note);
	cover_free(&m);
}

/* ttypot cover --map small.map ARGS: its exit status, stdout and stderr. */
static int cover(const atf_tc_t *tc, struct rbuf *out, struct rbuf *errout, const char *a,
		 const char *b)
{
	char exe[PATH_MAX], map[PATH_MAX], err[512];
	snprintf(exe, sizeof exe, "%s/../ttypot", atf_tc_get_config_var(tc, "srcdir"));
	fixture(tc, "small.map", map, sizeof map);
	char *argv[] = { exe, "cover", "--map", map, (char *)a, (char *)b, NULL };
	int st = capture_run(argv, NULL, COVER_DEADLINE_S, out, errout, err, sizeof err);
	ATF_REQUIRE_MSG(st >= 0, "%s cover %s: %s", exe, a ? a : "", err);
	return st;
}

ATF_TC(command_output_and_exit);
ATF_TC_HEAD(command_output_and_exit, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot cover prints the programs reaching FILE:LINE, "
			  "FILE:FUNCTION or FUNCTION (union over its lines, every program for a "
			  "boot line) and exits 0, 1 when none does, 2 naming an unknown file or "
			  "function or an ambiguous name");
}
ATF_TC_BODY(command_output_and_exit, tc)
{
	static const struct {
		const char *a, *b;
		int rc;
		const char *out, *err;
	} runs[] = {
		{ "drivers/tty/n_tty.c:105", NULL, 0, "pty/t_open\ncanon/t_line_edit\n",
		  "2 of 3 programs" },
		{ "n_tty.c:135", NULL, 0, "serial/t_loop\n", "(n_tty_write)" },
		{ "drivers/tty/n_tty.c:n_tty_write", NULL, 0, "canon/t_line_edit\nserial/t_loop\n",
		  "lines 130-140" },
		/* A function with a boot line: every program. */
		{ "n_tty_read", NULL, 0, "pty/t_open\ncanon/t_line_edit\nserial/t_loop\n",
		  "every program" },
		/* Several WHEREs: the union, in map order. */
		{ "pty.c:12", "n_tty.c:131", 0, "pty/t_open\ncanon/t_line_edit\n", "pty_write" },
		{ "drivers/tty/n_tty.c:106", NULL, 1, "", "no program executes this line" },
		{ "n_tty_never", NULL, 1, "", "no program executes any of its lines" },
		{ "drivers/tty/nope.c:12", NULL, 2, "", "unknown file 'drivers/tty/nope.c'" },
		{ "n_tty.c:no_such_fn", NULL, 2, "", "no function 'no_such_fn' in drivers/tty/n_tty.c" },
		{ "no_such_fn", NULL, 2, "", "unknown function 'no_such_fn'" },
		{ "pty_write", NULL, 2, "", "is in drivers/tty/pty.c and drivers/tty/serial/serial_core.c" },
		{ "n_tty.c:0", NULL, 2, "", "line numbers start at 1" },
		{ NULL, NULL, 2, "", "is needed" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		struct rbuf out = { 0 }, err = { 0 };
		int st = cover(tc, &out, &err, runs[i].a, runs[i].b);
		const char *what = runs[i].a ? runs[i].a : "(nothing)";
		ATF_CHECK_EQ_MSG(st, runs[i].rc, "cover %s: exit %d, stderr: %s", what, st,
				 rbuf_str(&err));
		ATF_CHECK_STREQ_MSG(rbuf_str(&out), runs[i].out, "cover %s", what);
		ATF_CHECK_MSG(strstr(rbuf_str(&err), runs[i].err), "cover %s: want '%s' in: %s",
			      what, runs[i].err, rbuf_str(&err));
		rbuf_free(&out);
		rbuf_free(&err);
	}
}

ATF_TC(command_help_and_bad_map);
ATF_TC_HEAD(command_help_and_bad_map, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot cover --help shows its usage (exit 0); a map "
			  "that does not parse is exit 2 naming the file and line");
}
ATF_TC_BODY(command_help_and_bad_map, tc)
{
	char exe[PATH_MAX], map[PATH_MAX], err[512];
	snprintf(exe, sizeof exe, "%s/../ttypot", atf_tc_get_config_var(tc, "srcdir"));
	struct rbuf out = { 0 }, errout = { 0 };
	char *help[] = { exe, "cover", "--help", NULL };
	ATF_CHECK_EQ(capture_run(help, NULL, COVER_DEADLINE_S, &out, &errout, err, sizeof err), 0);
	ATF_CHECK_MATCH("usage: ttypot cover ", rbuf_str(&out));
	ATF_CHECK_MATCH("--map FILE", rbuf_str(&out));
	rbuf_free(&out);
	rbuf_free(&errout);
	fixture(tc, "bad-range.map", map, sizeof map);
	char *bad[] = { exe, "cover", "--map", map, "n_tty_read", NULL };
	ATF_CHECK_EQ(capture_run(bad, NULL, COVER_DEADLINE_S, &out, &errout, err, sizeof err), 2);
	char want[PATH_MAX + 8];
	snprintf(want, sizeof want, "%s:4:", map);
	ATF_CHECK_MSG(strstr(rbuf_str(&errout), want), "want %s in: %s", want, rbuf_str(&errout));
	ATF_CHECK_STREQ(rbuf_str(&out), "");
	rbuf_free(&out);
	rbuf_free(&errout);
}

/* The programs of a function's lines, space-separated, deduplicated in
 * first-seen order; "*" when one of them is a boot line. */
static void fn_programs(const struct cover_map *m, const char *name, char *out, size_t outlen)
{
	const struct cover_fn *f = cover_fn_named(m, NULL, name);
	ATF_REQUIRE_MSG(f, "no function %s in the map", name);
	out[0] = '\0';
	for (int l = f->first; l <= f->last; l++) {
		const struct cover_line *c = cover_find(m, f->file, l);
		if (!c)
			continue;
		if (c->boot) {
			snprintf(out, outlen, "*");
			return;
		}
		for (size_t i = 0; i < c->nprogs; i++) {
			char word[256];
			snprintf(word, sizeof word, " %s ", c->progs[i]);
			char padded[1024];
			snprintf(padded, sizeof padded, " %s ", out);
			if (!strstr(padded, word))
				snprintf(out + strlen(out), outlen - strlen(out), "%s%s",
					 out[0] ? " " : "", c->progs[i]);
		}
	}
}

ATF_TC(pipeline_real_gcov);
ATF_TC_HEAD(pipeline_real_gcov, tc)
{
	atf_tc_set_md_var(tc, "descr", "The host half of make coverage on a real gcov build "
			  "(fixtures/cover/pipeline.sh: demo.c as drivers/tty/demo.o, dumped by "
			  "gcov-dump.sh, extract.sh, map.sh): each function is reached by the "
			  "programs that ran it, main by every program (boot), a function nobody "
			  "calls by none (its lines unrun), a line gcov gives no counter (-O2) "
			  "by its neighbours' programs, and a dump cut short leaves its program "
			  "out");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(pipeline_real_gcov, tc)
{
	char script[PATH_MAX], err[512];
	fixture(tc, "pipeline.sh", script, sizeof script);
	struct rbuf out = { 0 }, errout = { 0 };
	char *argv[] = { script, "work", NULL };
	int st = capture_run(argv, NULL, 100, &out, &errout, err, sizeof err);
	ATF_REQUIRE_EQ_MSG(st, 0, "%s: %s\n%s", script, err, rbuf_str(&errout));
	ATF_CHECK_MSG(strstr(rbuf_str(&errout), "1 missing: p/cut"), "the cut dump is not "
		      "named missing: %s", rbuf_str(&errout));
	rbuf_free(&out);
	rbuf_free(&errout);

	struct cover_map m;
	ATF_REQUIRE_EQ_MSG(cover_load("work/cover.map", &m, err, sizeof err), 0, "%s", err);
	ATF_REQUIRE_EQ(m.nprogs, 2);
	ATF_CHECK_STREQ(m.progs[0], "p/one");
	ATF_CHECK_STREQ(m.progs[1], "p/two");
	ATF_CHECK(m.prog_secs[0] == 1.5 && m.prog_secs[1] == 2.25);
	ATF_CHECK_STREQ(m.source, "demo build");
	/* Each program's cases from its -l listing. */
	ATF_CHECK_EQ(m.version, 3);
	ATF_REQUIRE(m.prog_cases[0] && m.prog_cases[1]);
	ATF_REQUIRE_EQ(m.prog_ncases[0], 2);
	ATF_CHECK_STREQ(m.prog_cases[0][0], "first_case");
	ATF_CHECK_STREQ(m.prog_cases[0][1], "second_case");
	ATF_REQUIRE_EQ(m.prog_ncases[1], 1);
	ATF_CHECK_STREQ(m.prog_cases[1][0], "only_case");
	ATF_CHECK_EQ(m.nfns, 5);
	char progs[1024];
	fn_programs(&m, "one", progs, sizeof progs);
	ATF_CHECK_STREQ(progs, "p/one");
	fn_programs(&m, "two", progs, sizeof progs);
	ATF_CHECK_STREQ(progs, "p/two");
	fn_programs(&m, "never", progs, sizeof progs);
	ATF_CHECK_STREQ(progs, "");
	fn_programs(&m, "main", progs, sizeof progs);
	ATF_CHECK_STREQ(progs, "*");
	/* never's lines are counted and unrun; upto's returns (-O2) have no
	 * counter and are reached by whoever reaches their neighbours. */
	const struct cover_fn *nf = cover_fn_named(&m, NULL, "never");
	ATF_REQUIRE(nf);
	ATF_CHECK(m.nunrun >= 2);
	for (size_t i = 0; i < m.nunrun; i++)
		ATF_CHECK_MSG(m.unrun[i].line >= nf->first && m.unrun[i].line <= nf->last,
			      "unrun line %d outside never()", m.unrun[i].line);
	ATF_CHECK(cover_has_counter(&m, "drivers/tty/demo.c", nf->last - 1));
	const struct cover_fn *uf = cover_fn_named(&m, NULL, "upto");
	ATF_REQUIRE(uf);
	int ret_line = uf->last - 1; /* "return 0;" */
	ATF_CHECK(!cover_find(&m, "drivers/tty/demo.c", ret_line));
	ATF_CHECK(!cover_has_counter(&m, "drivers/tty/demo.c", ret_line));
	ATF_CHECK_EQ(cover_programs_around(&m, "drivers/tty/demo.c", ret_line, NULL, progs,
					   sizeof progs), 1);
	ATF_CHECK_STREQ(progs, "p/two");
	ATF_CHECK_EQ(cover_programs_around(&m, "drivers/tty/demo.c", nf->last - 1, NULL, progs,
					   sizeof progs), 0);
	/* Every executed line lies in a function of demo.c. */
	for (size_t i = 0; i < m.nlines; i++) {
		ATF_CHECK_STREQ(m.lines[i].file, "drivers/tty/demo.c");
		ATF_CHECK_MSG(cover_fn_at(&m, m.lines[i].file, m.lines[i].line),
			      "line %d in no function", m.lines[i].line);
	}
	cover_free(&m);
}

/* take() for blocks_before: the lines listed in arg (0-terminated). */
static bool listed(int line, void *arg)
{
	for (const int *l = arg; *l; l++)
		if (*l == line)
			return true;
	return false;
}

static int before_in(const struct blocks *b, int line, int first, const int *counted)
{
	return blocks_before(b, line, first, listed, (void *)counted);
}

ATF_TC(braces_find_what_is_before_a_line);
ATF_TC_HEAD(braces_find_what_is_before_a_line, tc)
{
	atf_tc_set_md_var(tc, "descr", "blocks_before, on fixtures/cover/blocks-demo.c: going "
			  "back from a line it skips the blocks that closed before it (a "
			  "switch's cases before the return after it, an if's body before its "
			  "else), keeps the heads of blocks that hold it, stops at a label's "
			  "block head (a case, a goto's target), and is not misled by braces in "
			  "comments, strings or character literals; cover_programs_around adds "
			  "the programs of the switch's head to those of its last case for the "
			  "counterless return after it");
}
ATF_TC_BODY(braces_find_what_is_before_a_line, tc)
{
	char path[PATH_MAX], err[512];
	fixture(tc, "blocks-demo.c", path, sizeof path);
	char *text = ku_read_file(path, NULL);
	ATF_REQUIRE_MSG(text, "cannot read %s", path);
	struct blocks b;
	ATF_REQUIRE_EQ(blocks_read(text, &b), 0);
	free(text);
	/* The return after the switch: its head, not the last case's lines. */
	ATF_CHECK_EQ(before_in(&b, 16, 3, (const int[]){ 6, 7, 8, 9, 10, 12, 13, 0 }), 6);
	/* In a case: the label, or past it the switch's head, never the
	 * lines of the case before it. */
	ATF_CHECK_EQ(before_in(&b, 12, 3, (const int[]){ 6, 8, 9, 10, 0 }), 10);
	ATF_CHECK_EQ(before_in(&b, 12, 3, (const int[]){ 6, 8, 9, 0 }), 6);
	/* In an else: the if's head, not its body. */
	ATF_CHECK_EQ(before_in(&b, 24, 19, (const int[]){ 21, 22, 0 }), 21);
	/* After the if-else: the head again, or a line after it. */
	ATF_CHECK_EQ(before_in(&b, 26, 19, (const int[]){ 21, 22, 24, 0 }), 21);
	ATF_CHECK_EQ(before_in(&b, 27, 19, (const int[]){ 21, 22, 24, 26, 0 }), 26);
	/* After a goto's target: only what is before the whole body. */
	ATF_CHECK_EQ(before_in(&b, 31, 19, (const int[]){ 21, 26, 27, 29, 0 }), 0);
	ATF_CHECK_EQ(before_in(&b, 31, 19, (const int[]){ 19, 21, 26, 27, 29, 0 }), 19);
	blocks_free(&b);

	/* The map: the return (16) has no counter; its textual neighbour is
	 * case 2's line 12 (p/case2 only); its head, line 6, every program. */
	struct cover_map m;
	fixture(tc, "blocks.map", path, sizeof path);
	ATF_REQUIRE_EQ_MSG(cover_load(path, &m, err, sizeof err), 0, "%s", err);
	fixture(tc, "blocks-demo.c", path, sizeof path);
	text = ku_read_file(path, NULL);
	ATF_REQUIRE(text && blocks_read(text, &b) == 0);
	free(text);
	const char *f = "drivers/tty/blocks-demo.c";
	char progs[1024];
	ATF_CHECK(!cover_has_counter(&m, f, 16));
	ATF_CHECK_EQ(cover_programs_around(&m, f, 16, NULL, progs, sizeof progs), 1);
	ATF_CHECK_STREQ(progs, "p/case2");
	ATF_CHECK_EQ(cover_programs_around(&m, f, 16, &b, progs, sizeof progs), 2);
	ATF_CHECK_STREQ(progs, "p/case2 p/every");
	blocks_free(&b);
	cover_free(&m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, braces_find_what_is_before_a_line);
	ATF_TP_ADD_TC(tp, load_small_map);
	ATF_TP_ADD_TC(tp, lookups);
	ATF_TP_ADD_TC(tp, boot_lines_every_program);
	ATF_TP_ADD_TC(tp, parse_errors_name_file_and_line);
	ATF_TP_ADD_TC(tp, case_lists_make_changed_programs_stale);
	ATF_TP_ADD_TC(tp, command_output_and_exit);
	ATF_TP_ADD_TC(tp, command_help_and_bad_map);
	ATF_TP_ADD_TC(tp, pipeline_real_gcov);
	return atf_no_error();
}
