// SPDX-License-Identifier: GPL-2.0-only
/* report.c: writing every format into a directory, or one of them for
 * `ttypot report --format`.  A new output format is a report_<format>.c
 * here, declared in report.h and listed in a table below. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name, *file;
	void (*fn)(const struct matrix *, struct rbuf *);
} whole[] = {
	{ "json", "matrix.json", report_json }, /* first: the source of truth */
	{ "md", "matrix.md", report_md },
	{ "html", "matrix.html", report_html },
	{ "csv", "matrix.csv", report_csv },
	{ "kcidb", "kcidb.json", report_kcidb },
	{ "ktap", NULL, report_ktap_all }, /* files: one per column, below */
};

/* The formats written once per column. */
static const struct {
	const char *name;
	void (*fn)(const struct matrix *, size_t, struct rbuf *);
	void (*file)(const struct column *, char *, size_t);
} per_column[] = {
	{ "junit", report_junit, report_junit_name },
	{ "ktap", report_ktap, report_ktap_name },
};

int report_format(const struct matrix *m, const char *format, struct rbuf *out,
		  char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
		if (!strcmp(format, whole[i].name)) {
			whole[i].fn(m, out);
			return 0;
		}
	/* A per-column format alone: only a one-column matrix is one file. */
	for (size_t i = 0; i < sizeof per_column / sizeof *per_column; i++)
		if (!strcmp(format, per_column[i].name)) {
			if (m->ncols != 1) {
				snprintf(err, errlen, "--format %s: one kernel "
					 "per file, and these results have %zu",
					 format, m->ncols);
				return -1;
			}
			per_column[i].fn(m, 0, out);
			return 0;
		}
	snprintf(err, errlen, "--format %s: unknown format (expected %s)",
		 format, REPORT_FORMATS);
	return -1;
}

int report_write_all(const struct matrix *m, const char *dir, char *err,
		     size_t errlen)
{
	if (mkdir_p(dir) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
		if (!whole[i].file)
			continue;
		struct rbuf b = {0};
		whole[i].fn(m, &b);
		int rc = write_file(dir, whole[i].file, &b, err, errlen);
		rbuf_free(&b);
		if (rc < 0)
			return -1;
	}
	for (size_t f = 0; f < sizeof per_column / sizeof *per_column; f++)
		for (size_t c = 0; c < m->ncols; c++) {
			struct rbuf b = {0};
			char name[200];
			per_column[f].file(m->cols[c], name, sizeof name);
			per_column[f].fn(m, c, &b);
			int rc = write_file(dir, name, &b, err, errlen);
			rbuf_free(&b);
			if (rc < 0)
				return -1;
		}
	return 0;
}
