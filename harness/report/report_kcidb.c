// SPDX-License-Identifier: GPL-2.0-only
/* report_kcidb.c: kcidb.json in the KCIDB I/O schema v5 style: one checkout
 * and one build per kernel column, one test per cell plus a "ttypot" test
 * node for the boot/run itself.  ids are "ttypot:...", origin "ttypot".
 * Status: pass PASS, fail FAIL, skip and xfail SKIP (xfail: misc.expect),
 * broken/timeout/panic ERROR, missing MISS. */
#include "report.h"

#include <string.h>

#define KCIDB_EXCERPT_MAX 16000 /* the schema's log_excerpt limit is 16384 */

static const char *kstatus(enum status s)
{
	switch (s) {
	case ST_PASS: return "PASS";
	case ST_FAIL: return "FAIL";
	case ST_SKIP: case ST_XFAIL: return "SKIP";
	case ST_MISSING: return "MISS";
	default: return "ERROR";
	}
}

/* Test paths must match [a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)* */
static json_t *test_path(const char *id)
{
	struct rbuf t = {0};
	rbuf_add(&t, "ttypot.");
	for (const char *p = id; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-';
		rbuf_addc(&t, ok ? c : (c == '/' || c == ':') ? '.' : '_');
	}
	json_t *j = report_jstr(t.s);
	rbuf_free(&t);
	return j;
}

static bool is_sha1(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 40 && (s[40] == '\0' || s[40] == '+' || s[40] == '-');
}

/* "ttypot:LABEL[:WHAT]" */
static json_t *obj_id(const char *label, const char *what)
{
	struct rbuf t = {0};
	rbuf_addf(&t, "ttypot:%s%s%s", label, what ? ":" : "", what ? what : "");
	json_t *j = report_jstr(t.s);
	rbuf_free(&t);
	return j;
}

static json_t *excerpt(const char *s)
{
	size_t n = strlen(s);
	if (n > KCIDB_EXCERPT_MAX) {
		s += n - KCIDB_EXCERPT_MAX;
		while ((*s & 0xc0) == 0x80) /* keep UTF-8 whole */
			s++;
	}
	return report_jstr(s);
}

static json_t *checkout(const struct column *k)
{
	json_t *o = json_pack("{s:o, s:s, s:o}", "id", obj_id(k->label, NULL), "origin", "ttypot",
			      "comment", report_jstr(k->spec[0] ? k->spec : k->label));
	if (is_sha1(k->version))
		json_object_set_new(o, "git_commit_hash", json_stringn(k->version, 40));
	json_object_set_new(o, "misc", json_pack("{s:o}", "version", report_jstr(k->version)));
	return o;
}

static json_t *build(const struct column *k)
{
	json_t *o = json_pack("{s:o, s:o, s:s, s:o}", "id", obj_id(k->label, NULL),
			      "checkout_id", obj_id(k->label, NULL), "origin", "ttypot",
			      "architecture", report_jstr(k->arch[0] ? k->arch : "x86_64"));
	if (k->config_hash[0])
		json_object_set_new(o, "config_name", report_jstr(k->config_hash));
	json_object_set_new(o, "status", json_string(k->end == END_ERROR ? "ERROR" : "PASS"));
	struct rbuf t = {0};
	report_col_title(k, &t);
	json_object_set_new(o, "comment", report_jstr(rbuf_str(&t)));
	rbuf_free(&t);
	json_t *misc = json_pack("{s:o, s:o, s:o}", "uname", report_jstr(k->uname),
				 "accel", report_jstr(k->accel), "error", report_jstr(k->error));
	if (k->abi[0])
		json_object_set_new(misc, "abi", report_jstr(k->abi));
	json_object_set_new(o, "misc", misc);
	return o;
}

/* The run itself: did the kernel boot and finish the suite? */
static json_t *run_test(const struct column *k)
{
	const char *st = k->end == END_DONE ? "PASS" : k->end == END_PANIC ? "FAIL"
			 : k->end == END_ERROR ? "MISS" : "ERROR";
	json_t *o = json_pack("{s:o, s:o, s:s, s:s, s:s, s:o, s:{s:o}, s:s}",
			      "id", obj_id(k->label, "run"), "build_id", obj_id(k->label, NULL),
			      "origin", "ttypot", "path", "ttypot", "status", st,
			      "duration", report_jnum(k->boot_s + k->suite_s),
			      "environment", "comment", report_jstr(k->accel[0] ? k->accel : "?"),
			      "comment", end_name(k->end));
	if (column_failed(k) && (k->console_tail[0] || k->error[0]))
		json_object_set_new(o, "log_excerpt",
				    excerpt(k->console_tail[0] ? k->console_tail : k->error));
	return o;
}

static json_t *case_test(const struct matrix *m, size_t r, size_t c)
{
	const struct column *k = m->cols[c];
	const struct case_result *x = matrix_cell(m, r, c);
	json_t *o = json_pack("{s:o, s:o, s:s, s:o, s:s, s:o}", "id", obj_id(k->label, x->id),
			      "build_id", obj_id(k->label, NULL), "origin", "ttypot",
			      "path", test_path(x->id), "status", kstatus(x->st),
			      "duration", report_jnum(x->secs));
	if (x->reason[0])
		json_object_set_new(o, "comment", report_jstr(x->reason));
	json_t *misc = json_pack("{s:s, s:o}", "ttypot_status", status_name(x->st),
				 "case", report_jstr(x->id));
	if (x->expect[0])
		json_object_set_new(misc, "expect", report_jstr(x->expect));
	const char *mk = mark_name(matrix_mark(m, r, c));
	if (*mk)
		json_object_set_new(misc, "mark", json_string(mk));
	json_object_set_new(o, "misc", misc);
	return o;
}

void report_kcidb(const struct matrix *m, struct rbuf *b)
{
	json_t *checkouts = json_array(), *builds = json_array(), *tests = json_array();
	for (size_t c = 0; c < m->ncols; c++) {
		json_array_append_new(checkouts, checkout(m->cols[c]));
		json_array_append_new(builds, build(m->cols[c]));
	}
	for (size_t c = 0; c < m->ncols; c++) {
		json_array_append_new(tests, run_test(m->cols[c]));
		for (size_t r = 0; r < m->rows.n; r++)
			if (matrix_cell(m, r, c))
				json_array_append_new(tests, case_test(m, r, c));
	}
	report_jdump(json_pack("{s:{s:i, s:i}, s:o, s:o, s:o}", "version", "major", 5, "minor", 0,
			       "checkouts", checkouts, "builds", builds, "tests", tests), b);
}
