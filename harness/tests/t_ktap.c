// SPDX-License-Identifier: GPL-2.0-only
/* t_ktap: the KTAP reports (ktap-LABEL.ktap, ttypot report --format ktap)
 * read by a parser no one here wrote: the kernel's own
 * tools/testing/kunit/kunit_parser.py, taken out of Debian's
 * linux-source-6.12 tarball at test time.  Its pass/fail/skip counts must
 * equal the column's counts in matrix.json, for columns of every status. */
#include <atf-c.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kutil.h"
#include "proc.h"
#include "proto.h"
#include "rbuf.h"

#define LINUX_TAR "/usr/src/linux-source-6.12.tar.xz"
/* Unpacking two files still reads the whole tarball: ~20 s idle. */
#define UNTAR_S 600
#define RUN_S 120

/* Drives the kernel's parser: parse_run_tests() over the file's lines,
 * then the counts (bubbled up to the main test) and the top subtests as
 * JSON.  kunit_printer prints its progress to stdout: that goes to a log. */
static const char parse_py[] =
	"import json, sys\n"
	"sys.path.insert(0, sys.argv[1])\n"
	"import kunit_parser\n"
	"with open(sys.argv[2]) as f:\n"
	"    t = kunit_parser.parse_run_tests(f.readlines())\n"
	"c = t.counts\n"
	"subs = [{'name': s.name, 'passed': s.counts.passed, 'failed': s.counts.failed,\n"
	"         'skipped': s.counts.skipped, 'subtests': len(s.subtests)} for s in t.subtests]\n"
	"with open(sys.argv[3], 'w') as o:\n"
	"    json.dump({'passed': c.passed, 'failed': c.failed, 'skipped': c.skipped,\n"
	"               'crashed': c.crashed, 'errors': c.errors, 'status': t.status.name,\n"
	"               'subtests': subs}, o)\n";

static void ttypot_path(const atf_tc_t *tc, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s/../ttypot", atf_tc_get_config_var_wd(tc, "srcdir", "."));
	ATF_REQUIRE_MSG(access(out, X_OK) == 0, "%s not built", out);
}

/* Percent-encode a results-channel field (harness/PROTOCOL.md). */
static void pct(struct rbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x21 || c > 0x7e || c == '%')
			rbuf_addf(b, "%%%02X", c);
		else
			rbuf_addc(b, (char)c);
	}
}

struct line { const char *id, *status, *reason; };

static void write_results(const char *path, const char *uname,
			  const struct line *l, size_t n)
{
	struct rbuf b = {0}, f = {0};
	rbuf_addf(&f, "begin uname=%s arch=x86_64 cases=%zu", uname, n);
	proto_line(&b, f.s);
	for (size_t i = 0; i < n; i++) {
		rbuf_free(&f);
		rbuf_add(&f, "case ");
		pct(&f, l[i].id);
		rbuf_addf(&f, " %s 0.25 ", l[i].status);
		if (l[i].reason)
			pct(&f, l[i].reason);
		else
			rbuf_add(&f, "-");
		proto_line(&b, f.s);
	}
	rbuf_free(&f);
	proto_line(&b, "end rc=1 suite_s=9.5");
	ATF_REQUIRE(ku_write_file(path, b.s, b.len) == 0);
	rbuf_free(&b);
}

/* Every status, reasons that would break a careless writer (a '#', a
 * newline, the parser's end-of-log phrase), a case id that is no KTAP
 * name, and a fail the expectations turn into an xfail. */
static const struct line col_a[] = {
	{"pty/t_echo:echo_on", "pass", NULL},
	{"pty/t_echo:echo_off", "pass", NULL},
	{"pty/t_echo:echo_nl", "fail", "wanted \"a\\n\" # got nothing\nreboot: System halted"},
	{"pty/t_open:open_twice", "skip", "needs a second pty # really"},
	{"close/t_close_race:tail_kept", "pass", NULL},
	{"close/t_close_race:known_bug", "fail", "lost 3 bytes"},
	{"close/t_close_race:kyua_xfail", "xfail", "the case expects this failure"},
	{"close/t_close_race:crashed", "broken", "received signal 11"},
	{"serial/t_link:pair_found", "skip", "no 8250 pair"},
	{"serial/t_link:a_to_b", "skip", "no 8250 pair"},
	{"signals/t_sigio:hung", "timeout", "not reported: the run passed its deadline"},
	{"signals/t_sigio:after_panic", "panic", "not reported: the kernel panicked"},
	{"signals/t_sigio:lost", "missing", "not reported"},
	{"weird/t_p:case with#hash", "pass", NULL},
};
static const struct line col_b[] = {
	{"pty/t_echo:echo_on", "pass", NULL},
	{"pty/t_echo:echo_off", "fail", "regressed"},
	{"close/t_close_race:known_bug", "fail", "lost 3 bytes"},
	{"serial/t_link:pair_found", "pass", NULL},
};

static void write_inputs(void)
{
	ATF_REQUIRE(ku_mkdir_p("expect", 0755) == 0);
	const char conf[] = "always close/t_close_race:known_bug fail a known kernel bug, "
			    "fixed by 1234abcd\n";
	ATF_REQUIRE(ku_write_file("expect/k.conf", conf, sizeof conf - 1) == 0);
	write_results("6.12.0-a.results", "6.12.0-a", col_a, sizeof col_a / sizeof *col_a);
	write_results("6.1.0-b.results", "6.1.0-b", col_b, sizeof col_b / sizeof *col_b);
}

/* Run ttypot; stdout into out (may be NULL), stderr into errout.  Returns
 * its exit status. */
static int run(char *const argv[], struct rbuf *out, struct rbuf *errout)
{
	char err[512];
	int st = capture_run(argv, NULL, RUN_S, out, errout, err, sizeof err);
	ATF_REQUIRE_MSG(st >= 0, "%s: %s", argv[1], err);
	return st;
}

/* kunit_parser.py and kunit_printer.py of linux-source-6.12 into dir. */
static void unpack_parser(const char *dir)
{
	ATF_REQUIRE(ku_mkdir_p(dir, 0755) == 0);
	char *argv[] = {"tar", "-xJf", LINUX_TAR, "-C", (char *)dir, "--strip-components=4",
			"--wildcards", "*/tools/testing/kunit/kunit_parser.py",
			"*/tools/testing/kunit/kunit_printer.py", NULL};
	char err[512];
	ATF_REQUIRE_MSG(capture_run(argv, NULL, UNTAR_S, NULL, NULL, err, sizeof err) == 0,
			"unpacking the kernel's KTAP parser from %s: %s", LINUX_TAR, err);
	ATF_REQUIRE_MSG(access("kunit/kunit_parser.py", R_OK) == 0,
			"%s has no tools/testing/kunit/kunit_parser.py", LINUX_TAR);
}

/* The kernel parser's reading of a KTAP file, as JSON. */
static json_t *kernel_parse(const char *ktap, const char *tag)
{
	char js[64], log[64];
	snprintf(js, sizeof js, "%s.parsed.json", tag);
	snprintf(log, sizeof log, "%s.parser.log", tag);
	char *argv[] = {"python3", "parse.py", "kunit", (char *)ktap, js, NULL};
	struct rbuf out = {0}, errout = {0};
	char err[512];
	int st = capture_run(argv, NULL, RUN_S, &out, &errout, err, sizeof err);
	ku_write_file(log, rbuf_str(&out), out.len);
	ATF_REQUIRE_MSG(st == 0, "kunit_parser on %s: %s %s", ktap, err, rbuf_str(&errout));
	rbuf_free(&out);
	rbuf_free(&errout);
	json_error_t je;
	json_t *j = json_load_file(js, 0, &je);
	ATF_REQUIRE_MSG(j, "%s: %s", js, je.text);
	return j;
}

static long jint(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	ATF_REQUIRE_MSG(json_is_integer(v), "no integer %s", k);
	return (long)json_integer_value(v);
}

/* A column's summary in matrix.json. */
static json_t *summary(json_t *matrix, const char *label)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(matrix, "columns"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "label")), label))
			return json_object_get(c, "summary");
	atf_tc_fail("matrix.json has no column %s", label);
	return NULL;
}

/* What a KTAP parser must count for a column: pass+xfail passed, skip
 * skipped, every bad status failed. */
static void check_counts(json_t *parsed, json_t *sum, const char *what)
{
	long pass = jint(sum, "pass") + jint(sum, "xfail");
	long fail = jint(sum, "fail") + jint(sum, "broken") + jint(sum, "timeout") +
		    jint(sum, "panic") + jint(sum, "missing");
	ATF_CHECK_EQ_MSG(jint(parsed, "passed"), pass, "%s: passed %ld, matrix.json pass+xfail %ld",
			 what, jint(parsed, "passed"), pass);
	ATF_CHECK_EQ_MSG(jint(parsed, "failed"), fail, "%s: failed %ld, matrix.json bad %ld",
			 what, jint(parsed, "failed"), fail);
	ATF_CHECK_EQ_MSG(jint(parsed, "skipped"), jint(sum, "skip"), "%s: skipped %ld, skip %ld",
			 what, jint(parsed, "skipped"), jint(sum, "skip"));
}

ATF_TC(kernel_parser_counts_equal_matrix_json);
ATF_TC_HEAD(kernel_parser_counts_equal_matrix_json, tc)
{
	atf_tc_set_md_var(tc, "descr", "The kernel's own KTAP parser (kunit_parser.py of "
			  "linux-source-6.12) reads ktap-LABEL.ktap and ttypot report --format ktap "
			  "without an error and counts what matrix.json counts: pass+xfail passed, "
			  "skip skipped, fail/broken/timeout/panic/missing failed; one subtest per "
			  "area, and one per kernel when there are several");
	atf_tc_set_md_var(tc, "timeout", "900");
	atf_tc_set_md_var(tc, "require.progs", "python3 tar xz");
	atf_tc_set_md_var(tc, "require.files", LINUX_TAR);
}
ATF_TC_BODY(kernel_parser_counts_equal_matrix_json, tc)
{
	char ttypot[1024];
	ttypot_path(tc, ttypot, sizeof ttypot);
	write_inputs();
	ATF_REQUIRE(ku_write_file("parse.py", parse_py, sizeof parse_py - 1) == 0);
	unpack_parser("kunit");

	/* The files beside the other reports, and the same on stdout. */
	char *rep[] = {ttypot, "report", "-o", "out", "--expect", "expect",
		       "6.12.0-a.results", "6.1.0-b.results", NULL};
	run(rep, NULL, NULL);
	char *one[] = {ttypot, "report", "--format", "ktap", "--expect", "expect",
		       "6.12.0-a.results", NULL};
	struct rbuf out = {0};
	ATF_CHECK_EQ(run(one, &out, NULL), 0);
	char *file = ku_read_file("out/ktap-6.12.0-a.ktap", NULL);
	ATF_REQUIRE_MSG(file, "out/ktap-6.12.0-a.ktap not written");
	ATF_CHECK_MSG(!strcmp(file, rbuf_str(&out)), "--format ktap differs from the file");
	ATF_REQUIRE(ku_write_file("a.ktap", out.s, out.len) == 0);
	rbuf_free(&out);

	json_error_t je;
	json_t *matrix = json_load_file("out/matrix.json", 0, &je);
	ATF_REQUIRE_MSG(matrix, "out/matrix.json: %s", je.text);
	json_t *sa = summary(matrix, "6.12.0-a"), *sb = summary(matrix, "6.1.0-b");
	/* The column has every status (the expectation made one xfail). */
	const char *sts[] = {"pass", "fail", "skip", "xfail", "broken", "timeout", "panic",
			     "missing"};
	for (size_t i = 0; i < sizeof sts / sizeof *sts; i++)
		ATF_CHECK_MSG(jint(sa, sts[i]) > 0, "column a has no %s", sts[i]);
	ATF_CHECK_EQ(jint(sa, "xfail"), 2);

	json_t *pa = kernel_parse("out/ktap-6.12.0-a.ktap", "a");
	ATF_CHECK_EQ_MSG(jint(pa, "errors"), 0, "the parser found %ld errors (a.parser.log)",
			 jint(pa, "errors"));
	ATF_CHECK_EQ(jint(pa, "crashed"), 0);
	check_counts(pa, sa, "ktap-6.12.0-a.ktap");
	ATF_CHECK_STREQ(json_string_value(json_object_get(pa, "status")), "FAILURE");
	/* One subtest per area, in the matrix's order, each with its cases. */
	const char *areas[] = {"close", "pty", "serial", "signals", "weird"};
	const long cases[] = {4, 4, 2, 3, 1};
	json_t *subs = json_object_get(pa, "subtests");
	ATF_REQUIRE_EQ(json_array_size(subs), 5);
	for (size_t i = 0; i < 5; i++) {
		json_t *s = json_array_get(subs, i);
		ATF_CHECK_STREQ(json_string_value(json_object_get(s, "name")), areas[i]);
		ATF_CHECK_EQ(jint(s, "subtests"), cases[i]);
	}
	/* The directives, and the name that was not one. */
	ATF_CHECK(strstr(file, "  ok 2 t_close_race.known_bug # XFAIL a known kernel bug, "
			       "fixed by 1234abcd\n"));
	ATF_CHECK(strstr(file, "  ok 4 t_open.open_twice # SKIP needs a second pty # really\n"));
	ATF_CHECK(strstr(file, "  not ok 2 t_sigio.hung # TIMEOUT not reported"));
	ATF_CHECK(strstr(file, "  ok 1 t_p.case_with_hash\n"));
	ATF_CHECK(strstr(file, "  # t_echo.echo_nl: wanted \"a\\n\" # got nothing\n"));
	ATF_CHECK_MSG(!strstr(file, "reboot: System halted"), "the end-of-log phrase is in the file");
	free(file);
	json_decref(pa);

	/* Two kernels on stdout: one document, a subtest per kernel. */
	char *two[] = {ttypot, "report", "--format", "ktap", "--expect", "expect",
		       "6.12.0-a.results", "6.1.0-b.results", NULL};
	out = (struct rbuf){0};
	run(two, &out, NULL);
	ATF_REQUIRE(ku_write_file("ab.ktap", out.s, out.len) == 0);
	rbuf_free(&out);
	json_t *pab = kernel_parse("ab.ktap", "ab");
	ATF_CHECK_EQ_MSG(jint(pab, "errors"), 0, "the parser found %ld errors (ab.parser.log)",
			 jint(pab, "errors"));
	subs = json_object_get(pab, "subtests");
	ATF_REQUIRE_EQ(json_array_size(subs), 2);
	json_t *s0 = json_array_get(subs, 0), *s1 = json_array_get(subs, 1);
	ATF_CHECK_STREQ(json_string_value(json_object_get(s0, "name")), "6.12.0-a");
	ATF_CHECK_STREQ(json_string_value(json_object_get(s1, "name")), "6.1.0-b");
	check_counts(s0, sa, "column a of ab.ktap");
	check_counts(s1, sb, "column b of ab.ktap");
	/* The file of b alone reads the same. */
	json_t *pb = kernel_parse("out/ktap-6.1.0-b.ktap", "b");
	ATF_CHECK_EQ(jint(pb, "errors"), 0);
	check_counts(pb, sb, "ktap-6.1.0-b.ktap");
	json_decref(pab);
	json_decref(pb);
	json_decref(matrix);
}

ATF_TC(format_errors_name_the_format);
ATF_TC_HEAD(format_errors_name_the_format, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot report --format writes one format to stdout "
			  "(csv equals the matrix.csv that -o writes) and refuses an unknown "
			  "format, or junit of several kernels, naming it (exit 2)");
}
ATF_TC_BODY(format_errors_name_the_format, tc)
{
	char ttypot[1024];
	ttypot_path(tc, ttypot, sizeof ttypot);
	write_inputs();
	char *rep[] = {ttypot, "report", "-o", "out", "--expect", "expect",
		       "6.12.0-a.results", "6.1.0-b.results", NULL};
	run(rep, NULL, NULL);
	char *csv[] = {ttypot, "report", "--format", "csv", "--expect", "expect",
		       "6.12.0-a.results", "6.1.0-b.results", NULL};
	struct rbuf out = {0}, errout = {0};
	run(csv, &out, NULL);
	char *file = ku_read_file("out/matrix.csv", NULL);
	ATF_REQUIRE(file);
	ATF_CHECK_MSG(!strcmp(file, rbuf_str(&out)), "--format csv differs from matrix.csv");
	free(file);
	rbuf_free(&out);

	char *bad[] = {ttypot, "report", "--format", "yaml", "6.1.0-b.results", NULL};
	ATF_CHECK_EQ(run(bad, &out, &errout), 2);
	ATF_CHECK_MSG(strstr(rbuf_str(&errout), "--format yaml: unknown format"), "%s",
		      rbuf_str(&errout));
	ATF_CHECK_EQ(out.len, 0);
	rbuf_free(&out);
	rbuf_free(&errout);
	char *junit[] = {ttypot, "report", "--format", "junit", "6.12.0-a.results",
			 "6.1.0-b.results", NULL};
	ATF_CHECK_EQ(run(junit, NULL, &errout), 2);
	ATF_CHECK_MSG(strstr(rbuf_str(&errout), "--format junit: one kernel per file"), "%s",
		      rbuf_str(&errout));
	rbuf_free(&errout);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, kernel_parser_counts_equal_matrix_json);
	ATF_TP_ADD_TC(tp, format_errors_name_the_format);
	return atf_no_error();
}
