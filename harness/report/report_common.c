// SPDX-License-Identifier: GPL-2.0-only
/* report_common.c: what several formats share: a cell's text, a column's
 * one-line description, a JUnit file name. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_junit_name(const struct column *c, char *out, size_t outlen)
{
	char safe[128];
	safe_name(c->label, safe, sizeof safe);
	snprintf(out, outlen, "junit-%s.xml", safe);
}

void report_cell_text(const struct matrix *m, size_t row, size_t col,
		      char *out, size_t outlen)
{
	const struct case_result *r = matrix_cell(m, row, col);
	enum mark mk = matrix_mark(m, row, col);
	if (!r)
		snprintf(out, outlen, "%s", "");
	else if (mk != MARK_NONE)
		snprintf(out, outlen, "%s (%s)", status_name(r->st), mark_name(mk));
	else
		snprintf(out, outlen, "%s", status_name(r->st));
}

void report_col_title(const struct column *c, struct rbuf *out)
{
	char aa[40];
	col_arch_abi(c, aa, sizeof aa);
	rbuf_addf(out, "%s%s%s", c->label, aa[0] ? " \xc2\xb7 " : "", aa);
	if (c->cached[0])
		rbuf_add(out, " \xc2\xb7 cached");
}

void report_col_meta(const struct column *c, struct rbuf *out)
{
	rbuf_addf(out, "%s", c->uname[0] ? c->uname : "uname ?");
	if (c->version[0])
		rbuf_addf(out, ", %s", c->version);
	if (c->config_hash[0])
		rbuf_addf(out, ", config %s", c->config_hash);
	char aa[40];
	col_arch_abi(c, aa, sizeof aa);
	if (aa[0])
		rbuf_addf(out, ", %s", aa);
	if (c->accel[0])
		rbuf_addf(out, ", %s", c->accel);
	rbuf_addf(out, ", boot %.1f s, suite %.1f s, %s", c->boot_s, c->suite_s,
		  end_name(c->end));
	if (c->cached[0])
		rbuf_addf(out, ", %s", c->cached);
}

size_t report_kwarn_total(const struct matrix *m)
{
	size_t n = 0;
	for (size_t c = 0; c < m->ncols; c++)
		n += column_warning_count(m->cols[c]);
	return n;
}

void report_kwarn_summary(const struct column *c, struct rbuf *out)
{
	size_t n = column_warning_count(c);
	if (n) {
		rbuf_addf(out, "%zu kernel warning%s", n, n == 1 ? "" : "s");
		unsigned long t = column_new_taint(c);
		if (t) {
			char what[400];
			taint_describe(t, what, sizeof what);
			rbuf_addf(out, ", taint +%s", what);
		}
	} else if (!c->kmsg_mode[0]) {
		rbuf_add(out, "not watched");
	} else if (strcmp(c->kmsg_mode, "off") == 0) {
		rbuf_addf(out, "none (kernel log unreadable: %s)", c->kmsg_note);
	} else {
		rbuf_add(out, "none");
		if (c->kmsg_note[0])
			rbuf_addf(out, " (%s)", c->kmsg_note);
	}
}

void report_kwarn_cases(const struct kwarn *w, struct rbuf *out)
{
	if (!w->cases.n)
		rbuf_add(out, "none running");
	for (size_t i = 0; i < w->cases.n; i++)
		rbuf_addf(out, "%s%s", i ? ", " : "", w->cases.v[i]);
}

json_t *report_jstr(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (!j) {
		char *clean = utf8_clean(s, strlen(s));
		j = json_string(clean);
		free(clean);
	}
	return j;
}

json_t *report_jnum(double v)
{
	return json_real(isfinite(v) ? round(v * 1000) / 1000 : 0);
}

void report_jdump(json_t *doc, struct rbuf *out)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				     JSON_REAL_PRECISION(15));
	json_decref(doc);
	for (const char *p = text ? text : "{}"; *p; p++)
		if (*p == '<')
			rbuf_add(out, "\\u003c"); /* only ever inside a string */
		else
			rbuf_addc(out, *p);
	rbuf_addc(out, '\n');
	free(text);
}
