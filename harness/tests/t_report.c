// SPDX-License-Identifier: GPL-2.0-only
/* t_report: every output format, parsed back. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "matrix.h"
#include "merge.h"
#include "rbuf.h"
#include "report.h"

/* The JSON reader is jansson's (strict: one object or array, nothing after
 * it); these read members with a default, as the harness does. */
static json_t *jv_parse(const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!v)
		snprintf(err, errlen, "line %d col %d: %.80s", je.line, je.column, je.text);
	return v;
}

#define jv_str merge_str
#define jv_num merge_num

#define NASTY "<script>alert(1)</script> & \"q\" 'a' |pipe| `tick` \x01\nline2"

/* host: a pass, b pass, c fail(nasty reason); deb (panic): a pass, b fail,
 * c xfail, d panic */
static void sample(struct matrix *m)
{
	matrix_init(m);
	struct column *h = col_new("host"), *d = col_new("deb<6.1>");
	snprintf(h->uname, sizeof h->uname, "6.18.0");
	snprintf(h->accel, sizeof h->accel, "host");
	snprintf(h->arch, sizeof h->arch, "x86_64");
	h->suite_s = 12.5;
	snprintf(d->uname, sizeof d->uname, "6.1.0-27-amd64");
	snprintf(d->version, sizeof d->version, "6.1.115-1");
	snprintf(d->config_hash, sizeof d->config_hash, "0123456789abcdef");
	snprintf(d->accel, sizeof d->accel, "tcg");
	snprintf(d->arch, sizeof d->arch, "x86_64");
	snprintf(d->spec, sizeof d->spec, "deb:linux-image-6.1.0-27-amd64");
	d->boot_s = 3.1;
	d->end = END_PANIC;
	col_set_console(d, "Kernel panic - not syncing: " NASTY "\n]]></system-err>");
	col_put(h, "pty/t_x:a", ST_PASS, 0.1, "");
	col_put(h, "pty/t_x:b", ST_PASS, 0.1, "");
	col_put(h, "close/t_y:c", ST_FAIL, 0.2, NASTY);
	col_put(d, "pty/t_x:a", ST_PASS, 0.1, "");
	col_put(d, "pty/t_x:b", ST_FAIL, 0.1, "regressed");
	struct case_result *x = col_put(d, "close/t_y:c", ST_FAIL, 0.2, "known");
	x->st = ST_XFAIL;
	free(x->expect);
	x->expect = xstrdup("needs 6.5");
	col_put(d, "close/t_y:d", ST_PANIC, 0, "not reported: the kernel panicked");
	matrix_add(m, h);
	matrix_add(m, d);
	matrix_build(m);
}

/* A small XML well-formedness check: balanced tags, quoted attributes,
 * known entities, no raw '<' or controls in text. */
static const char *xml_check(const char *s)
{
	static char why[128];
	char stack[32][64];
	int depth = 0, roots = 0;
	if (strncmp(s, "<?xml ", 6) == 0)
		s = strstr(s, "?>") + 2;
	for (const char *p = s; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
			return "control character";
		if (*p == '&') {
			if (strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) && strncmp(p, "&amp;", 5) &&
			    strncmp(p, "&quot;", 6) && strncmp(p, "&#39;", 5))
				return "bad entity";
			continue;
		}
		if (*p != '<')
			continue;
		const char *e = p + 1;
		bool closing = *e == '/';
		if (closing)
			e++;
		size_t n = strcspn(e, " />\n");
		if (!n || n >= 64)
			return "bad tag name";
		char name[64];
		memcpy(name, e, n);
		name[n] = '\0';
		const char *q = e + n;
		bool inq = false;
		while (*q && (inq || *q != '>')) {
			if (*q == '"')
				inq = !inq;
			else if (inq && *q == '<')
				return "'<' in an attribute";
			q++;
		}
		if (!*q)
			return "unterminated tag";
		bool empty = q[-1] == '/';
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0) {
				snprintf(why, sizeof why, "mismatched </%s>", name);
				return why;
			}
			depth--;
		} else if (!empty) {
			if (depth == 0)
				roots++;
			strcpy(stack[depth++], name);
		} else if (depth == 0) {
			roots++;
		}
		p = q;
	}
	if (depth)
		return "unclosed element";
	return roots == 1 ? NULL : "not exactly one root";
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

ATF_TC(json_valid_and_complete);
ATF_TC_HEAD(json_valid_and_complete, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.json parses, has the schema tag and every column and cell");
}
ATF_TC_BODY(json_valid_and_complete, tc)
{
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_json(&m, &b);
	char err[256];
	json_t *doc = jv_parse(b.s, b.len, err, sizeof err);
	ATF_REQUIRE_MSG(doc != NULL, "invalid JSON: %s", err);
	ATF_CHECK_STREQ(jv_str(doc, "schema", ""), "ttypot-matrix/1");
	ATF_CHECK_STREQ(jv_str(doc, "baseline", ""), "host");
	ATF_CHECK_EQ(jv_num(doc, "regressions", -1), 1);
	const json_t *cols = json_object_get(doc, "columns"), *cases = json_object_get(doc, "cases");
	ATF_REQUIRE(cols && json_array_size(cols) == 2 && cases && json_array_size(cases) == 4);
	ATF_CHECK_STREQ(jv_str(json_array_get(cols, 1), "end", ""), "panic");
	ATF_CHECK(strstr(jv_str(json_array_get(cols, 1), "console_tail", ""), "<script>") != NULL);
	ATF_CHECK_EQ(jv_num(json_object_get(json_array_get(cols, 1), "summary"), "panic", -1), 1);
	const json_t *c = NULL;
	for (size_t i = 0; i < json_array_size(cases); i++)
		if (!strcmp(jv_str(json_array_get(cases, i), "id", ""), "close/t_y:c"))
			c = json_array_get(cases, i);
	ATF_REQUIRE(c);
	const json_t *cells = json_object_get(c, "cells");
	ATF_CHECK_STREQ(jv_str(json_object_get(cells, "host"), "reason", ""), NASTY);
	ATF_CHECK_STREQ(jv_str(json_object_get(cells, "deb<6.1>"), "status", ""), "xfail");
	ATF_CHECK_STREQ(jv_str(json_object_get(cells, "deb<6.1>"), "raw", ""), "fail");
	ATF_CHECK_STREQ(jv_str(json_object_get(cells, "deb<6.1>"), "expect", ""), "needs 6.5");
	ATF_CHECK(strstr(b.s, "<script>") == NULL); /* '<' is \u003c */
	json_decref(doc);
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TC(json_reader_strict);
ATF_TC_HEAD(json_reader_strict, tc)
{
	atf_tc_set_md_var(tc, "descr", "The JSON checker rejects malformed documents");
}
ATF_TC_BODY(json_reader_strict, tc)
{
	const char *bad[] = { "{", "{\"a\":}", "[1,]", "{\"a\":1}x", "\"\x01\"", "[01]",
			      "{'a':1}", "[\"\\q\"]", "" };
	char err[128];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		json_t *v = jv_parse(bad[i], strlen(bad[i]), err, sizeof err);
		ATF_CHECK_MSG(v == NULL, "accepted: %s", bad[i]);
		json_decref(v);
	}
	const char *js = "{\"a\": [1, -2.5e3, true, null, \"\\u00e9\\ud83d\\ude00\"]}";
	json_t *v = jv_parse(js, strlen(js), err, sizeof err);
	ATF_REQUIRE_MSG(v, "%s", err);
	ATF_CHECK_STREQ(json_string_value(json_array_get(json_object_get(v, "a"), 4)),
			"\xc3\xa9\xf0\x9f\x98\x80");
	json_decref(v);
}

ATF_TC(csv_rows);
ATF_TC_HEAD(csv_rows, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.csv: a header and one record per case, marks in cells, quoting");
}
ATF_TC_BODY(csv_rows, tc)
{
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_csv(&m, &b);
	ATF_CHECK_EQ(count(b.s, "\r\n"), (int)m.rows.n + 1);
	/* each kernel's header names its arch (U+00B7 between) */
	const char *head = "case,area,host \xc2\xb7 x86_64,deb<6.1> \xc2\xb7 x86_64\r\n";
	ATF_CHECK_MSG(strncmp(b.s, head, strlen(head)) == 0, "%.80s", b.s);
	ATF_CHECK(strstr(b.s, "pty/t_x:b,pty,pass,fail (regression)\r\n") != NULL);
	ATF_CHECK(strstr(b.s, "close/t_y:d,close,,panic (new)\r\n") != NULL);
	struct rbuf q = {0};
	rbuf_csv(&q, "a,\"b\"");
	ATF_CHECK_STREQ(q.s, "\"a,\"\"b\"\"\"");
	rbuf_free(&q);
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TC(html_escaped_and_filterable);
ATF_TC_HEAD(html_escaped_and_filterable, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.html: the table, escaped guest text, the differences-only filter, consoles");
}
ATF_TC_BODY(html_escaped_and_filterable, tc)
{
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_html(&m, &b);
	ATF_CHECK(strstr(b.s, "<table id=\"m\">") != NULL);
	ATF_CHECK(strstr(b.s, "id=\"diffonly\"") != NULL);
	ATF_CHECK(strstr(b.s, "#diffonly:checked~table tr.same{display:none}") != NULL);
	ATF_CHECK(strstr(b.s, "<tr class=\"case same\"><td class=\"id\">pty/t_x:a</td>") != NULL);
	ATF_CHECK(strstr(b.s, "st-fail mk-regression") != NULL);
	ATF_CHECK(strstr(b.s, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;") != NULL);
	ATF_CHECK(strstr(b.s, "<script>alert") == NULL);
	ATF_CHECK(strstr(b.s, "deb&lt;6.1&gt;") != NULL);
	ATF_CHECK(strstr(b.s, "config 0123456789abcdef") != NULL);
	ATF_CHECK(strstr(b.s, "boot 3.1 s + suite 0.0 s") != NULL);
	ATF_CHECK_EQ(count(b.s, "<details>"), 1); /* the panicked kernel only */
	ATF_CHECK(strstr(b.s, "Kernel panic") != NULL);
	ATF_CHECK_EQ(count(b.s, "<script>"), 1); /* ours, inline */
	ATF_CHECK(strstr(b.s, "src=") == NULL && strstr(b.s, "href=") == NULL);
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TC(markdown);
ATF_TC_HEAD(markdown, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.md: kernels, summary, area tables, escaped reasons, console");
}
ATF_TC_BODY(markdown, tc)
{
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_md(&m, &b);
	ATF_CHECK(strstr(b.s, "## pty\n\n| case | host \xc2\xb7 x86\\_64 (baseline) | "
			  "deb&lt;6.1&gt; \xc2\xb7 x86\\_64 |") != NULL);
	ATF_CHECK(strstr(b.s, "## close") != NULL);
	ATF_CHECK(strstr(b.s, "| pty/t\\_x:b | pass | **fail (regression)** |") != NULL);
	ATF_CHECK(strstr(b.s, "\\|pipe\\|") != NULL);
	/* raw guest text only inside the indented (code) console block */
	for (const char *p = b.s; (p = strstr(p, "<script>")); p++) {
		const char *bol = p;
		while (bol > b.s && bol[-1] != '\n')
			bol--;
		ATF_CHECK_MSG(strncmp(bol, "    ", 4) == 0, "raw <script> outside a code block");
	}
	ATF_CHECK(strstr(b.s, "## Console: deb&lt;6.1&gt; (panic)") != NULL);
	ATF_CHECK(strstr(b.s, "    Kernel panic") != NULL);
	ATF_CHECK(strstr(b.s, "needs 6.5") != NULL);
	/* every table row of an area table has ncols+1 cells */
	for (const char *p = strstr(b.s, "## pty"); p && (p = strstr(p, "\n| pty/")); p++) {
		size_t n = strcspn(p + 1, "\n");
		int bars = 0;
		for (size_t i = 0; i < n; i++)
			bars += p[1 + i] == '|' && p[i] != '\\';
		ATF_CHECK_EQ(bars, (int)m.ncols + 2);
	}
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TC(junit_wellformed);
ATF_TC_HEAD(junit_wellformed, tc)
{
	atf_tc_set_md_var(tc, "descr", "junit XML is well formed with the right counts and no properties");
}
ATF_TC_BODY(junit_wellformed, tc)
{
	struct matrix m;
	sample(&m);
	for (size_t c = 0; c < m.ncols; c++) {
		struct rbuf b = {0};
		report_junit(&m, c, &b);
		const char *why = xml_check(b.s);
		ATF_CHECK_MSG(why == NULL, "column %zu: %s", c, why);
		ATF_CHECK(strstr(b.s, "<properties") == NULL);
		ATF_CHECK(strstr(b.s, "<property") == NULL);
		if (c == 0) {
			ATF_CHECK(strstr(b.s, "tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\"") != NULL);
			ATF_CHECK_EQ(count(b.s, "<testcase "), 3);
			ATF_CHECK(strstr(b.s, "classname=\"close.t_y\" name=\"c\"") != NULL);
		} else {
			ATF_CHECK(strstr(b.s, "tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"0\"") != NULL);
			ATF_CHECK(strstr(b.s, "<error type=\"panic\"") != NULL);
			ATF_CHECK(strstr(b.s, "expected failure: needs 6.5") != NULL);
			ATF_CHECK(strstr(b.s, "<system-err>Kernel panic") != NULL);
		}
		rbuf_free(&b);
	}
	ATF_CHECK(xml_check("<a><b></a></b>") != NULL); /* the checker can fail */
	matrix_free(&m);
}

ATF_TC(kcidb_fields);
ATF_TC_HEAD(kcidb_fields, tc)
{
	atf_tc_set_md_var(tc, "descr", "kcidb.json: version, checkouts, builds, tests with ttypot ids and statuses");
}
ATF_TC_BODY(kcidb_fields, tc)
{
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_kcidb(&m, &b);
	char err[256];
	json_t *doc = jv_parse(b.s, b.len, err, sizeof err);
	ATF_REQUIRE_MSG(doc, "invalid JSON: %s", err);
	ATF_CHECK_EQ(jv_num(json_object_get(doc, "version"), "major", 0), 5);
	const json_t *co = json_object_get(doc, "checkouts"), *bu = json_object_get(doc, "builds"),
		     *te = json_object_get(doc, "tests");
	ATF_REQUIRE(co && bu && te);
	ATF_CHECK_EQ(json_array_size(co), 2);
	ATF_CHECK_EQ(json_array_size(bu), 2);
	ATF_CHECK_EQ(json_array_size(te), 2 + 3 + 4); /* one run node per kernel + cells */
	ATF_CHECK_STREQ(jv_str(json_array_get(bu, 1), "config_name", ""), "0123456789abcdef");
	int pass = 0, fail = 0, skip = 0, error = 0;
	for (size_t i = 0; i < json_array_size(te); i++) {
		const json_t *t = json_array_get(te, i);
		ATF_CHECK_STREQ(jv_str(t, "origin", ""), "ttypot");
		ATF_CHECK(strncmp(jv_str(t, "id", ""), "ttypot:", 7) == 0);
		ATF_CHECK(strncmp(jv_str(t, "build_id", ""), "ttypot:", 7) == 0);
		const char *path = jv_str(t, "path", "?");
		for (const char *p = path; *p; p++)
			ATF_CHECK_MSG(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *p),
				      "bad path %s", path);
		const char *st = jv_str(t, "status", "");
		pass += !strcmp(st, "PASS");
		fail += !strcmp(st, "FAIL");
		skip += !strcmp(st, "SKIP");
		error += !strcmp(st, "ERROR");
	}
	/* host: run PASS, a b PASS, c FAIL; deb: run FAIL (panic), a PASS,
	 * b FAIL, c SKIP (xfail), d ERROR (panic) */
	ATF_CHECK_EQ(pass, 4);
	ATF_CHECK_EQ(fail, 3);
	ATF_CHECK_EQ(skip, 1);
	ATF_CHECK_EQ(error, 1);
	ATF_CHECK(strstr(b.s, "\"path\": \"ttypot.pty.t_x.b\"") != NULL);
	json_decref(doc);
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TC(write_all);
ATF_TC_HEAD(write_all, tc)
{
	atf_tc_set_md_var(tc, "descr", "report_write_all writes every file, JUnit named per label");
}
ATF_TC_BODY(write_all, tc)
{
	struct matrix m;
	sample(&m);
	char err[256];
	ATF_REQUIRE_MSG(report_write_all(&m, "out/sub", err, sizeof err) == 0, "%s", err);
	const char *files[] = { "matrix.md", "matrix.html", "matrix.csv", "matrix.json",
				"kcidb.json", "junit-host.xml", "junit-deb_6.1_.xml" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char p[128];
		snprintf(p, sizeof p, "out/sub/%s", files[i]);
		ATF_CHECK_MSG(access(p, R_OK) == 0, "%s missing", p);
	}
	ATF_CHECK(report_write_all(&m, "/proc/nope", err, sizeof err) < 0);
	ATF_CHECK(strstr(err, "/proc/nope") != NULL);
	matrix_free(&m);
}

ATF_TC(arch_abi_headers);
ATF_TC_HEAD(arch_abi_headers, tc)
{
	atf_tc_set_md_var(tc, "descr", "Every format heads a column with its arch and ABI (md, html, csv, junit, kcidb, json)");
}
ATF_TC_BODY(arch_abi_headers, tc)
{
	struct matrix m;
	matrix_init(&m);
	struct column *x = col_new("6.1.0-57-amd64"), *c32 = col_new("6.1.0-57-amd64+compat32"),
		      *a = col_new("6.1.0-57-arm64"), *old = col_new("old");
	col_set_arch(x, "x86_64", NULL);
	col_set_arch(c32, "amd64", "compat32");
	col_set_arch(a, "aarch64", NULL);
	struct column *all[] = { x, c32, a, old };
	for (int i = 0; i < 4; i++) {
		col_put(all[i], "pty/t_x:a", ST_PASS, 0.1, "");
		matrix_add(&m, all[i]);
	}
	matrix_build(&m);
	const char *t32 = "6.1.0-57-amd64+compat32 \xc2\xb7 x86_64-compat32";
	const char *ta = "6.1.0-57-arm64 \xc2\xb7 arm64";
	struct rbuf b = {0};
	report_col_title(old, &b);
	ATF_CHECK_STREQ(rbuf_str(&b), "old"); /* arch unknown: the label alone */
	rbuf_free(&b);
	report_csv(&m, &b);
	ATF_CHECK_MSG(strstr(b.s, t32) && strstr(b.s, ta) && strstr(b.s, ",old\r\n"), "%s", b.s);
	rbuf_free(&b);
	report_md(&m, &b);
	ATF_CHECK(strstr(b.s, "| 6.1.0-57-amd64+compat32 \xc2\xb7 x86\\_64-compat32 |") != NULL);
	ATF_CHECK(strstr(b.s, "| 6.1.0-57-arm64 \xc2\xb7 arm64 |") != NULL);
	ATF_CHECK(strstr(b.s, "| x86\\_64-compat32 |") != NULL); /* the kernels table */
	rbuf_free(&b);
	report_html(&m, &b);
	ATF_CHECK_EQ(count(b.s, t32), 2); /* overview and table headers */
	ATF_CHECK_EQ(count(b.s, ta), 2);
	rbuf_free(&b);
	report_junit(&m, 1, &b);
	ATF_CHECK(strstr(b.s, "<testsuite name=\"ttypot:6.1.0-57-amd64+compat32 \xc2\xb7 x86_64-compat32\"") != NULL);
	ATF_CHECK(strstr(b.s, ", x86_64-compat32,") != NULL); /* system-out meta line */
	ATF_CHECK_MSG(xml_check(b.s) == NULL, "%s", xml_check(b.s));
	rbuf_free(&b);
	report_kcidb(&m, &b);
	char err[256];
	json_t *doc = jv_parse(b.s, b.len, err, sizeof err);
	ATF_REQUIRE_MSG(doc, "%s", err);
	const json_t *bu = json_object_get(doc, "builds");
	ATF_CHECK_STREQ(jv_str(json_array_get(bu, 1), "architecture", ""), "x86_64");
	ATF_CHECK_STREQ(jv_str(json_array_get(bu, 1), "comment", ""), t32);
	ATF_CHECK_STREQ(jv_str(json_object_get(json_array_get(bu, 1), "misc"), "abi", ""), "compat32");
	ATF_CHECK_STREQ(jv_str(json_array_get(bu, 2), "architecture", ""), "arm64");
	ATF_CHECK(!json_object_get(json_object_get(json_array_get(bu, 2), "misc"), "abi"));
	json_decref(doc);
	rbuf_free(&b);
	report_json(&m, &b);
	doc = jv_parse(b.s, b.len, err, sizeof err);
	ATF_REQUIRE_MSG(doc, "%s", err);
	const json_t *cols = json_object_get(doc, "columns");
	ATF_CHECK_STREQ(jv_str(json_array_get(cols, 1), "arch", ""), "x86_64");
	ATF_CHECK_STREQ(jv_str(json_array_get(cols, 1), "abi", ""), "compat32");
	ATF_CHECK_STREQ(jv_str(json_array_get(cols, 2), "arch", ""), "arm64");
	ATF_CHECK(!json_object_get(json_array_get(cols, 2), "abi"));
	json_decref(doc);
	rbuf_free(&b);
	matrix_free(&m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, json_valid_and_complete);
	ATF_TP_ADD_TC(tp, json_reader_strict);
	ATF_TP_ADD_TC(tp, csv_rows);
	ATF_TP_ADD_TC(tp, html_escaped_and_filterable);
	ATF_TP_ADD_TC(tp, markdown);
	ATF_TP_ADD_TC(tp, junit_wellformed);
	ATF_TP_ADD_TC(tp, kcidb_fields);
	ATF_TP_ADD_TC(tp, write_all);
	ATF_TP_ADD_TC(tp, arch_abi_headers);
	return atf_no_error();
}
