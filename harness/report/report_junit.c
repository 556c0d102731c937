// SPDX-License-Identifier: GPL-2.0-only
/* report_junit.c: junit-<label>.xml, one per kernel (no environment
 * properties, unlike kyua report-junit). */
#include "report.h"

#include <string.h>

static void classname(const char *id, struct rbuf *b)
{
	/* "pty/t_echo:case" -> classname "pty.t_echo", name "case" */
	size_t n = strcspn(id, ":");
	struct rbuf t = {0};
	rbuf_add(&t, "");
	for (size_t i = 0; i < n; i++)
		rbuf_addc(&t, id[i] == '/' ? '.' : id[i]);
	rbuf_xml(b, t.s);
	rbuf_free(&t);
}

void report_junit(const struct matrix *m, size_t ci, struct rbuf *b)
{
	const struct column *c = m->cols[ci];
	long tests = 0, failures = 0, errors = 0, skipped = 0;
	double time = 0;
	for (size_t r = 0; r < m->rows.n; r++) {
		const struct case_result *x = matrix_cell(m, r, ci);
		if (!x)
			continue;
		tests++;
		time += x->secs;
		if (x->st == ST_FAIL)
			failures++;
		else if (status_bad(x->st))
			errors++;
		else if (x->st == ST_SKIP)
			skipped++;
	}
	rbuf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	rbuf_addf(b, "<testsuites tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" "
		  "skipped=\"%ld\" time=\"%.3f\">\n", tests, failures, errors, skipped, time);
	struct rbuf t = {0};
	report_col_title(c, &t);
	rbuf_add(b, "  <testsuite name=\"ttypot:");
	rbuf_xml(b, rbuf_str(&t));
	rbuf_free(&t);
	rbuf_addf(b, "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" skipped=\"%ld\" "
		  "time=\"%.3f\">\n", tests, failures, errors, skipped, time);
	for (size_t r = 0; r < m->rows.n; r++) {
		const struct case_result *x = matrix_cell(m, r, ci);
		if (!x)
			continue;
		const char *id = m->rows.v[r];
		const char *colon = strchr(id, ':');
		rbuf_add(b, "    <testcase classname=\"");
		classname(id, b);
		rbuf_add(b, "\" name=\"");
		rbuf_xml(b, colon ? colon + 1 : id);
		rbuf_addf(b, "\" time=\"%.3f\"", x->secs);
		const char *tag = x->st == ST_FAIL ? "failure"
				: status_bad(x->st) ? "error"
				: x->st == ST_SKIP ? "skipped" : NULL;
		if (tag) {
			rbuf_addf(b, ">\n      <%s type=\"%s\" message=\"", tag, status_name(x->st));
			rbuf_xml(b, x->reason[0] ? x->reason : status_name(x->st));
			rbuf_add(b, "\"/>\n    </testcase>\n");
		} else if (x->st == ST_XFAIL) {
			rbuf_add(b, ">\n      <system-out>expected failure: ");
			rbuf_xml(b, x->expect[0] ? x->expect : x->reason);
			rbuf_add(b, "</system-out>\n    </testcase>\n");
		} else {
			rbuf_add(b, "/>\n");
		}
	}
	rbuf_add(b, "    <system-out>");
	struct rbuf meta = {0};
	report_col_meta(c, &meta);
	rbuf_xml(b, rbuf_str(&meta));
	rbuf_free(&meta);
	if (c->error[0]) {
		rbuf_add(b, "\nerror: ");
		rbuf_xml(b, c->error);
	}
	rbuf_add(b, "</system-out>\n");
	if (column_failed(c) && c->console_tail[0]) {
		rbuf_add(b, "    <system-err>");
		rbuf_xml(b, c->console_tail);
		rbuf_add(b, "</system-err>\n");
	}
	rbuf_add(b, "  </testsuite>\n</testsuites>\n");
}
