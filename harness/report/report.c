/* report.c: writing every format into a directory.  A new output format is
 * a report_<format>.c here, declared in report.h and written below. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
