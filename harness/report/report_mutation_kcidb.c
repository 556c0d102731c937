// SPDX-License-Identifier: GPL-2.0-only
/* report_mutation_kcidb.c: a patch's mutants as KCIDB I/O schema v5 tests
 * (report_mutation.h), so a KCIDB dashboard shows beside the matrix which
 * of the patch's lines the suite checks: one checkout (the tree's HEAD),
 * one build (the schemata kernel), one test per mutant.  A mutant the suite
 * kills is a test that PASSes; a survivor FAILs with its verdict line as
 * the comment; equivalent, not covered and uncompilable mutants SKIP (no
 * run can tell them); errors are ERROR, pending MISS.  ids are
 * "ttypot:mutants-HEAD12[:KEY]", origin "ttypot", as report_kcidb.c. */
#include "report_mutation.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

static const char *kstatus(enum mut_status s)
{
	switch (s) {
	case MS_KILLED: case MS_KILLED_TIMEOUT: case MS_KILLED_WARNING: return "PASS";
	case MS_SURVIVED: return "FAIL";
	case MS_EQUIVALENT: case MS_NOT_COVERED: case MS_UNCOMPILABLE: return "SKIP";
	case MS_ERROR: return "ERROR";
	default: return "MISS";
	}
}

/* "ttypot.mutants.drivers.tty.n_tty_c.2238.ror.1": KCIDB's path syntax,
 * [a-zA-Z0-9_-]+ parts joined by dots. */
static json_t *test_path(const struct mutant *m)
{
	struct rbuf t = {0};
	rbuf_add(&t, "ttypot.mutants.");
	for (const char *p = m->key; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-';
		rbuf_addc(&t, ok ? c : (c == '/' || c == ':') ? '.' : '_');
	}
	json_t *j = report_jstr(t.s);
	rbuf_free(&t);
	return j;
}

static json_t *id(const char *label, const char *key)
{
	struct rbuf t = {0};
	rbuf_addf(&t, "ttypot:%s%s%s", label, key ? ":" : "", key ? key : "");
	json_t *j = report_jstr(t.s);
	rbuf_free(&t);
	return j;
}

void mutation_report_kcidb(const struct mutant *m, size_t n, const char *head,
			   const char *comment, struct rbuf *out)
{
	char label[64];
	snprintf(label, sizeof label, "mutants-%.12s", head[0] ? head : "unknown");
	json_t *co = json_pack("{s:o, s:s, s:o}", "id", id(label, NULL), "origin", "ttypot",
			       "comment", report_jstr(comment));
	if (strspn(head, "0123456789abcdef") == 40 && !head[40])
		json_object_set_new(co, "git_commit_hash", json_string(head));
	json_t *bu = json_pack("{s:o, s:o, s:s, s:s, s:s, s:s}", "id", id(label, NULL),
			       "checkout_id", id(label, NULL), "origin", "ttypot",
			       "architecture", "x86_64", "status", "PASS", "comment",
			       "ttypot mutant schemata kernel");
	json_t *tests = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct mutant *x = &m[i];
		json_t *t = json_pack("{s:o, s:o, s:s, s:o, s:s}", "id", id(label, x->key),
				      "build_id", id(label, NULL), "origin", "ttypot",
				      "path", test_path(x), "status", kstatus(x->status));
		struct rbuf c = {0};
		if (x->status == MS_SURVIVED)
			rbuf_addf(&c, "%s:%d: %s -> %s survived: no case checks %s", x->file,
				  x->line, x->orig, x->repl, x->func[0] ? x->func : "this line");
		else
			rbuf_addf(&c, "%s:%d: %s -> %s %s%s%s", x->file, x->line, x->orig, x->repl,
				  mut_status_name(x->status), x->reason[0] ? ": " : "", x->reason);
		json_object_set_new(t, "comment", report_jstr(c.s));
		rbuf_free(&c);
		if (x->secs > 0)
			json_object_set_new(t, "duration", report_jnum(x->secs));
		json_object_set_new(t, "misc", json_pack("{s:o, s:s, s:o}", "key",
							 report_jstr(x->key), "ttypot_status",
							 mut_status_name(x->status), "programs",
							 report_jstr(x->covered_by)));
		json_array_append_new(tests, t);
	}
	report_jdump(json_pack("{s:{s:i, s:i}, s:[o], s:[o], s:o}", "version", "major", 5,
			       "minor", 0, "checkouts", co, "builds", bu, "tests", tests), out);
}
