/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h: the matrix output formats.  Stage 4 of the harness (kernel/ ->
 * guest/ -> results/ -> report/ -> commands/): one report_<format>.c per
 * format, each reading a built matrix.  Every renderer appends to an rbuf;
 * report_write_all writes them all into a directory:
 *   matrix.md, matrix.html, matrix.csv, matrix.json (schema ttypot-matrix/1,
 *   reports/README.md), junit-<label>.xml and ktap-<label>.ktap per kernel,
 *   kcidb.json.  report_format writes one of them to a buffer (ttypot
 *   report --format).
 * Guest text is escaped for each format; no environment is ever written.
 */
#ifndef TTYPOT_REPORT_H
#define TTYPOT_REPORT_H

#include <jansson.h>

#include "matrix.h"
#include "rbuf.h"


void report_md(const struct matrix *m, struct rbuf *out);
void report_html(const struct matrix *m, struct rbuf *out);
void report_csv(const struct matrix *m, struct rbuf *out);
void report_json(const struct matrix *m, struct rbuf *out);
void report_junit(const struct matrix *m, size_t col, struct rbuf *out);
void report_kcidb(const struct matrix *m, struct rbuf *out);
/* A column in the kernel's KTAP version 1 (report_ktap.c says how). */
void report_ktap(const struct matrix *m, size_t col, struct rbuf *out);
/* Every column: one column's document as report_ktap, several as one
 * document with a subtest per column (named by its label). */
void report_ktap_all(const struct matrix *m, struct rbuf *out);

/* The file name of a column's JUnit report ("junit-<safe label>.xml"). */
void report_junit_name(const struct column *c, char *out, size_t outlen);
/* The file name of a column's KTAP report ("ktap-<safe label>.ktap"). */
void report_ktap_name(const struct column *c, char *out, size_t outlen);
/* "fail (regression)", "pass", "" for no cell. */
void report_cell_text(const struct matrix *m, size_t row, size_t col,
		      char *out, size_t outlen);
/* A column's heading: its label and what it ran on, "6.1.0-57-arm64 · arm64",
 * "6.1.0-57-amd64+compat32 · x86_64-compat32"; the label alone when the
 * arch is unknown (a matrix.json from before arch columns). */
void report_col_title(const struct column *c, struct rbuf *out);
/* One line describing a column: "6.1.0-27-amd64, tcg, boot 3.1 s, ..." */
void report_col_meta(const struct column *c, struct rbuf *out);

/* Kernel warnings (result.h): all the matrix holds; a column's in a few
 * words ("2 kernel warnings, taint +W (warn)", "none", "not watched",
 * "none (kernel log unreadable: ...)"); the cases of one ("boot", "none running"). */
size_t report_kwarn_total(const struct matrix *m);
void report_kwarn_summary(const struct column *c, struct rbuf *out);
void report_kwarn_cases(const struct kwarn *w, struct rbuf *out);

/* JSON values for the JSON formats (jansson): a string (made valid UTF-8
 * when it is not), a number rounded to 3 decimals, as seconds are written (0 when not finite). */
json_t *report_jstr(const char *s);
json_t *report_jnum(double v);
/* Append doc (then released) indented, '<' as \u003c so that the text is
 * safe inside an HTML <script> too. */
void report_jdump(json_t *doc, struct rbuf *out);

/* The formats report_format knows, for usage messages. */
#define REPORT_FORMATS "md, html, csv, json, kcidb, ktap, junit (one kernel)"
/* One format (a name of REPORT_FORMATS) of the whole matrix into out.  0,
 * or -1 with a message naming the format. */
int report_format(const struct matrix *m, const char *format, struct rbuf *out,
		  char *err, size_t errlen);

/* Write every format into dir (created).  0, or -1 with a message. */
int report_write_all(const struct matrix *m, const char *dir, char *err,
		     size_t errlen);

#endif
