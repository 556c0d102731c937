// SPDX-License-Identifier: GPL-2.0-only
/* t_mutation_report: the reports of generated mutants (report_mutation.h)
 * on a small real C tree and mutants in every status: the numbers of
 * mutation.md, mutation-report.json checked by the schema's own file with a
 * real validator, and mutation.html rendered by headless Chromium. */
#include <atf-c.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

#include <jansson.h>

#include "proc.h"
#include "rbuf.h"
#include "report_mutation.h"

#define CHROMIUM "/usr/bin/chromium"
#define PYTHON "/usr/bin/python3" /* Debian's, which python3-jsonschema is for */
#define BROWSER_DEADLINE_S 90
#define DIRLEN 420

/* Two files of a tty-like driver; every mutant below names its line by a
 * unique snippet and its span by the text in that line. */
static const char tiny_tty[] =
	"/* tiny_tty.c: a small line buffer (the mutation report tests' source). */\n"
	"#include <errno.h>\n"
	"#include <stdbool.h>\n"
	"#include <stddef.h>\n"
	"\n"
	"#define TINY_BUF 64\n"
	"#define TINY_ECHO 0x1\n"
	"#define TINY_ICANON 0x2\n"
	"\n"
	"struct tiny {\n"
	"\tchar buf[TINY_BUF];\n"
	"\tsize_t head, tail;\n"
	"\tunsigned flags;\n"
	"\tbool waiting;\n"
	"};\n"
	"\n"
	"static void tiny_wake(struct tiny *t)\n"
	"{\n"
	"\tt->waiting = false;\n"
	"}\n"
	"\n"
	"int tiny_put(struct tiny *t, char c)\n"
	"{\n"
	"\tif (t->head - t->tail >= TINY_BUF)\n"
	"\t\treturn -EAGAIN;\n"
	"\tt->buf[t->head++ % TINY_BUF] = c;\n"
	"\tif ((t->flags & TINY_ICANON) && c == '\\n')\n"
	"\t\ttiny_wake(t);\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"int tiny_get(struct tiny *t, char *out, size_t n)\n"
	"{\n"
	"\tsize_t i = 0;\n"
	"\tif (t->head == t->tail)\n"
	"\t\treturn -EAGAIN;\n"
	"\twhile (i < n && t->tail != t->head)\n"
	"\t\tout[i++] = t->buf[t->tail++ % TINY_BUF];\n"
	"\treturn (int)i;\n"
	"}\n"
	"\n"
	"bool tiny_echoes(const struct tiny *t)\n"
	"{\n"
	"\treturn (t->flags & (TINY_ECHO | TINY_ICANON)) != 0;\n"
	"}\n";

/* Its last line has non-ASCII text before the mutated span: the JSON
 * counts columns as JavaScript does, not in bytes. */
static const char tiny_ioctl[] =
	"/* tiny_ioctl.c: the ioctl side of tiny_tty.c. */\n"
	"#include <errno.h>\n"
	"\n"
	"#define TINY_SETFLAGS 0x5401\n"
	"#define TINY_GETFLAGS 0x5402\n"
	"\n"
	"int tiny_ioctl(unsigned *flags, unsigned cmd, unsigned long arg)\n"
	"{\n"
	"\tswitch (cmd) {\n"
	"\tcase TINY_SETFLAGS:\n"
	"\t\tif (arg > 3)\n"
	"\t\t\treturn -EINVAL;\n"
	"\t\t*flags = (unsigned)arg;\n"
	"\t\treturn 0;\n"
	"\tcase TINY_GETFLAGS:\n"
	"\t\treturn (int)*flags;\n"
	"\t}\n"
	"\t/* \xe2\x80\x98not a tty\xe2\x80\x99 */ return -ENOTTY;\n"
	"}\n";

#define TTY "drivers/tty/tiny_tty.c"
#define IOCTL "drivers/tty/tiny_ioctl.c"
#define BOTH "pty/t_tiny canon/t_tiny"

struct spec {
	const char *file, *at, *orig, *repl, *func;
	enum mut_op op;
	enum mut_status st;
	const char *reason, *covered;
};

/* tiny_tty.c: 9 killed (one by timeout, one by a warning), 1 survived;
 * tiny_ioctl.c: one of each other status, 1 killed, 1 survived. */
static const struct spec specs[] = {
	{TTY, "t->head - t->tail >=", ">=", ">", "tiny_put", OP_ROR, MS_KILLED,
	 "pty/t_tiny:full_buffer_eagain failed: write returned 64", BOTH},
	{TTY, "t->head - t->tail >=", "TINY_BUF", "TINY_BUF + 1", "tiny_put", OP_OBO, MS_KILLED,
	 "pty/t_tiny:full_buffer_eagain", BOTH},
	{TTY, "-EAGAIN;\n\tt->buf", "-EAGAIN", "-EIO", "tiny_put", OP_ERRNO, MS_KILLED,
	 "pty/t_tiny:full_buffer_eagain, pty/t_tiny:nonblock_full", BOTH},
	{TTY, "TINY_ICANON) &&", "t->flags & TINY_ICANON", "t->flags", "tiny_put", OP_FLAG,
	 MS_KILLED, "canon/t_tiny:raw_no_wakeup", BOTH},
	{TTY, "TINY_ICANON) &&", "==", "!=", "tiny_put", OP_ROR, MS_KILLED_TIMEOUT,
	 "deadline 40 s passed running canon/t_tiny", BOTH},
	{TTY, "tiny_wake(t);", "tiny_wake(t);", "", "tiny_put", OP_CALL, MS_KILLED_WARNING,
	 "WARNING: CPU: 0 PID: 71 at drivers/tty/tiny_tty.c:28 tiny_put+0x2f/0x40 "
	 "(while canon/t_tiny ran)", "canon/t_tiny"},
	{TTY, "t->head == t->tail", "t->head == t->tail", "!(t->head == t->tail)", "tiny_get",
	 OP_NEG, MS_KILLED, "pty/t_tiny:read_empty", BOTH},
	{TTY, "while (i < n", "<", "<=", "tiny_get", OP_ROR, MS_KILLED, "pty/t_tiny:read_exact",
	 BOTH},
	{TTY, "return (int)i;", "(int)i", "0", "tiny_get", OP_RET, MS_KILLED,
	 "pty/t_tiny:read_exact", BOTH},
	{TTY, "TINY_ECHO | TINY_ICANON", "TINY_ECHO | TINY_ICANON", "TINY_ICANON", "tiny_echoes",
	 OP_FLAG, MS_SURVIVED, "", BOTH},
	{IOCTL, "arg > 3", ">", ">=", "tiny_ioctl", OP_ROR, MS_KILLED,
	 "termios/t_tiny_ioctl:setflags_range", "termios/t_tiny_ioctl"},
	{IOCTL, "arg > 3", "3", "4", "tiny_ioctl", OP_OBO, MS_SURVIVED, "", "termios/t_tiny_ioctl"},
	{IOCTL, "-EINVAL", "-EINVAL", "-EPERM", "tiny_ioctl", OP_ERRNO, MS_EQUIVALENT,
	 ".text and .data identical", ""},
	{IOCTL, "(int)*flags", "(int)*flags", "0", "tiny_ioctl", OP_RET, MS_NOT_COVERED, "", ""},
	{IOCTL, "case TINY_SETFLAGS", "TINY_SETFLAGS", "TINY_SETFLAGS + 1", "tiny_ioctl", OP_OBO,
	 MS_UNCOMPILABLE, "tiny_ioctl.c:15: error: duplicate case value", ""},
	{IOCTL, "-ENOTTY", "-ENOTTY", "-EINVAL", "tiny_ioctl", OP_ERRNO, MS_ERROR,
	 "boot failed twice: no results", "termios/t_tiny_ioctl"},
	{IOCTL, "*flags = (unsigned)arg", "(unsigned)arg", "(unsigned)arg + 1", "tiny_ioctl",
	 OP_OBO, MS_PENDING, "", "termios/t_tiny_ioctl"},
};
#define NM (sizeof specs / sizeof specs[0])

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ATF_REQUIRE(fclose(f) == 0);
}

/* Line (1-based) and byte column (0-based) of orig in the line holding at. */
static void locate(const char *text, const struct spec *s, int *line, int *col)
{
	const char *p = strstr(text, s->at);
	ATF_REQUIRE_MSG(p && !strstr(p + 1, s->at), "fixture: \"%s\" not once in %s", s->at,
			s->file);
	const char *bol = p;
	while (bol > text && bol[-1] != '\n')
		bol--;
	*line = 1;
	for (const char *q = text; q < bol; q++)
		*line += *q == '\n';
	const char *o = strstr(bol, s->orig);
	ATF_REQUIRE_MSG(o && o < bol + strcspn(bol, "\n"), "fixture: \"%s\" not on the line of "
			"\"%s\"", s->orig, s->at);
	*col = (int)(o - bol);
}

/* A new dir with src/ holding the two files; m gets the mutants, ids 1..
 * It is made in the case's working directory, which Kyua removes even when
 * the case fails half-way; the case removes it when it passes. */
static void fixture(char *dir, size_t dirlen, struct mutant *m)
{
	char cwd[400];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd) != NULL);
	snprintf(dir, dirlen, "%s/mutrep.XXXXXX", cwd);
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	char path[1024];
	snprintf(path, sizeof path, "%s/src/drivers/tty", dir);
	ATF_REQUIRE(mkdir_p(path) == 0);
	snprintf(path, sizeof path, "%s/src/" TTY, dir);
	put_file(path, tiny_tty);
	snprintf(path, sizeof path, "%s/src/" IOCTL, dir);
	put_file(path, tiny_ioctl);
	int ordinal[NM] = {0};
	for (size_t i = 0; i < NM; i++) {
		const struct spec *s = &specs[i];
		struct mutant *x = &m[i];
		memset(x, 0, sizeof *x);
		locate(strcmp(s->file, TTY) == 0 ? tiny_tty : tiny_ioctl, s, &x->line, &x->col);
		x->end_line = x->line;
		x->end_col = x->col + (int)strlen(s->orig);
		for (size_t j = 0; j < i; j++)
			if (m[j].line == x->line && m[j].op == s->op && !strcmp(specs[j].file, s->file))
				ordinal[i]++;
		x->id = (unsigned)i + 1;
		x->op = s->op;
		x->ordinal = ordinal[i] + 1;
		snprintf(x->file, sizeof x->file, "%s", s->file);
		snprintf(x->key, sizeof x->key, "%s:%d:%s:%d", s->file, x->line, mut_op_name(s->op),
			 x->ordinal);
		snprintf(x->func, sizeof x->func, "%s", s->func);
		snprintf(x->orig, sizeof x->orig, "%s", s->orig);
		snprintf(x->repl, sizeof x->repl, "%s", s->repl);
		x->status = s->st;
		snprintf(x->reason, sizeof x->reason, "%s", s->reason);
		snprintf(x->covered_by, sizeof x->covered_by, "%s", s->covered);
		x->secs = mut_status_killed(s->st) || s->st == MS_SURVIVED ? 20.0 + (double)i : 0;
	}
}

static const struct mutation_report_info info = {
	.title = "tiny mutants", .source = "tiny-tree 1.0", .suite = "ttypot test",
	.date = "2026-12-05", .sampled = true, .seed = 7, .generated = 40,
	.wall_s = 900, .build_s = 60, .baseline_s = 30,
};

static char *slurp(const char *path)
{
	char err[512];
	size_t len;
	char *s = read_file(path, &len, err, sizeof err);
	ATF_REQUIRE_MSG(s != NULL, "%s", err);
	return s;
}

static void remove_tree(const char *dir)
{
	char *argv[] = {"rm", "-rf", (char *)dir, NULL}, err[256];
	capture_run(argv, NULL, 60, NULL, NULL, err, sizeof err);
}

/* Kyua gives each case a fresh HOME: read the npm packages where
 * harness/deps.sh installs them for this user ($TTYPOT_NPM_DIR, else
 * $TTYPOT_CACHE/npm or ~/.cache/ttypot/npm of the user's real home). */
static void user_npm_dir(void)
{
	const char *d = getenv("TTYPOT_NPM_DIR"), *c = getenv("TTYPOT_CACHE");
	if (d && *d)
		return;
	struct passwd *pw = getpwuid(getuid());
	char dir[4096];
	if (c && *c)
		snprintf(dir, sizeof dir, "%s/npm", c);
	else
		snprintf(dir, sizeof dir, "%s/.cache/ttypot/npm", pw ? pw->pw_dir : "/root");
	ATF_REQUIRE(setenv("TTYPOT_NPM_DIR", dir, 1) == 0);
}

static void npm_file(const char *rel, char *out, size_t outlen)
{
	user_npm_dir();
	char npm[4096];
	mutation_npm_dir(npm, sizeof npm);
	snprintf(out, outlen, "%s/%s", npm, rel);
	if (access(out, R_OK) != 0)
		atf_tc_skip("needs %s from the npm packages of fixtures/report-npm: "
			    "harness/deps.sh report installs them", out);
}

/* Write all three reports of the fixture into dir/out; fails the case on
 * any error. */
static void write_reports(const char *dir, const struct mutant *m)
{
	char out[1024], src[1024], err[2048];
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	int rc = mutation_report_write(out, m, NM, src, &info, err, sizeof err);
	ATF_REQUIRE_MSG(rc == 0, "mutation_report_write: %s", err);
}

#define CHECK_HAS(hay, needle) \
	ATF_CHECK_MSG(strstr(hay, needle) != NULL, "missing: %s", needle)

ATF_TC_WITHOUT_HEAD(names);
ATF_TC_BODY(names, tc)
{
	(void)tc;
	for (int op = 0; op < OP__N; op++)
		ATF_CHECK_EQ(mut_op_parse(mut_op_name(op)), op);
	for (int s = 0; s < MS__N; s++)
		ATF_CHECK_EQ(mut_status_parse(mut_status_name(s)), s);
	ATF_CHECK_STREQ(mut_op_name(OP_ERRNO), "errno");
	ATF_CHECK_STREQ(mut_status_name(MS_NOT_COVERED), "not-covered");
	ATF_CHECK_STREQ(mut_status_name(MS_KILLED_TIMEOUT), "timeout");
	ATF_CHECK_EQ(mut_op_parse("rorr"), -1);
	ATF_CHECK_EQ(mut_op_parse(NULL), -1);
	ATF_CHECK_EQ(mut_status_parse("Killed"), -1);
	int killed = 0;
	for (int s = 0; s < MS__N; s++)
		killed += mut_status_killed(s);
	ATF_CHECK_EQ(killed, 3);
	ATF_CHECK(mut_status_killed(MS_KILLED_WARNING) && !mut_status_killed(MS_SURVIVED));
}

ATF_TC_WITHOUT_HEAD(wilson);
ATF_TC_BODY(wilson, tc)
{
	(void)tc;
	double lo, hi;
	/* 9 of 10: 0.5958-0.9821 (the score formula by hand, z = 1.95996) */
	ATF_REQUIRE(mutation_wilson95(9, 10, &lo, &hi));
	ATF_CHECK_MSG(fabs(lo - 0.59585) < 1e-4 && fabs(hi - 0.98212) < 1e-4, "%f-%f", lo, hi);
	ATF_REQUIRE(mutation_wilson95(0, 5, &lo, &hi));
	ATF_CHECK_MSG(lo == 0 && fabs(hi - 0.43448) < 1e-4, "%f-%f", lo, hi);
	ATF_REQUIRE(mutation_wilson95(4, 4, &lo, &hi));
	ATF_CHECK_MSG(fabs(lo - 0.51007) < 1e-4 && hi == 1, "%f-%f", lo, hi);
	ATF_CHECK(!mutation_wilson95(0, 0, &lo, &hi));
}

ATF_TC(md_numbers);
ATF_TC_HEAD(md_numbers, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutation.md counts every status per file, per operator "
			  "and overall, scores killed / (killed + survived) with its 95 % Wilson "
			  "interval (9 of 10: 59.6-98.2 %) and, counting the not covered as "
			  "undetected, killed / (killed + survived + not covered), lists the "
			  "survivors with their "
			  "function, text and covering programs, and the timeouts and warnings");
}
ATF_TC_BODY(md_numbers, tc)
{
	(void)tc;
	char dir[DIRLEN], path[600];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	struct rbuf b = {0};
	mutation_report_md(m, NM, &info, &b);
	const char *md = rbuf_str(&b);
	CHECK_HAS(md, "# tiny mutants\n");
	CHECK_HAS(md, "- Kernel source: tiny-tree 1.0\n");
	CHECK_HAS(md, "- Mutants: a sample of 17 of 40 generated, stratified per file, seed 7\n");
	CHECK_HAS(md, "- Wall time: 900 s (0.25 h)\n");
	/* 12 mutants ran (killed or survived): 20 + index seconds each */
	CHECK_HAS(md, "- Mutant runs (boot + selected programs): 12, 25.5 s each on average "
		      "(20.0-31.0 s), 306 s in all\n");
	CHECK_HAS(md, "**Mutation score 10/12 = 83.3 %** (95 % Wilson score interval "
		      "55.2-95.3 %); 17 generated, 1 equivalent, 1 not covered, 1 uncompilable, "
		      "10 killed (1 by timeout, 1 by a kernel warning), 2 survived, 1 error, "
		      "1 pending.\n");
	/* the not covered one counted as undetected (Stryker's score of all) */
	CHECK_HAS(md, "**Score of all 10/13 = 76.9 %**: the 1 not covered counted as "
		      "undetected.\n");
	CHECK_HAS(md, "| drivers/tty/tiny\\_ioctl.c | 7 | 1 | 1 | 1 | 1 | 0 | 0 | 1 | 1 | 1 | "
		      "1/2 = 50.0 % | 9.5-90.5 % | 1/3 = 33.3 % |\n");
	CHECK_HAS(md, "| drivers/tty/tiny\\_tty.c | 10 | 0 | 0 | 0 | 9 | 1 | 1 | 1 | 0 | 0 | "
		      "9/10 = 90.0 % | 59.6-98.2 % | 9/10 = 90.0 % |\n");
	CHECK_HAS(md, "| **all** | 17 | 1 | 1 | 1 | 10 | 1 | 1 | 2 | 1 | 1 | "
		      "10/12 = 83.3 % | 55.2-95.3 % | 10/13 = 76.9 % |\n");
	CHECK_HAS(md, "| ror (relational operator replaced) | 4 | 0 | 0 | 0 | 4 | 1 | 0 | 0 | 0 | "
		      "0 | 4/4 = 100.0 % | 51.0-100.0 % | 4/4 = 100.0 % |\n");
	CHECK_HAS(md, "| obo (integer constant off by one) | 4 | 0 | 0 | 1 | 1 | 0 | 0 | 1 | 0 | "
		      "1 | 1/2 = 50.0 % | 9.5-90.5 % | 1/2 = 50.0 % |\n");
	CHECK_HAS(md, "| errno (errno constant replaced) | 3 | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 1 | "
		      "0 | 1/1 = 100.0 % | 20.7-100.0 % | 1/1 = 100.0 % |\n");
	CHECK_HAS(md, "| call (call statement removed) | 1 | 0 | 0 | 0 | 1 | 0 | 1 | 0 | 0 | 0 | "
		      "1/1 = 100.0 % | 20.7-100.0 % | 1/1 = 100.0 % |\n");
	/* the per-file table comes before the per-operator one, both end in all */
	const char *pf = strstr(md, "## Per file"), *po = strstr(md, "## Per operator");
	ATF_CHECK(pf && po && pf < po && strstr(po, "| **all** | 17 |"));

	const char *sv = strstr(md, "## Survivors (2)\n");
	ATF_REQUIRE_MSG(sv != NULL, "no survivor list of 2");
	char row[700];
	snprintf(row, sizeof row, "| drivers/tty/tiny\\_tty.c:%d:flag:1 | tiny\\_echoes | "
		 "TINY\\_ECHO \\| TINY\\_ICANON | TINY\\_ICANON | pty/t\\_tiny canon/t\\_tiny |\n",
		 m[9].line);
	CHECK_HAS(sv, row);
	snprintf(row, sizeof row, "| drivers/tty/tiny\\_ioctl.c:%d:obo:1 | tiny\\_ioctl | 3 | 4 | "
		 "termios/t\\_tiny\\_ioctl |\n", m[11].line);
	CHECK_HAS(sv, row);
	const char *tw = strstr(md, "## Timeouts and warnings (2)\n");
	ATF_REQUIRE_MSG(tw != NULL, "no list of 1 timeout and 1 warning");
	CHECK_HAS(tw, "| timeout | == | != | deadline 40 s passed running canon/t\\_tiny |\n");
	CHECK_HAS(tw, "| warning | tiny\\_wake(t); | (removed) | WARNING: CPU: 0 PID: 71 at ");
	ATF_CHECK(strstr(md, "## Errors (1)\n") != NULL);
	ATF_CHECK(strstr(md, "95 % Wilson score interval") != NULL);
	rbuf_free(&b);

	/* the writer puts the same text in mutation.md (with or without the
	 * web component's bundle, which the page needs) */
	user_npm_dir();
	char out[1024], src[1024], err[2048];
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	int rc = mutation_report_write(out, m, NM, src, &info, err, sizeof err);
	ATF_CHECK_MSG(rc == 0 || strstr(err, "mutation.html not written"), "%s", err);
	snprintf(path, sizeof path, "%s/out/mutation.md", dir);
	char *file = slurp(path);
	struct rbuf again = {0};
	mutation_report_md(m, NM, &info, &again);
	ATF_CHECK_STREQ(file, rbuf_str(&again));
	free(file);
	rbuf_free(&again);
	remove_tree(dir);
}

ATF_TC(md_rerun_survivors);
ATF_TC_HEAD(md_rerun_survivors, tc)
{
	atf_tc_set_md_var(tc, "descr", "A survivor that --rerun-survivors ran again keeps its "
			  "first verdict: mutation.md scores it as it is now (10/12) and also "
			  "before the re-run (9/12 = 75.0 %, 46.8-91.1 %), and lists it with both; "
			  "a flaky kill given again that survives counts as killed before");
}
ATF_TC_BODY(md_rerun_survivors, tc)
{
	(void)tc;
	char dir[DIRLEN];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	/* the first mutant was a survivor of an earlier sitting */
	ATF_REQUIRE(m[0].status == MS_KILLED);
	snprintf(m[0].earlier, sizeof m[0].earlier, "survived (564 cases of the suite passed)");
	struct rbuf b = {0};
	mutation_report_md(m, NM, &info, &b);
	const char *md = rbuf_str(&b);
	CHECK_HAS(md, "**Mutation score 10/12 = 83.3 %**");
	CHECK_HAS(md, "Before 1 verdicts were given again with the suite as it is now "
		      "(--rerun-survivors, --rerun): 9/12 = 75.0 % (46.8-91.1 %); 1 of them "
		      "changed.\n");
	const char *rr = strstr(md, "## Verdicts given again (1)\n");
	ATF_REQUIRE_MSG(rr != NULL, "no list of the survivors run again");
	char row[700];
	snprintf(row, sizeof row, "| drivers/tty/tiny\\_tty.c:%d:ror:1 | tiny\\_put | survived "
		 "(564 cases of the suite passed) | killed | ", m[0].line);
	CHECK_HAS(rr, row);
	rbuf_free(&b);

	/* a kill given again (--rerun) that now survives: 10/12 before, 9/12 now */
	m[0].earlier[0] = '\0';
	m[1].status = MS_SURVIVED;
	snprintf(m[1].earlier, sizeof m[1].earlier, "killed (pty/t_tiny:flaky)");
	struct rbuf b2 = {0};
	mutation_report_md(m, NM, &info, &b2);
	CHECK_HAS(rbuf_str(&b2), "**Mutation score 9/12 = 75.0 %**");
	CHECK_HAS(rbuf_str(&b2), "(--rerun-survivors, --rerun): 10/12 = 83.3 % (55.2-95.3 %); "
		  "1 of them changed.\n");
	rbuf_free(&b2);
	remove_tree(dir);
}

ATF_TC(md_kill_not_repeated);
ATF_TC_HEAD(md_kill_not_repeated, tc)
{
	atf_tc_set_md_var(tc, "descr", "A kill that did not repeat on a second boot is a "
			  "survivor (the score drops from 10/12 to 9/12) and mutation.md lists it "
			  "under 'Kills not repeated' with the case that failed once; with none, "
			  "the section is absent");
}
ATF_TC_BODY(md_kill_not_repeated, tc)
{
	(void)tc;
	char dir[DIRLEN];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	struct rbuf b0 = {0};
	mutation_report_md(m, NM, &info, &b0);
	CHECK_HAS(rbuf_str(&b0), "**Mutation score 10/12 = 83.3 %**");
	ATF_CHECK_MSG(strstr(rbuf_str(&b0), "Kills not repeated") == NULL,
		      "a section of kills not repeated with none of them");
	rbuf_free(&b0);

	ATF_REQUIRE(m[0].status == MS_KILLED);
	m[0].status = MS_SURVIVED;
	snprintf(m[0].reason, sizeof m[0].reason, "%s pty/t_tiny:flaky_once", MUT_NOT_REPEATED);
	struct rbuf b = {0};
	mutation_report_md(m, NM, &info, &b);
	const char *md = rbuf_str(&b);
	CHECK_HAS(md, "**Mutation score 9/12 = 75.0 %**");
	const char *sec = strstr(md, "## Kills not repeated (1)\n");
	ATF_REQUIRE_MSG(sec != NULL, "no section of kills not repeated");
	char row[400];
	snprintf(row, sizeof row, "| drivers/tty/tiny\\_tty.c:%d:ror:1 | tiny\\_put | "
		 "pty/t\\_tiny:flaky\\_once |", m[0].line);
	CHECK_HAS(sec, row);
	rbuf_free(&b);
	remove_tree(dir);
}

/* Run the schema's validator (Draft 7, what its $schema says) on a file;
 * its exit status, and what it printed in out. */
static int validate(const char *schema, const char *doc, struct rbuf *out)
{
	static const char prog[] =
		"import json, sys, jsonschema\n"
		"schema = json.load(open(sys.argv[1]))\n"
		"doc = json.load(open(sys.argv[2]))\n"
		"jsonschema.Draft7Validator.check_schema(schema)\n"
		"v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.draft7_format_checker)\n"
		"errs = sorted(v.iter_errors(doc), key=str)\n"
		"for e in errs: print('/'.join(map(str, e.absolute_path)) + ': ' + e.message)\n"
		"sys.exit(1 if errs else 0)\n";
	char *argv[] = {PYTHON, "-c", (char *)prog, (char *)schema, (char *)doc, NULL};
	char err[512];
	int st = capture_run(argv, NULL, 60, out, out, err, sizeof err);
	ATF_REQUIRE_MSG(st == 0 || st == 1, "%s: %s", PYTHON, err);
	return st;
}

static void require_validator(void)
{
	char *argv[] = {PYTHON, "-c", "import jsonschema", NULL}, err[512];
	if (capture_run(argv, NULL, 60, NULL, NULL, err, sizeof err) != 0)
		atf_tc_skip("needs Debian's python3-jsonschema (%s): harness/deps.sh report "
			    "installs it", err);
}

static const json_t *mutant_by_id(const json_t *files, const char *file, unsigned id)
{
	const json_t *arr = json_object_get(json_object_get(files, file), "mutants");
	char want[16];
	snprintf(want, sizeof want, "%u", id);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *x = json_array_get(arr, i);
		if (strcmp(json_string_value(json_object_get(x, "id")), want) == 0)
			return x;
	}
	atf_tc_fail("no mutant %u in %s", id, file);
	return NULL;
}

static const char *jget(const json_t *x, const char *k)
{
	const char *s = json_string_value(json_object_get(x, k));
	return s ? s : "(none)";
}

static int jcol(const json_t *x, const char *end)
{
	return (int)json_integer_value(json_object_get(
		json_object_get(json_object_get(x, "location"), end), "column"));
}

ATF_TC(json_schema_valid);
ATF_TC_HEAD(json_schema_valid, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutation-report.json passes the validator of "
			  "mutation-testing-report-schema's own schema file (which rejects a copy "
			  "with 0-based columns), embeds each mutated file's source, and maps "
			  "statuses (equivalent: Ignored, warning: Killed with the warning), "
			  "1-based columns counted as JavaScript does, killedBy and coveredBy");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(json_schema_valid, tc)
{
	(void)tc;
	char schema[4200];
	npm_file(MUTATION_SCHEMA, schema, sizeof schema);
	require_validator();
	char dir[DIRLEN], path[600];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	write_reports(dir, m);
	snprintf(path, sizeof path, "%s/out/mutation-report.json", dir);
	struct rbuf out = {0};
	int st = validate(schema, path, &out);
	ATF_CHECK_MSG(st == 0, "schema validation: %s", rbuf_str(&out));
	rbuf_free(&out);

	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	ATF_REQUIRE_MSG(doc, "%s: %s", path, je.text);
	const json_t *files = json_object_get(doc, "files");
	ATF_CHECK_EQ(json_object_size(files), 2);
	ATF_CHECK_STREQ(jget(json_object_get(files, TTY), "source"), tiny_tty);
	ATF_CHECK_STREQ(jget(json_object_get(files, IOCTL), "source"), tiny_ioctl);
	ATF_CHECK_STREQ(jget(json_object_get(files, TTY), "language"), "c");
	static const char *const want[] = {
		[MS_PENDING] = "Pending", [MS_EQUIVALENT] = "Ignored",
		[MS_NOT_COVERED] = "NoCoverage", [MS_UNCOMPILABLE] = "CompileError",
		[MS_KILLED] = "Killed", [MS_KILLED_TIMEOUT] = "Timeout",
		[MS_KILLED_WARNING] = "Killed", [MS_SURVIVED] = "Survived",
		[MS_ERROR] = "RuntimeError",
	};
	for (size_t i = 0; i < NM; i++) {
		const json_t *x = mutant_by_id(files, m[i].file, m[i].id);
		ATF_CHECK_STREQ_MSG(jget(x, "status"), want[m[i].status], "%s", m[i].key);
		ATF_CHECK_STREQ(jget(x, "mutatorName"), mut_op_name(m[i].op));
		ATF_CHECK_STREQ(jget(x, "replacement"), m[i].repl);
		if (m[i].line != 18 || strcmp(m[i].file, IOCTL))
			ATF_CHECK_EQ_MSG(jcol(x, "start"), m[i].col + 1, "%s", m[i].key);
		ATF_CHECK_EQ(jcol(x, "end") - jcol(x, "start"), (int)strlen(m[i].orig));
	}
	/* tiny_ioctl.c:18 before -ENOTTY: a tab, a comment with two quotation
	 * marks of 3 bytes each, "return ": 30 bytes but 26 UTF-16 units */
	const json_t *x = mutant_by_id(files, IOCTL, 16);
	ATF_CHECK_EQ(m[15].line, 18);
	ATF_CHECK_EQ(m[15].col, 30);
	ATF_CHECK_EQ(jcol(x, "start"), 27);
	ATF_CHECK_STREQ(jget(x, "statusReason"), "boot failed twice: no results");

	x = mutant_by_id(files, IOCTL, 13);
	ATF_CHECK_STREQ(jget(x, "statusReason"), "equivalent: identical object code");
	x = mutant_by_id(files, TTY, 6);
	ATF_CHECK_STREQ(jget(x, "status"), "Killed");
	ATF_CHECK_STREQ(jget(x, "statusReason"), m[5].reason);
	ATF_CHECK_STREQ(json_string_value(json_array_get(json_object_get(x, "killedBy"), 0)),
			"canon/t_tiny");
	x = mutant_by_id(files, TTY, 3);
	const json_t *kb = json_object_get(x, "killedBy");
	ATF_CHECK_EQ(json_array_size(kb), 2);
	ATF_CHECK_STREQ(json_string_value(json_array_get(kb, 1)), "pty/t_tiny:nonblock_full");
	x = mutant_by_id(files, TTY, 1);
	kb = json_object_get(x, "killedBy");
	ATF_CHECK_EQ(json_array_size(kb), 1); /* not "failed:", "write", ... */
	const json_t *cb = json_object_get(x, "coveredBy");
	ATF_CHECK_EQ(json_array_size(cb), 2);
	ATF_CHECK_STREQ(json_string_value(json_array_get(cb, 1)), "canon/t_tiny");
	ATF_CHECK(json_object_get(mutant_by_id(files, TTY, 10), "killedBy") == NULL);
	/* every program and case named is a test the component can list */
	const json_t *tf = json_object_get(doc, "testFiles");
	ATF_CHECK_EQ(json_object_size(tf), 3);
	const json_t *pt = json_object_get(json_object_get(tf, "pty/t_tiny"), "tests");
	ATF_CHECK_EQ(json_array_size(pt), 5); /* the program and 4 cases */
	ATF_CHECK_STREQ(jget(json_array_get(pt, 0), "id"), "pty/t_tiny:full_buffer_eagain");
	ATF_CHECK_STREQ(jget(json_array_get(pt, 0), "name"), "full_buffer_eagain");
	ATF_CHECK_STREQ(jget(json_array_get(pt, 1), "id"), "pty/t_tiny");
	ATF_CHECK_STREQ(jget(json_array_get(pt, 1), "name"), "pty/t_tiny (program)");
	ATF_CHECK_STREQ(jget(doc, "schemaVersion"), "2");
	ATF_CHECK_EQ(json_integer_value(json_object_get(json_object_get(doc, "config"), "seed")), 7);

	/* The validator is not a rubber stamp: 0-based columns fail it. */
	json_t *bad = json_object_get(json_array_get(json_object_get(json_object_get(
		(json_t *)files, IOCTL), "mutants"), 0), "location");
	json_object_set_new(json_object_get(bad, "start"), "column", json_integer(0));
	snprintf(path, sizeof path, "%s/bad.json", dir);
	ATF_REQUIRE(json_dump_file(doc, path, 0) == 0);
	struct rbuf why = {0};
	ATF_CHECK_EQ(validate(schema, path, &why), 1);
	ATF_CHECK_MSG(strstr(rbuf_str(&why), "location/start/column: 0 is less than the minimum of 1"),
		      "validator said: %s", rbuf_str(&why));
	rbuf_free(&why);
	json_decref(doc);
	remove_tree(dir);
}

ATF_TC(bad_input_named);
ATF_TC_HEAD(bad_input_named, tc)
{
	atf_tc_set_md_var(tc, "descr", "A mutated file missing from the source tree, or a "
			  "mutant whose span lies outside its file, fails the JSON with a message "
			  "naming the file or the mutant; mutation.md is written before it");
}
ATF_TC_BODY(bad_input_named, tc)
{
	(void)tc;
	char dir[DIRLEN], out[600], src[600], err[2048], path[700];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	m[3].line = m[3].end_line = 400;
	ATF_CHECK_EQ(mutation_report_write(out, m, NM, src, &info, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, m[3].key) && strstr(err, "lies outside") &&
		      strstr(err, "(45 lines)"), "%s", err);
	snprintf(path, sizeof path, "%s/mutation.md", out);
	ATF_CHECK(access(path, R_OK) == 0);
	snprintf(path, sizeof path, "%s/mutation-report.json", out);
	ATF_CHECK(access(path, F_OK) != 0);

	remove_tree(dir);
	fixture(dir, sizeof dir, m);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	snprintf(m[12].file, sizeof m[12].file, "drivers/tty/gone.c");
	ATF_CHECK_EQ(mutation_report_write(out, m, NM, src, &info, err, sizeof err), -1);
	snprintf(path, sizeof path, "%s/drivers/tty/gone.c", src);
	ATF_CHECK_MSG(strstr(err, path) && strstr(err, "No such file"), "%s", err);
	remove_tree(dir);
}

ATF_TC(empty_run);
ATF_TC_HEAD(empty_run, tc)
{
	atf_tc_set_md_var(tc, "descr", "A run with no mutants (nothing sampled yet) still "
			  "writes mutation.md, saying there is no score, and a schema-valid JSON");
}
ATF_TC_BODY(empty_run, tc)
{
	(void)tc;
	char schema[4200];
	npm_file(MUTATION_SCHEMA, schema, sizeof schema);
	require_validator();
	char dir[DIRLEN], path[700], err[2048];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	snprintf(path, sizeof path, "%s/out", dir);
	struct mutation_report_info none = {0};
	int rc = mutation_report_write(path, m, 0, "/nonexistent", &none, err, sizeof err);
	ATF_CHECK_MSG(rc == 0 || strstr(err, "mutation.html not written"), "%s", err);
	snprintf(path, sizeof path, "%s/out/mutation.md", dir);
	char *md = slurp(path);
	CHECK_HAS(md, "# ttypot generated mutants\n\n- Mutants: all 0 generated\n");
	CHECK_HAS(md, "**Mutation score: none** (no mutant was killed or survived)");
	CHECK_HAS(md, "| **all** | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | - | - | - |\n");
	free(md);
	snprintf(path, sizeof path, "%s/out/mutation-report.json", dir);
	struct rbuf out = {0};
	ATF_CHECK_MSG(validate(schema, path, &out) == 0, "%s", rbuf_str(&out));
	rbuf_free(&out);
	remove_tree(dir);
}

ATF_TC(missing_bundle_says_how);
ATF_TC_HEAD(missing_bundle_says_how, tc)
{
	atf_tc_set_md_var(tc, "descr", "Without the web component's bundle (TTYPOT_NPM_DIR "
			  "empty) mutation.md and mutation-report.json are still written, and the "
			  "error names the bundle and the command that installs it");
}
ATF_TC_BODY(missing_bundle_says_how, tc)
{
	(void)tc;
	char dir[DIRLEN], out[600], src[600], err[2048], path[700];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	snprintf(path, sizeof path, "%s/npm", dir);
	ATF_REQUIRE(mkdir_p(path) == 0);
	ATF_REQUIRE(setenv("TTYPOT_NPM_DIR", path, 1) == 0);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	ATF_CHECK_EQ(mutation_report_write(out, m, NM, src, &info, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "mutation-test-elements.js") &&
		      strstr(err, "harness/deps.sh report") && strstr(err, path), "%s", err);
	const char *names[] = {"mutation.md", "mutation-report.json"};
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", out, names[i]);
		ATF_CHECK_MSG(access(path, R_OK) == 0, "%s not written", names[i]);
	}
	snprintf(path, sizeof path, "%s/mutation.html", out);
	ATF_CHECK(access(path, F_OK) != 0);
	remove_tree(dir);
}

/* What the test page's probe reports: it waits until the component has
 * rendered (its elements live in shadow roots, which --dump-dom does not
 * show) and writes what it found into a <pre id="probe">. */
static const char probe[] =
	"<script>\n"
	"(function () {\n"
	"  function deep(root, sel, out) {\n"
	"    root.querySelectorAll(sel).forEach(function (e) { out.push(e); });\n"
	"    root.querySelectorAll('*').forEach(function (e) {\n"
	"      if (e.shadowRoot) deep(e.shadowRoot, sel, out); });\n"
	"    return out;\n"
	"  }\n"
	"  function text(e) { return e.textContent.replace(/\\s+/g, ' ').trim(); }\n"
	"  var waits = 0;\n"
	"  function report() {\n"
	"    var want = location.hash.indexOf('.c') > 0 ? 'span.mutant[data-mutant-id]' : 'tr[title]';\n"
	"    if (deep(document, want, []).length === 0 && ++waits < 400) {\n"
	"      setTimeout(report, 50); return; }\n"
	"    var out = ['waits ' + waits, 'lines ' + deep(document, 'tr.line', []).length];\n"
	"    var seen = {};\n"
	"    deep(document, 'span.mutant[data-mutant-id]', []).forEach(function (s) {\n"
	"      var id = s.getAttribute('data-mutant-id');\n"
	"      if (seen[id]) return;\n"
	"      seen[id] = 1;\n"
	"      out.push('mutant ' + id + ' ' + s.className.replace(/\\s+/g, ' ').trim());\n"
	"    });\n"
	"    deep(document, 'label[for^=\"filter-\"]', []).forEach(function (l) {\n"
	"      out.push('filter ' + text(l)); });\n"
	"    deep(document, 'h1', []).forEach(function (h) {\n"
	"      out.push('h1 ' + Array.prototype.filter.call(h.childNodes, function (c) {\n"
	"        return c.nodeType !== 8 && text(c); }).map(text).join(' ')); });\n"
	"    deep(document, 'tr[title]', []).forEach(function (r) {\n"
	"      out.push('row ' + r.getAttribute('title') + ': ' +\n"
	"               Array.prototype.map.call(r.querySelectorAll('td'), text).join('|')); });\n"
	"    var pre = document.createElement('pre');\n"
	"    pre.id = 'probe';\n"
	"    pre.textContent = '\\n' + out.join('\\n') + '\\n';\n"
	"    document.body.appendChild(pre);\n"
	"  }\n"
	"  report();\n"
	"})();\n"
	"</script>\n";

/* Chromium's DOM of dir/probe.html#frag after its scripts ran (free it). */
static char *render(const char *dir, const char *frag)
{
	char udd[1024], url[1200], err[512];
	snprintf(udd, sizeof udd, "--user-data-dir=%s/profile", dir);
	snprintf(url, sizeof url, "file://%s/out/probe.html%s", dir, frag);
	/* No background networking: the page must work without a network,
	 * and Chromium's own connections would only be refused here.  The
	 * virtual time budget lets the probe's polling run before the dump. */
	char *argv[] = {CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
			"--disable-quic", "--no-first-run", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", udd,
			"--window-size=1200,1600", "--virtual-time-budget=30000", "--dump-dom",
			url, NULL};
	struct rbuf out = {0};
	int st = capture_run(argv, NULL, BROWSER_DEADLINE_S, &out, NULL, err, sizeof err);
	ATF_REQUIRE_MSG(st == 0, "chromium %s: %s", url, err);
	return out.s ? out.s : xstrdup("");
}

ATF_TC(html_renders_in_chromium);
ATF_TC_HEAD(html_renders_in_chromium, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutation.html opened from a file: URL (no server, no "
			  "network) in headless Chromium: the web component renders both files "
			  "with their counts, and tiny_tty.c's source with every mutant marked by "
			  "its status (killed, survived, timeout) and the status filters counted");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(html_renders_in_chromium, tc)
{
	(void)tc;
	if (access(CHROMIUM, X_OK) != 0)
		atf_tc_skip("needs Debian's chromium (%s): harness/deps.sh check installs it",
			    CHROMIUM);
	char bundle[4200];
	npm_file(MUTATION_BUNDLE, bundle, sizeof bundle);
	char dir[DIRLEN], path[600];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	write_reports(dir, m);
	snprintf(path, sizeof path, "%s/out/mutation.html", dir);
	char *html = slurp(path);
	/* everything inline: nothing for the browser to load */
	ATF_CHECK_MSG(strstr(html, "<script src") == NULL && strstr(html, "<link") == NULL,
		      "the page loads a script or style from outside");
	ATF_CHECK(strstr(html, "customElements.define") != NULL);
	/* the test page: mutation.html with the probe before </body> */
	char *end = strstr(html, "</body>");
	ATF_REQUIRE(end != NULL);
	struct rbuf page = {0};
	rbuf_addn(&page, html, (size_t)(end - html));
	rbuf_add(&page, probe);
	rbuf_add(&page, end);
	snprintf(path, sizeof path, "%s/out", dir);
	char err[512];
	ATF_REQUIRE_MSG(write_file(path, "probe.html", &page, err, sizeof err) == 0, "%s", err);
	rbuf_free(&page);
	free(html);

	/* All files: one row per file, the component's own counts */
	char *dom = render(dir, "#mutant");
	const char *p = strstr(dom, "<pre id=\"probe\">");
	ATF_REQUIRE_MSG(p != NULL, "the probe never ran: %.400s", dom);
	fprintf(stderr, "probe of #mutant: %s\n", p);
	CHECK_HAS(p, "\nh1 All files tiny mutants\n");
	/* name | score bar | total score | bar | covered score | killed | survived |
	 * timeout | no coverage | ignored | runtime errors | compile errors | detected |
	 * undetected | total */
	CHECK_HAS(p, "\nrow tiny_tty.c: tiny_tty.c||90.00||90.00|8|1|1|0|0|0|0|9|1|10\n");
	CHECK_HAS(p, "\nrow tiny_ioctl.c: tiny_ioctl.c||33.33||50.00|1|1|0|1|1|1|1|1|2|7\n");
	free(dom);

	/* tiny_tty.c: its source and its ten mutants, coloured by status */
	/* the component drops the files' common directory (drivers/tty/) */
	dom = render(dir, "#mutant/tiny_tty.c");
	p = strstr(dom, "<pre id=\"probe\">");
	ATF_REQUIRE_MSG(p != NULL, "the probe never ran: %.400s", dom);
	fprintf(stderr, "probe of #mutant/tiny_tty.c: %s\n", p);
	CHECK_HAS(p, "\nh1 tiny_tty.c tiny mutants\n");
	char want[200];
	/* 45 lines, and the empty one after the last newline */
	snprintf(want, sizeof want, "\nlines %d\n", 46);
	CHECK_HAS(p, want);
	for (size_t i = 0; i < NM; i++) {
		if (strcmp(m[i].file, TTY))
			continue;
		const char *cls = m[i].status == MS_SURVIVED ? "Survived"
				  : m[i].status == MS_KILLED_TIMEOUT ? "Timeout" : "Killed";
		snprintf(want, sizeof want, "\nmutant %u mutant border-none %s\n", m[i].id, cls);
		CHECK_HAS(p, want);
	}
	CHECK_HAS(p, "\nfilter \xe2\x9c\x85 Killed (8)\n");
	CHECK_HAS(p, "\nfilter \xf0\x9f\x91\xbd Survived (1)\n");
	CHECK_HAS(p, "Timeout (1)\n");
	free(dom);
	if (getenv("TTYPOT_KEEP_REPORT") == NULL)
		remove_tree(dir);
	else
		fprintf(stderr, "kept %s/out/mutation.html\n", dir);
}

ATF_TC(patch_verdict_in_every_report);
ATF_TC_HEAD(patch_verdict_in_every_report, tc)
{
	atf_tc_set_md_var(tc, "descr", "The verdict of a patch's mutants ends mutation.md, is "
			  "config.patchVerdict of mutation-report.json (a string a line, blank "
			  "lines left out; the schema's validator still passes) and heads "
			  "mutation.html, escaped; a sample's reports have none of it");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(patch_verdict_in_every_report, tc)
{
	(void)tc;
	char schema[4200];
	npm_file(MUTATION_SCHEMA, schema, sizeof schema);
	require_validator();
	char dir[DIRLEN], path[600], out[1024], src[1024], err[2048];
	struct mutant m[NM];
	fixture(dir, sizeof dir, m);
	static const char verdict[] =
		"Survivors (1):\n\n"
		"- drivers/tty/tiny_tty.c:7: a < b -> a <= b survived: no case checks tiny_read\n\n"
		"Score of the patch: 9/10 = 90.0 %\n";
	struct mutation_report_info pinfo = info;
	pinfo.verdict = verdict;
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	ATF_REQUIRE_MSG(mutation_report_write(out, m, NM, src, &pinfo, err, sizeof err) == 0,
			"mutation_report_write: %s", err);
	snprintf(path, sizeof path, "%s/out/mutation.md", dir);
	char *md = slurp(path);
	size_t ml = strlen(md), vl = strlen(verdict);
	ATF_CHECK_MSG(ml > vl && !strcmp(md + ml - vl, verdict), "mutation.md does not end "
		      "with the verdict");
	free(md);
	snprintf(path, sizeof path, "%s/out/mutation-report.json", dir);
	struct rbuf vout = {0};
	ATF_CHECK_MSG(validate(schema, path, &vout) == 0, "schema validation: %s",
		      rbuf_str(&vout));
	rbuf_free(&vout);
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	ATF_REQUIRE_MSG(doc, "%s: %s", path, je.text);
	const json_t *lines = json_object_get(json_object_get(doc, "config"), "patchVerdict");
	ATF_REQUIRE_MSG(json_is_array(lines), "no config.patchVerdict array");
	ATF_CHECK_EQ(json_array_size(lines), 3);
	ATF_CHECK_STREQ(json_string_value(json_array_get(lines, 1)),
			"- drivers/tty/tiny_tty.c:7: a < b -> a <= b survived: no case checks "
			"tiny_read");
	json_decref(doc);
	snprintf(path, sizeof path, "%s/out/mutation.html", dir);
	char *html = slurp(path);
	const char *sec = strstr(html, "<section id=\"patch-verdict\"");
	const char *app = strstr(html, "<mutation-test-report-app");
	ATF_CHECK_MSG(sec && app && sec < app, "no verdict section before the component");
	CHECK_HAS(html, "a &lt; b -&gt; a &lt;= b survived: no case checks tiny_read");
	free(html);
	/* A sample (no verdict): none of it. */
	write_reports(dir, m);
	snprintf(path, sizeof path, "%s/out/mutation-report.json", dir);
	doc = json_load_file(path, 0, &je);
	ATF_REQUIRE_MSG(doc, "%s: %s", path, je.text);
	ATF_CHECK_MSG(!json_object_get(json_object_get(doc, "config"), "patchVerdict"),
		      "a sample's JSON has a patchVerdict");
	json_decref(doc);
	snprintf(path, sizeof path, "%s/out/mutation.html", dir);
	html = slurp(path);
	ATF_CHECK_MSG(!strstr(html, "patch-verdict"), "a sample's page has a verdict section");
	free(html);
	remove_tree(dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, names);
	ATF_TP_ADD_TC(tp, wilson);
	ATF_TP_ADD_TC(tp, md_numbers);
	ATF_TP_ADD_TC(tp, md_rerun_survivors);
	ATF_TP_ADD_TC(tp, md_kill_not_repeated);
	ATF_TP_ADD_TC(tp, json_schema_valid);
	ATF_TP_ADD_TC(tp, patch_verdict_in_every_report);
	ATF_TP_ADD_TC(tp, bad_input_named);
	ATF_TP_ADD_TC(tp, empty_run);
	ATF_TP_ADD_TC(tp, missing_bundle_says_how);
	ATF_TP_ADD_TC(tp, html_renders_in_chromium);
	return atf_no_error();
}
