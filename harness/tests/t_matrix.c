// SPDX-License-Identifier: GPL-2.0-only
/* t_matrix: baseline transitions, summaries, labels, expectations -> xfail. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>

#include "expectations.h"
#include "matrix.h"

static struct column *mkcol(const char *label, const char *uname)
{
	struct column *c = col_new(label);
	snprintf(c->uname, sizeof c->uname, "%s", uname);
	c->end_seen = 1;
	return c;
}

static size_t row_of(const struct matrix *m, const char *id)
{
	for (size_t r = 0; r < m->rows.n; r++)
		if (strcmp(m->rows.v[r], id) == 0)
			return r;
	atf_tc_fail("row %s not found", id);
	return 0;
}

/* base: a pass, b pass, c fail, d pass, e fail; other: a pass, b fail,
 * c pass, d skip, e fail, f pass (absent in base) */
static void two_columns(struct matrix *m)
{
	matrix_init(m);
	struct column *b = mkcol("base", "6.18.0"), *o = mkcol("other", "6.1.0-27-amd64");
	col_put(b, "pty/t_x:a", ST_PASS, 0, "");
	col_put(b, "pty/t_x:b", ST_PASS, 0, "");
	col_put(b, "pty/t_x:c", ST_FAIL, 0, "bad");
	col_put(b, "close/t_y:d", ST_PASS, 0, "");
	col_put(b, "close/t_y:e", ST_FAIL, 0, "bad");
	col_put(o, "pty/t_x:a", ST_PASS, 0, "");
	col_put(o, "pty/t_x:b", ST_FAIL, 0, "broke");
	col_put(o, "pty/t_x:c", ST_PASS, 0, "");
	col_put(o, "close/t_y:d", ST_SKIP, 0, "needs x");
	col_put(o, "close/t_y:e", ST_FAIL, 0, "bad");
	col_put(o, "pty/t_x:f", ST_PASS, 0, "");
	matrix_add(m, b);
	matrix_add(m, o);
}

ATF_TC(transitions);
ATF_TC_HEAD(transitions, tc)
{
	atf_tc_set_md_var(tc, "descr", "regression, fix and new marks against the baseline");
}
ATF_TC_BODY(transitions, tc)
{
	struct matrix m;
	two_columns(&m);
	char err[256];
	ATF_REQUIRE_EQ(matrix_set_baseline(&m, NULL, err, sizeof err), 0);
	matrix_build(&m);
	ATF_CHECK_EQ(m.rows.n, 6);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:a"), 1), MARK_NONE);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:b"), 1), MARK_REGRESSION);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:c"), 1), MARK_FIX);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "close/t_y:d"), 1), MARK_NONE); /* skip */
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "close/t_y:e"), 1), MARK_NONE);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:f"), 1), MARK_NEW);
	ATF_CHECK(matrix_cell(&m, row_of(&m, "pty/t_x:f"), 0) == NULL);
	ATF_CHECK_EQ(m.regressions, 1);
	ATF_CHECK_EQ(m.sum[1].regressions, 1);
	ATF_CHECK_EQ(m.sum[1].fixes, 1);
	ATF_CHECK_EQ(m.sum[1].news, 1);
	ATF_CHECK_EQ(m.sum[1].count[ST_PASS], 3);
	ATF_CHECK_EQ(m.sum[1].count[ST_FAIL], 2);
	ATF_CHECK_EQ(m.sum[1].count[ST_SKIP], 1);
	ATF_CHECK_EQ(m.sum[1].total, 6);
	ATF_CHECK_EQ(m.sum[0].total, 5);
	/* the baseline column never carries marks */
	for (size_t r = 0; r < m.rows.n; r++)
		ATF_CHECK_EQ(matrix_mark(&m, r, 0), MARK_NONE);
	ATF_CHECK(!matrix_row_differs(&m, row_of(&m, "pty/t_x:a")));
	ATF_CHECK(matrix_row_differs(&m, row_of(&m, "pty/t_x:f")));
	ATF_CHECK(matrix_row_differs(&m, row_of(&m, "close/t_y:d")));
	matrix_free(&m);
}

ATF_TC(baseline_choice);
ATF_TC_HEAD(baseline_choice, tc)
{
	atf_tc_set_md_var(tc, "descr", "--baseline LABEL reverses the marks; an unknown label is an error naming the columns");
}
ATF_TC_BODY(baseline_choice, tc)
{
	struct matrix m;
	two_columns(&m);
	char err[256];
	ATF_REQUIRE_EQ(matrix_set_baseline(&m, "other", err, sizeof err), 0);
	matrix_build(&m);
	ATF_CHECK_EQ(m.base, 1);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:b"), 0), MARK_FIX);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:c"), 0), MARK_REGRESSION);
	ATF_CHECK_EQ(matrix_set_baseline(&m, "nope", err, sizeof err), -1);
	ATF_CHECK(strstr(err, "nope") && strstr(err, "base") && strstr(err, "other"));
	matrix_free(&m);
}

ATF_TC(rows_grouped_by_area);
ATF_TC_HEAD(rows_grouped_by_area, tc)
{
	atf_tc_set_md_var(tc, "descr", "Rows are the sorted union of ids; each area is contiguous");
}
ATF_TC_BODY(rows_grouped_by_area, tc)
{
	struct matrix m;
	matrix_init(&m);
	struct column *a = mkcol("a", ""), *b = mkcol("b", "");
	col_put(a, "pty/t_z:x", ST_PASS, 0, "");
	col_put(a, "pty-extra/t_a:x", ST_PASS, 0, "");
	col_put(b, "close/t_a:x", ST_PASS, 0, "");
	col_put(b, "pty/t_a:x", ST_PASS, 0, "");
	col_put(b, "pty/t_z:x", ST_PASS, 0, "");
	matrix_add(&m, a);
	matrix_add(&m, b);
	matrix_build(&m);
	ATF_REQUIRE_EQ(m.rows.n, 4);
	char area[64], prev[64] = "";
	int changes = 0;
	for (size_t r = 0; r < m.rows.n; r++) {
		case_area(m.rows.v[r], area, sizeof area);
		if (strcmp(area, prev) != 0)
			changes++;
		strcpy(prev, area);
	}
	ATF_CHECK_EQ(changes, 3); /* close, pty, pty-extra: no area split */
	case_area("pty/t_a:x", area, sizeof area);
	ATF_CHECK_STREQ(area, "pty");
	case_area("t_top:x", area, sizeof area);
	ATF_CHECK_STREQ(area, "t_top");
	matrix_free(&m);
}

ATF_TC(labels_unique);
ATF_TC_HEAD(labels_unique, tc)
{
	atf_tc_set_md_var(tc, "descr", "A label used twice gets a -2 suffix");
}
ATF_TC_BODY(labels_unique, tc)
{
	struct matrix m;
	matrix_init(&m);
	ATF_CHECK(!matrix_add(&m, mkcol("host", "")));
	ATF_CHECK(matrix_add(&m, mkcol("host", "")));
	ATF_CHECK(matrix_add(&m, mkcol("host", "")));
	ATF_CHECK_STREQ(m.cols[1]->label, "host-2");
	ATF_CHECK_STREQ(m.cols[2]->label, "host-3");
	matrix_free(&m);
}

ATF_TC(error_baseline_no_marks);
ATF_TC_HEAD(error_baseline_no_marks, tc)
{
	atf_tc_set_md_var(tc, "descr", "A baseline that is an error column yields no transition marks");
}
ATF_TC_BODY(error_baseline_no_marks, tc)
{
	struct matrix m;
	two_columns(&m);
	m.cols[0]->end = END_ERROR;
	matrix_build(&m);
	ATF_CHECK_EQ(m.regressions, 0);
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:f"), 1), MARK_NONE);
	matrix_free(&m);
}

static void write_conf(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE(f);
	fputs(text, f);
	fclose(f);
}

ATF_TC(expectations_xfail);
ATF_TC_HEAD(expectations_xfail, tc)
{
	atf_tc_set_md_var(tc, "descr", "A fail matching a feature expectation becomes xfail with its reason");
}
ATF_TC_BODY(expectations_xfail, tc)
{
	write_conf("a.conf",
		   "# comment\n\n"
		   "release<6.5  pty/t_x:b  fail  mtime via /dev/tty needs 6.5\n"
		   "always       close/t_y:*  fail  known everywhere\n"
		   "probe.tiocsti=0 pty/t_x:c fail TIOCSTI disabled\n");
	struct expectations ex = {0};
	char err[512];
	ATF_REQUIRE_MSG(expect_load_file(&ex, "a.conf", err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(ex.n, 3);
	struct matrix m;
	two_columns(&m);
	for (size_t c = 0; c < m.ncols; c++)
		expect_apply(&ex, m.cols[c]);
	matrix_build(&m);
	struct case_result *r = col_find(m.cols[1], "pty/t_x:b"); /* 6.1: holds */
	ATF_CHECK_EQ(r->st, ST_XFAIL);
	ATF_CHECK_EQ(r->raw, ST_FAIL);
	ATF_CHECK_STREQ(r->expect, "mtime via /dev/tty needs 6.5");
	ATF_CHECK_EQ(matrix_mark(&m, row_of(&m, "pty/t_x:b"), 1), MARK_NONE);
	ATF_CHECK_EQ(m.regressions, 0);
	/* on 6.18 the release predicate does not hold */
	ATF_CHECK_EQ(col_find(m.cols[0], "pty/t_x:c")->st, ST_FAIL);
	/* prefix id, both columns */
	ATF_CHECK_EQ(col_find(m.cols[0], "close/t_y:e")->st, ST_XFAIL);
	ATF_CHECK_EQ(col_find(m.cols[1], "close/t_y:e")->st, ST_XFAIL);
	/* a pass is never turned into anything */
	ATF_CHECK_EQ(col_find(m.cols[1], "pty/t_x:c")->st, ST_PASS);
	/* a probe feature from the begin line */
	col_set_feature(m.cols[0], "probe.tiocsti", "0");
	expect_apply(&ex, m.cols[0]);
	ATF_CHECK_EQ(col_find(m.cols[0], "pty/t_x:c")->st, ST_XFAIL);
	matrix_free(&m);
	expect_free(&ex);
}

ATF_TC(expectations_reason_match);
ATF_TC_HEAD(expectations_reason_match, tc)
{
	atf_tc_set_md_var(tc, "descr", "An entry STATUS~TEXT turns only a result whose reason "
			  "contains TEXT into xfail: the same case failing otherwise stays a fail");
}
ATF_TC_BODY(expectations_reason_match, tc)
{
	write_conf("m.conf", "always  close/t_y:*  fail~race-x  the known race x\n");
	struct expectations ex = {0};
	char err[512];
	ATF_REQUIRE_MSG(expect_load_file(&ex, "m.conf", err, sizeof err) == 0, "%s", err);
	struct column *c = mkcol("k", "6.12.0");
	col_put(c, "close/t_y:d", ST_FAIL, 0, "[finding race-x] EIO with 4000 bytes queued");
	col_put(c, "close/t_y:e", ST_FAIL, 0, "iteration 3: bytes lost");
	col_put(c, "close/t_y:f", ST_PASS, 0, "");
	expect_apply(&ex, c);
	ATF_CHECK_EQ(col_find(c, "close/t_y:d")->st, ST_XFAIL);
	ATF_CHECK_STREQ(col_find(c, "close/t_y:d")->expect, "the known race x");
	ATF_CHECK_EQ(col_find(c, "close/t_y:e")->st, ST_FAIL);
	ATF_CHECK_EQ(col_find(c, "close/t_y:f")->st, ST_PASS);
	col_free(c);
	expect_free(&ex);
	write_conf("m2.conf", "always  close/t_y:*  fail~  nothing after the tilde\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "m2.conf", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "m2.conf:1") != NULL, "%s", err);
	expect_free(&ex);
}

ATF_TC(predicates);
ATF_TC_HEAD(predicates, tc)
{
	atf_tc_set_md_var(tc, "descr", "Feature predicates: release comparisons, key=value, conjunctions");
}
ATF_TC_BODY(predicates, tc)
{
	struct column *c = mkcol("deb", "6.1.0-27-rt-amd64");
	snprintf(c->arch, sizeof c->arch, "x86_64");
	snprintf(c->accel, sizeof c->accel, "tcg");
	ATF_CHECK(expect_pred_holds("release<6.2", c));
	ATF_CHECK(expect_pred_holds("release==6.1", c));
	ATF_CHECK(expect_pred_holds("release>=6.1.0", c));
	ATF_CHECK(!expect_pred_holds("release>=6.5", c));
	ATF_CHECK(!expect_pred_holds("release>6.1", c));
	ATF_CHECK(expect_pred_holds("release<=6.1", c));
	ATF_CHECK(expect_pred_holds("release!=6.12", c));
	ATF_CHECK(expect_pred_holds("flavour=rt,arch=x86_64,accel=tcg", c));
	ATF_CHECK(!expect_pred_holds("flavour=rt,accel=kvm", c));
	ATF_CHECK(expect_pred_holds("probe.x!=1", c)); /* unknown feature */
	ATF_CHECK(!expect_pred_holds("probe.x=1", c));
	snprintf(c->uname, sizeof c->uname, "6.12.0");
	ATF_CHECK(expect_pred_holds("release>6.2", c)); /* 12 > 2 numerically */
	c->uname[0] = '\0';
	ATF_CHECK(!expect_pred_holds("release<6.2", c)); /* unknown release */
	char err[256];
	ATF_CHECK_EQ(expect_pred_check("release<6.x", err, sizeof err), -1);
	ATF_CHECK_EQ(expect_pred_check("arch<x86", err, sizeof err), -1);
	ATF_CHECK_EQ(expect_pred_check("nonsense", err, sizeof err), -1);
	ATF_CHECK_EQ(expect_pred_check("release>=6.5,flavour=rt", err, sizeof err), 0);
	col_free(c);
}

ATF_TC(expectation_file_errors);
ATF_TC_HEAD(expectation_file_errors, tc)
{
	atf_tc_set_md_var(tc, "descr", "A bad expectation line is an error naming file:line");
}
ATF_TC_BODY(expectation_file_errors, tc)
{
	struct expectations ex = {0};
	char err[512];
	write_conf("bad1.conf", "always pty/t_x:a fail ok\nrelease~6 pty/t_x:a fail r\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "bad1.conf", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "bad1.conf:2") != NULL, "%s", err);
	write_conf("bad2.conf", "always pty/t_x:a pass why\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "bad2.conf", err, sizeof err), -1);
	ATF_CHECK(strstr(err, "bad2.conf:1") && strstr(err, "pass"));
	write_conf("bad3.conf", "always pty/t_x:a fail\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "bad3.conf", err, sizeof err), -1);
	ATF_CHECK(strstr(err, "bad3.conf:1") != NULL);
	expect_free(&ex);
	ATF_CHECK_EQ(expect_load_dir(&ex, "no-such-dir", err, sizeof err), 0);
	ATF_CHECK_EQ(ex.n, 0);
}

ATF_TC(labels_by_arch);
ATF_TC_HEAD(labels_by_arch, tc)
{
	atf_tc_set_md_var(tc, "descr", "A label taken on another arch or ABI gets -ARCH[-ABI], never merged into one column");
}
ATF_TC_BODY(labels_by_arch, tc)
{
	struct matrix m;
	matrix_init(&m);
	struct column *x = mkcol("host", ""), *a = mkcol("host", ""), *a2 = mkcol("host", ""),
		      *k = mkcol("6.1.0-57-amd64", ""), *k32 = mkcol("6.1.0-57-amd64", "");
	col_set_arch(x, "x86_64", NULL);
	col_set_arch(a, "aarch64", NULL); /* uname -m's name */
	col_set_arch(a2, "arm64", NULL);
	col_set_arch(k, "amd64", "");
	col_set_arch(k32, "x86_64", "compat32");
	ATF_CHECK_STREQ(a->arch, "arm64");
	ATF_CHECK_STREQ(k->arch, "x86_64");
	ATF_CHECK(!matrix_add(&m, x));
	ATF_CHECK(matrix_add(&m, a));
	ATF_CHECK(matrix_add(&m, a2));
	ATF_CHECK(!matrix_add(&m, k));
	ATF_CHECK(matrix_add(&m, k32));
	ATF_REQUIRE_EQ(m.ncols, 5);
	ATF_CHECK_STREQ(m.cols[1]->label, "host-arm64");
	ATF_CHECK_STREQ(m.cols[2]->label, "host-arm64-2"); /* a second arm64 host */
	ATF_CHECK_STREQ(m.cols[4]->label, "6.1.0-57-amd64-x86_64-compat32");
	char aa[40];
	col_arch_abi(m.cols[4], aa, sizeof aa);
	ATF_CHECK_STREQ(aa, "x86_64-compat32");
	/* labels from resolvers: the heading names the arch, the label need not */
	char l[128];
	col_label_for(k32, "6.1.0-57-amd64", l, sizeof l);
	ATF_CHECK_STREQ(l, "6.1.0-57-amd64+compat32");
	col_label_for(k32, "6.1.0-57-amd64 [x86_64-compat32]", l, sizeof l);
	ATF_CHECK_STREQ(l, "6.1.0-57-amd64+compat32");
	col_label_for(a, "6.1.0-57-arm64 [arm64]", l, sizeof l);
	ATF_CHECK_STREQ(l, "6.1.0-57-arm64");
	col_label_for(a, "6.1.0-57-arm64 [ppc64le]", l, sizeof l); /* not its arch: kept */
	ATF_CHECK_STREQ(l, "6.1.0-57-arm64 [ppc64le]");
	col_label_for(k, "6.1.0-57-amd64", l, sizeof l);
	ATF_CHECK_STREQ(l, "6.1.0-57-amd64");
	col_label_for(k32, "my-compat32-build", l, sizeof l); /* says it already */
	ATF_CHECK_STREQ(l, "my-compat32-build");
	matrix_free(&m);
}

ATF_TC(expectations_by_arch);
ATF_TC_HEAD(expectations_by_arch, tc)
{
	atf_tc_set_md_var(tc, "descr", "An expectation keyed on arch or abi applies only to columns of that arch or ABI");
}
ATF_TC_BODY(expectations_by_arch, tc)
{
	write_conf("arch.conf",
		   "arch=ppc64el         termios/t_cc:vmin_index  fail  powerpc's termios has NCCS 19 "
		   "and its own c_cc indices\n"
		   "arch!=x86_64         pty/t_x:b  fail  not on x86\n"
		   "abi=compat32         pty/t_x:a  fail  the compat ioctl path\n"
		   "arch=x86_64,abi=native close/t_y:e fail native x86_64 only\n");
	struct expectations ex = {0};
	char err[512];
	ATF_REQUIRE_MSG(expect_load_file(&ex, "arch.conf", err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(ex.n, 4);
	const char *arch[] = { "x86_64", "x86_64", "arm64", "ppc64le" };
	const char *abi[] = { "", "compat32", "", "" };
	struct column *c[4];
	for (int i = 0; i < 4; i++) {
		c[i] = mkcol("k", "6.1.0-57");
		col_set_arch(c[i], arch[i], abi[i]);
		col_put(c[i], "termios/t_cc:vmin_index", ST_FAIL, 0, "c_cc[VMIN] at 4");
		col_put(c[i], "pty/t_x:a", ST_FAIL, 0, "");
		col_put(c[i], "pty/t_x:b", ST_FAIL, 0, "");
		col_put(c[i], "close/t_y:e", ST_FAIL, 0, "");
		expect_apply(&ex, c[i]);
	}
	/* ppc64el in the file is the column's ppc64le */
	for (int i = 0; i < 4; i++)
		ATF_CHECK_EQ_MSG(col_find(c[i], "termios/t_cc:vmin_index")->st,
				 i == 3 ? ST_XFAIL : ST_FAIL, "%s", arch[i]);
	ATF_CHECK_STREQ(col_find(c[3], "termios/t_cc:vmin_index")->expect,
			"powerpc's termios has NCCS 19 and its own c_cc indices");
	ATF_CHECK_EQ(col_find(c[0], "pty/t_x:b")->st, ST_FAIL);
	ATF_CHECK_EQ(col_find(c[1], "pty/t_x:b")->st, ST_FAIL); /* compat32 is still x86_64 */
	ATF_CHECK_EQ(col_find(c[2], "pty/t_x:b")->st, ST_XFAIL);
	ATF_CHECK_EQ(col_find(c[3], "pty/t_x:b")->st, ST_XFAIL);
	for (int i = 0; i < 4; i++) {
		ATF_CHECK_EQ(col_find(c[i], "pty/t_x:a")->st, i == 1 ? ST_XFAIL : ST_FAIL);
		ATF_CHECK_EQ(col_find(c[i], "close/t_y:e")->st, i == 0 ? ST_XFAIL : ST_FAIL);
	}
	/* a column whose arch is unknown: arch=... never holds, arch!=... does */
	struct column *u = mkcol("old", "6.1.0");
	ATF_CHECK(!expect_pred_holds("arch=x86_64", u));
	ATF_CHECK(expect_pred_holds("arch!=arm64", u));
	ATF_CHECK(expect_pred_holds("abi=native", u));
	ATF_CHECK(expect_pred_holds("arch=aarch64", c[2]));
	col_free(u);
	for (int i = 0; i < 4; i++)
		col_free(c[i]);
	expect_free(&ex);
	/* unknown names and a missing reason are errors naming the line */
	write_conf("arch2.conf", "arch=ppc64 pty/t_x:a fail big-endian?\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "arch2.conf", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "arch2.conf:1") && strstr(err, "ppc64"), "%s", err);
	write_conf("arch3.conf", "abi=x32 pty/t_x:a fail x32\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "arch3.conf", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "arch3.conf:1") && strstr(err, "x32"), "%s", err);
	write_conf("arch4.conf", "arch=arm64 pty/t_x:a fail\n");
	ATF_CHECK_EQ(expect_load_file(&ex, "arch4.conf", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "reason") != NULL, "%s", err);
	expect_free(&ex);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, transitions);
	ATF_TP_ADD_TC(tp, baseline_choice);
	ATF_TP_ADD_TC(tp, rows_grouped_by_area);
	ATF_TP_ADD_TC(tp, labels_unique);
	ATF_TP_ADD_TC(tp, error_baseline_no_marks);
	ATF_TP_ADD_TC(tp, expectations_xfail);
	ATF_TP_ADD_TC(tp, expectations_reason_match);
	ATF_TP_ADD_TC(tp, predicates);
	ATF_TP_ADD_TC(tp, expectation_file_errors);
	ATF_TP_ADD_TC(tp, labels_by_arch);
	ATF_TP_ADD_TC(tp, expectations_by_arch);
	return atf_no_error();
}
