/* report.c: shared report helpers and writing every format. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
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

int report_write_all(const struct matrix *m, const char *dir, char *err,
		     size_t errlen)
{
	if (mkdir_p(dir) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct {
		const char *name;
		void (*fn)(const struct matrix *, struct rbuf *);
	} fmts[] = {
		{ "matrix.json", report_json }, /* first: the source of truth */
		{ "matrix.md", report_md },
		{ "matrix.html", report_html },
		{ "matrix.csv", report_csv },
		{ "kcidb.json", report_kcidb },
	};
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		struct rbuf b = {0};
		fmts[i].fn(m, &b);
		int rc = write_file(dir, fmts[i].name, &b, err, errlen);
		rbuf_free(&b);
		if (rc < 0)
			return -1;
	}
	for (size_t c = 0; c < m->ncols; c++) {
		struct rbuf b = {0};
		char name[200];
		report_junit_name(m->cols[c], name, sizeof name);
		report_junit(m, c, &b);
		int rc = write_file(dir, name, &b, err, errlen);
		rbuf_free(&b);
		if (rc < 0)
			return -1;
	}
	return 0;
}
