/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix.h: columns (kernels) x rows (program:case, sorted so that each area
 * is contiguous), with transition marks against a baseline column:
 *   regression: baseline pass -> fail/broken/timeout/panic/missing
 *   fix:        baseline fail/broken/timeout/panic/missing -> pass
 *   new:        the case has no cell in the baseline
 * skip and xfail are explained outcomes: neither side of a transition.
 * A baseline that is an error column yields no marks.
 */
#ifndef TTYPOT_MATRIX_H
#define TTYPOT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* The schema of matrix.json (reports/README.md). */
#define MATRIX_SCHEMA "ttypot-matrix/1"

enum mark { MARK_NONE, MARK_REGRESSION, MARK_FIX, MARK_NEW };
const char *mark_name(enum mark m); /* "", "regression", "fix", "new" */

struct col_summary {
	long count[ST__N];
	long total, regressions, fixes, news;
};

struct matrix {
	struct column **cols;
	size_t ncols;
	size_t base;            /* baseline column */
	struct idlist rows;     /* sorted case ids (built) */
	long *cell;             /* rows.n x ncols: index into cases, -1 none */
	enum mark *marks;       /* rows.n x ncols */
	struct col_summary *sum;/* per column */
	long regressions;       /* over all columns */
	struct metalist meta;   /* descr/commits of the cases, when known */
};

void matrix_init(struct matrix *m);
/* Take ownership of c.  A label already present gets "-2", "-3"...; when
 * the column with that label has another arch or ABI, the new one gets
 * "-ARCH[-ABI]" first ("host-arm64"), so that two architectures are never
 * taken for one kernel.  Returns true when it had to rename. */
bool matrix_add(struct matrix *m, struct column *c);
/* NULL or "" selects the first column.  -1 with a message when no column
 * has that label. */
int matrix_set_baseline(struct matrix *m, const char *label, char *err,
			size_t errlen);
/* (Re)build rows, cells, marks and summaries. */
void matrix_build(struct matrix *m);
const struct case_result *matrix_cell(const struct matrix *m, size_t row,
				      size_t col);
enum mark matrix_mark(const struct matrix *m, size_t row, size_t col);
/* Do the cells of a row differ (status or presence) between columns? */
bool matrix_row_differs(const struct matrix *m, size_t row);
/* A column "failed" as a whole (not done, or an error): show its console. */
bool column_failed(const struct column *c);
void matrix_free(struct matrix *m);

#endif
