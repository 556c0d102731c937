/* SPDX-License-Identifier: GPL-2.0-only */
/* render.h: what matrix, run, report and merge end with. */
#ifndef TTYPOT_RENDER_H
#define TTYPOT_RENDER_H

#include "cli.h"
#include "expectations.h"
#include "matrix.h"

/* Pick the baseline (an unknown label: the first column, exit 2), build the
 * marks, write every report into outdir and print the summary.  Returns the
 * exit status: 0 no regression, 1 regressions, 2 errors. */
int render_matrix(struct matrix *m, const char *baseline, const char *outdir);
/* The same, but only format (report.h REPORT_FORMATS) and on stdout. */
int render_format(struct matrix *m, const char *baseline, const char *format);
/* --expect DIR, else SUITE/fixtures/expect.  -1 with a message printed. */
int load_expectations(const struct cli *o, const char *suite,
		      struct expectations *ex);

#endif
