// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_readers.c: a libFuzzer target for the two readers of untrusted text:
 * the results channel (ingest_buf: what a guest sends) and matrix.json
 * (merge_load_text: files from other machines).  Every input goes to both.
 * Beyond "no crash, no leak, no undefined behaviour" (the sanitizers), it
 * checks what must hold: every ingested string is valid UTF-8, and a
 * matrix.json that loads renders back to a matrix.json that loads with the
 * same columns and cases.  Corpus: fixtures/fuzz/readers/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "matrix.h"
#include "merge.h"
#include "report.h"

/* Does s hold the same bytes after utf8_clean (valid UTF-8, no NUL)? */
static void require_utf8(const char *what, const char *s)
{
	char *c = utf8_clean(s, strlen(s));
	if (strcmp(c, s) != 0) {
		fprintf(stderr, "%s is not valid UTF-8 after ingestion\n", what);
		abort();
	}
	free(c);
}

static void results_channel(const uint8_t *data, size_t size)
{
	struct column *c = col_new("fuzz");
	ingest_buf(c, (const char *)data, size, true);
	ingest_finish(c, NULL, NULL);
	require_utf8("uname", c->uname);
	for (size_t i = 0; i < c->nfeat; i++) {
		require_utf8("feature key", c->feat[i].key);
		require_utf8("feature value", c->feat[i].value);
	}
	for (size_t i = 0; i < c->ncases; i++) {
		require_utf8("case id", c->cases[i].id);
		require_utf8("reason", c->cases[i].reason);
	}
	require_utf8("kmsg note", c->kmsg_note);
	for (size_t i = 0; i < c->nkw; i++) {
		require_utf8("kernel warning", c->kw[i].text);
		for (size_t k = 0; k < c->kw[i].cases.n; k++)
			require_utf8("kernel warning case", c->kw[i].cases.v[k]);
	}
	struct matrix m;
	matrix_init(&m);
	matrix_add(&m, c);
	matrix_build(&m);
	struct rbuf b = {0};
	report_html(&m, &b);
	report_md(&m, &b);
	rbuf_free(&b);
	matrix_free(&m);
}

static void matrix_json(const uint8_t *data, size_t size)
{
	struct matrix m;
	char err[512], base[256];
	matrix_init(&m);
	if (merge_load_text(&m, (const char *)data, size, "fuzz", base, sizeof base, err,
			    sizeof err) == 0) {
		matrix_set_baseline(&m, base, err, sizeof err);
		matrix_build(&m);
		struct rbuf b = {0};
		report_json(&m, &b);
		struct matrix again;
		matrix_init(&again);
		if (merge_load_text(&again, b.s, b.len, "round trip", NULL, 0, err,
				    sizeof err) != 0) {
			fprintf(stderr, "matrix.json written from a loaded matrix does not load: "
				"%s\n", err);
			abort();
		}
		matrix_build(&again);
		if (again.ncols != m.ncols || again.rows.n != m.rows.n) {
			fprintf(stderr, "round trip changed the matrix: %zu x %zu -> %zu x %zu\n",
				m.ncols, m.rows.n, again.ncols, again.rows.n);
			abort();
		}
		for (size_t i = 0; i < m.ncols; i++)
			if (column_warning_count(again.cols[i]) != column_warning_count(m.cols[i])) {
				fprintf(stderr, "round trip changed column %zu's kernel warnings: "
					"%zu -> %zu\n", i, column_warning_count(m.cols[i]),
					column_warning_count(again.cols[i]));
				abort();
			}
		matrix_free(&again);
		rbuf_free(&b);
	}
	matrix_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	results_channel(data, size);
	matrix_json(data, size);
	return 0;
}
