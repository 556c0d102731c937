/* report_common.c: what several formats share: a cell's text, a column's
 * one-line description, a JUnit file name. */
#include "report.h"

#include <stdio.h>

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

void report_col_meta(const struct column *c, struct rbuf *out)
{
	rbuf_addf(out, "%s", c->uname[0] ? c->uname : "uname ?");
	if (c->version[0])
		rbuf_addf(out, ", %s", c->version);
	if (c->config_hash[0])
		rbuf_addf(out, ", config %s", c->config_hash);
	if (c->arch[0])
		rbuf_addf(out, ", %s", c->arch);
	if (c->accel[0])
		rbuf_addf(out, ", %s", c->accel);
	rbuf_addf(out, ", boot %.1f s, suite %.1f s, %s", c->boot_s, c->suite_s,
		  end_name(c->end));
}
