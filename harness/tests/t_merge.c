// SPDX-License-Identifier: GPL-2.0-only
/* t_merge: matrix.json files from several machines merge into one matrix. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "rbuf.h"
#include "report.h"

/* Write a matrix.json with the given columns ("label:status,status") over
 * cases pty/t_x:a and pty/t_x:b into dir/matrix.json. */
static void make_run(const char *dir, const char *label, enum status a, enum status b,
		     const char *expect_b)
{
	struct matrix m;
	matrix_init(&m);
	struct column *c = col_new(label);
	snprintf(c->uname, sizeof c->uname, "6.%d.0", (int)strlen(label));
	col_set_console(c, "tail <x>");
	c->end = END_TIMEOUT;
	col_set_feature(c, "probe.x", "1");
	col_put(c, "pty/t_x:a", a, 0.5, "ra");
	struct case_result *r = col_put(c, "pty/t_x:b", b, 0.25, "rb");
	if (expect_b) {
		r->st = ST_XFAIL;
		free(r->expect);
		r->expect = xstrdup(expect_b);
	}
	matrix_add(&m, c);
	matrix_build(&m);
	char err[256];
	ATF_REQUIRE_MSG(report_write_all(&m, dir, err, sizeof err) == 0, "%s", err);
	matrix_free(&m);
}

ATF_TC(union_of_columns);
ATF_TC_HEAD(union_of_columns, tc)
{
	atf_tc_set_md_var(tc, "descr", "Merging keeps every column, its header fields and its cells");
}
ATF_TC_BODY(union_of_columns, tc)
{
	make_run("m1", "host", ST_PASS, ST_PASS, NULL);
	make_run("m2", "deb61", ST_PASS, ST_FAIL, "needs 6.5");
	struct matrix m;
	matrix_init(&m);
	char err[256], base[64];
	ATF_REQUIRE_MSG(merge_load_json(&m, "m1/matrix.json", base, sizeof base, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(base, "host");
	ATF_REQUIRE_MSG(merge_load_json(&m, "m2/matrix.json", NULL, 0, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(m.ncols, 2);
	matrix_build(&m);
	struct column *d = m.cols[1];
	ATF_CHECK_STREQ(d->label, "deb61");
	ATF_CHECK_STREQ(d->uname, "6.5.0");
	ATF_CHECK_EQ(d->end, END_TIMEOUT);
	ATF_CHECK_STREQ(d->console_tail, "tail <x>");
	ATF_CHECK_STREQ(col_feature(d, "probe.x"), "1");
	struct case_result *r = col_find(d, "pty/t_x:b");
	ATF_REQUIRE(r);
	ATF_CHECK_EQ(r->st, ST_XFAIL);
	ATF_CHECK_EQ(r->raw, ST_FAIL);
	ATF_CHECK_STREQ(r->expect, "needs 6.5");
	ATF_CHECK_STREQ(r->reason, "rb");
	ATF_CHECK(r->secs > 0.24 && r->secs < 0.26);
	ATF_CHECK_EQ(m.rows.n, 2);
	ATF_CHECK_EQ(m.regressions, 0); /* xfail is no regression */
	/* round trip: what we write from the merge parses to the same */
	struct rbuf b = {0};
	report_json(&m, &b);
	FILE *f = fopen("merged.json", "w");
	fputs(b.s, f);
	fclose(f);
	struct matrix m2;
	matrix_init(&m2);
	ATF_REQUIRE(merge_load_json(&m2, "merged.json", NULL, 0, err, sizeof err) == 0);
	matrix_build(&m2);
	struct rbuf b2 = {0};
	report_json(&m2, &b2);
	ATF_CHECK_STREQ(b.s, b2.s);
	rbuf_free(&b);
	rbuf_free(&b2);
	matrix_free(&m2);
	matrix_free(&m);
}

ATF_TC(same_label_suffixed);
ATF_TC_HEAD(same_label_suffixed, tc)
{
	atf_tc_set_md_var(tc, "descr", "The same label from two files gets a -2 suffix; marks are recomputed");
}
ATF_TC_BODY(same_label_suffixed, tc)
{
	make_run("a", "host", ST_PASS, ST_PASS, NULL);
	make_run("b", "host", ST_PASS, ST_BROKEN, NULL);
	struct matrix m;
	matrix_init(&m);
	char err[256];
	ATF_REQUIRE(merge_load_json(&m, "a/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE(merge_load_json(&m, "b/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE_EQ(m.ncols, 2);
	ATF_CHECK_STREQ(m.cols[1]->label, "host-2");
	ATF_CHECK_EQ(col_find(m.cols[1], "pty/t_x:b")->st, ST_BROKEN);
	matrix_build(&m);
	ATF_CHECK_EQ(m.regressions, 1);
	matrix_free(&m);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE(f);
	fputs(text, f);
	fclose(f);
}

ATF_TC(bad_inputs);
ATF_TC_HEAD(bad_inputs, tc)
{
	atf_tc_set_md_var(tc, "descr", "Invalid JSON, a wrong schema or bad cells are errors naming the file; nothing is added");
}
ATF_TC_BODY(bad_inputs, tc)
{
	struct matrix m;
	matrix_init(&m);
	char err[512];
	write_text("broken.json", "{\"schema\": \"ttypot-matrix/1\", ");
	ATF_CHECK_EQ(merge_load_json(&m, "broken.json", NULL, 0, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "broken.json") && strstr(err, "not valid JSON"));
	write_text("other.json", "{\"schema\": \"something/2\", \"columns\": [], \"cases\": []}");
	ATF_CHECK_EQ(merge_load_json(&m, "other.json", NULL, 0, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "other.json") && strstr(err, "something/2"));
	write_text("cell.json", "{\"schema\": \"ttypot-matrix/1\", \"columns\": [{\"label\": \"k\"}],"
		   " \"cases\": [{\"id\": \"p/t:a\", \"cells\": {\"k\": {\"status\": \"great\"}}}]}");
	ATF_CHECK_EQ(merge_load_json(&m, "cell.json", NULL, 0, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "cell.json") && strstr(err, "p/t:a"));
	write_text("ghost.json", "{\"schema\": \"ttypot-matrix/1\", \"columns\": [{\"label\": \"k\"}],"
		   " \"cases\": [{\"id\": \"p/t:a\", \"cells\": {\"zz\": {\"status\": \"pass\"}}}]}");
	ATF_CHECK_EQ(merge_load_json(&m, "ghost.json", NULL, 0, err, sizeof err), -1);
	ATF_CHECK_EQ(merge_load_json(&m, "absent.json", NULL, 0, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "absent.json") != NULL);
	ATF_CHECK_EQ(m.ncols, 0);
	matrix_free(&m);
}

/* The four columns of the abi preset, as cmd_matrix makes them. */
static void abi_matrix(struct matrix *m)
{
	static const char *const labels[] = { "6.1.0-57-amd64", "6.1.0-57-amd64+compat32",
					      "6.1.0-57-arm64", "6.1.0-57-powerpc64le" };
	static const char *const arch[] = { "x86_64", "x86_64", "arm64", "ppc64le" };
	static const char *const abi[] = { "", "compat32", "", "" };
	matrix_init(m);
	for (int i = 0; i < 4; i++) {
		struct column *c = col_new(labels[i]);
		col_set_arch(c, arch[i], abi[i]);
		col_put(c, "pty/t_x:a", ST_PASS, 0.5, "");
		col_put(c, "pty/t_x:b", i == 3 ? ST_FAIL : ST_PASS, 0.5, "");
		matrix_add(m, c);
	}
	matrix_build(m);
}

ATF_TC(arch_abi_round_trip);
ATF_TC_HEAD(arch_abi_round_trip, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.json gives every column its arch and the compat32 one its abi; report and merge read them back");
}
ATF_TC_BODY(arch_abi_round_trip, tc)
{
	struct matrix m;
	abi_matrix(&m);
	char err[256];
	ATF_REQUIRE_MSG(report_write_all(&m, "abi1", err, sizeof err) == 0, "%s", err);
	matrix_free(&m);
	/* the file itself */
	json_error_t je;
	json_t *doc = json_load_file("abi1/matrix.json", 0, &je);
	ATF_REQUIRE_MSG(doc, "%s", je.text);
	json_t *cols = json_object_get(doc, "columns");
	ATF_REQUIRE_EQ(json_array_size(cols), 4);
	const char *arch[] = { "x86_64", "x86_64", "arm64", "ppc64le" };
	for (size_t i = 0; i < 4; i++) {
		json_t *c = json_array_get(cols, i);
		ATF_CHECK_STREQ(merge_str(c, "arch", "?"), arch[i]);
		ATF_CHECK_STREQ(merge_str(c, "abi", "(none)"), i == 1 ? "compat32" : "(none)");
	}
	json_decref(doc);
	/* read back (as report and merge do), written again, read again */
	for (int round = 0; round < 2; round++) {
		matrix_init(&m);
		ATF_REQUIRE_MSG(merge_load_json(&m, round ? "abi2/matrix.json" : "abi1/matrix.json",
						NULL, 0, err, sizeof err) == 0, "%s", err);
		ATF_REQUIRE_EQ(m.ncols, 4);
		for (size_t i = 0; i < 4; i++)
			ATF_CHECK_STREQ(m.cols[i]->arch, arch[i]);
		ATF_CHECK_STREQ(m.cols[0]->abi, "");
		ATF_CHECK_STREQ(m.cols[1]->abi, "compat32");
		ATF_CHECK_STREQ(m.cols[1]->label, "6.1.0-57-amd64+compat32");
		matrix_build(&m);
		if (!round)
			ATF_REQUIRE(report_write_all(&m, "abi2", err, sizeof err) == 0);
		matrix_free(&m);
	}
	/* merged with itself: four more columns, each kept with its arch */
	matrix_init(&m);
	ATF_REQUIRE(merge_load_json(&m, "abi1/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE(merge_load_json(&m, "abi2/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE_EQ(m.ncols, 8);
	ATF_CHECK_STREQ(m.cols[7]->label, "6.1.0-57-powerpc64le-2");
	ATF_CHECK_STREQ(m.cols[7]->arch, "ppc64le");
	ATF_CHECK_STREQ(m.cols[5]->abi, "compat32");
	matrix_free(&m);
}

ATF_TC(same_label_other_arch);
ATF_TC_HEAD(same_label_other_arch, tc)
{
	atf_tc_set_md_var(tc, "descr", "Two files' columns with one label but different arches stay two columns, named by arch");
}
ATF_TC_BODY(same_label_other_arch, tc)
{
	make_run("x", "host", ST_PASS, ST_PASS, NULL);
	/* the arm64 machine's host column */
	struct matrix a;
	matrix_init(&a);
	struct column *c = col_new("host");
	col_set_arch(c, "aarch64", NULL);
	col_put(c, "pty/t_x:a", ST_PASS, 0.5, "");
	col_put(c, "pty/t_x:b", ST_FAIL, 0.5, "arm");
	matrix_add(&a, c);
	matrix_build(&a);
	char err[256];
	ATF_REQUIRE(report_write_all(&a, "arm", err, sizeof err) == 0);
	matrix_free(&a);
	struct matrix m;
	matrix_init(&m);
	/* x's host has no arch (a file from before arch columns): still apart */
	ATF_REQUIRE(merge_load_json(&m, "x/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE(merge_load_json(&m, "arm/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE_EQ(m.ncols, 2);
	ATF_CHECK_STREQ(m.cols[1]->label, "host-2");
	matrix_free(&m);
	/* with the arch known on both sides, the new label says it */
	matrix_init(&m);
	col_set_arch(c = col_new("host"), "x86_64", NULL);
	col_put(c, "pty/t_x:b", ST_PASS, 0.5, "");
	matrix_add(&m, c);
	ATF_REQUIRE(merge_load_json(&m, "arm/matrix.json", NULL, 0, err, sizeof err) == 0);
	ATF_REQUIRE_EQ(m.ncols, 2);
	ATF_CHECK_STREQ(m.cols[0]->label, "host");
	ATF_CHECK_STREQ(m.cols[0]->arch, "x86_64");
	ATF_CHECK_STREQ(m.cols[1]->label, "host-arm64");
	ATF_CHECK_STREQ(m.cols[1]->arch, "arm64");
	ATF_CHECK_EQ(col_find(m.cols[1], "pty/t_x:b")->st, ST_FAIL);
	ATF_CHECK_EQ(col_find(m.cols[0], "pty/t_x:b")->st, ST_PASS);
	matrix_free(&m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, union_of_columns);
	ATF_TP_ADD_TC(tp, same_label_suffixed);
	ATF_TP_ADD_TC(tp, bad_inputs);
	ATF_TP_ADD_TC(tp, arch_abi_round_trip);
	ATF_TP_ADD_TC(tp, same_label_other_arch);
	return atf_no_error();
}
