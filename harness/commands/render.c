// SPDX-License-Identifier: GPL-2.0-only
/* render.c: the end of matrix, run, report and merge (render.h). */
#include "render.h"
#include "report.h"

#include <limits.h>
#include <stdio.h>

/* Render whatever the matrix holds; pick the baseline; return the exit code. */
int render_matrix(struct matrix *m, const char *baseline, const char *outdir)
{
	char err[1024];
	int rc = 0;
	if (matrix_set_baseline(m, baseline, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s; using %s\n", err,
			m->ncols ? m->cols[0]->label : "-");
		rc = 2;
	}
	matrix_build(m);
	if (report_write_all(m, outdir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: writing reports: %s\n", err);
		return 2;
	}
	printf("ttypot: %zu kernels, %zu cases, baseline %s, %ld regression%s\n",
	       m->ncols, m->rows.n, m->ncols ? m->cols[m->base]->label : "-",
	       m->regressions, m->regressions == 1 ? "" : "s");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct col_summary *s = &m->sum[c];
		char aa[40];
		col_arch_abi(m->cols[c], aa, sizeof aa);
		printf("  %-28s %-16s %-8s pass %ld fail %ld skip %ld xfail %ld broken %ld "
		       "timeout %ld panic %ld missing %ld\n",
		       m->cols[c]->label, aa[0] ? aa : "?", end_name(m->cols[c]->end), s->count[ST_PASS],
		       s->count[ST_FAIL], s->count[ST_SKIP], s->count[ST_XFAIL],
		       s->count[ST_BROKEN], s->count[ST_TIMEOUT], s->count[ST_PANIC],
		       s->count[ST_MISSING]);
	}
	printf("ttypot: reports in %s/ (matrix.md matrix.html matrix.csv matrix.json "
	       "kcidb.json junit-*.xml ktap-*.ktap)\n", outdir);
	fflush(stdout);
	if (rc)
		return rc;
	return m->regressions ? 1 : 0;
}

int render_format(struct matrix *m, const char *baseline, const char *format)
{
	char err[1024];
	int rc = 0;
	if (matrix_set_baseline(m, baseline, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s; using %s\n", err,
			m->ncols ? m->cols[0]->label : "-");
		rc = 2;
	}
	matrix_build(m);
	struct rbuf b = {0};
	if (report_format(m, format, &b, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: report: %s\n", err);
		rbuf_free(&b);
		return 2;
	}
	const char *text = rbuf_str(&b);
	if (fwrite(text, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
		fprintf(stderr, "ttypot: report: writing to stdout failed\n");
		rc = 2;
	}
	rbuf_free(&b);
	if (rc)
		return rc;
	return m->regressions ? 1 : 0;
}

int load_expectations(const struct cli *o, const char *suite,
			     struct expectations *ex)
{
	char dir[PATH_MAX], err[1024];
	if (o->expect_dir)
		snprintf(dir, sizeof dir, "%s", o->expect_dir);
	else
		snprintf(dir, sizeof dir, "%s/fixtures/expect", suite);
	if (expect_load_dir(ex, dir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: expectations: %s\n", err);
		return -1;
	}
	return 0;
}
