// SPDX-License-Identifier: GPL-2.0-only
/* matrix.c: rows, baseline transitions, summaries. */
#include "matrix.h"
#include "rbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mark_name(enum mark m)
{
	switch (m) {
	case MARK_REGRESSION: return "regression";
	case MARK_FIX: return "fix";
	case MARK_NEW: return "new";
	default: return "";
	}
}

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof *m);
}

static const struct column *by_label(const struct matrix *m, const char *label)
{
	for (size_t i = 0; i < m->ncols; i++)
		if (strcmp(m->cols[i]->label, label) == 0)
			return m->cols[i];
	return NULL;
}

bool matrix_add(struct matrix *m, struct column *c)
{
	bool renamed = false;
	if (!c->label[0])
		snprintf(c->label, sizeof c->label, "kernel%zu", m->ncols + 1);
	const struct column *same = by_label(m, c->label);
	if (same) {
		char base[100], try[128], mine[33], theirs[33];
		snprintf(base, sizeof base, "%.99s", c->label);
		/* The same label on another arch or ABI (e.g. "host" of two
		 * machines) is another kernel: say which in the new label. */
		col_arch_abi(c, mine, sizeof mine);
		col_arch_abi(same, theirs, sizeof theirs);
		if (mine[0] && theirs[0] && strcmp(mine, theirs) != 0)
			snprintf(base, sizeof base, "%.60s-%.32s", c->label, mine);
		snprintf(try, sizeof try, "%s", base);
		for (int k = 2; by_label(m, try); k++)
			snprintf(try, sizeof try, "%s-%d", base, k);
		snprintf(c->label, sizeof c->label, "%s", try);
		renamed = true;
	}
	m->cols = xrealloc(m->cols, (m->ncols + 1) * sizeof *m->cols);
	m->cols[m->ncols++] = c;
	return renamed;
}

int matrix_set_baseline(struct matrix *m, const char *label, char *err,
			size_t errlen)
{
	m->base = 0;
	if (!label || !*label)
		return 0;
	for (size_t i = 0; i < m->ncols; i++)
		if (strcmp(m->cols[i]->label, label) == 0) {
			m->base = i;
			return 0;
		}
	struct rbuf b = {0};
	for (size_t i = 0; i < m->ncols; i++)
		rbuf_addf(&b, "%s%s", i ? ", " : "", m->cols[i]->label);
	snprintf(err, errlen, "--baseline %s: no kernel column has that label (columns: %s)",
		 label, rbuf_str(&b));
	rbuf_free(&b);
	return -1;
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static long find_case(const struct column *c, const char *id)
{
	for (size_t i = 0; i < c->ncases; i++)
		if (strcmp(c->cases[i].id, id) == 0)
			return (long)i;
	return -1;
}

void matrix_build(struct matrix *m)
{
	idlist_free(&m->rows);
	free(m->cell);
	free(m->marks);
	free(m->sum);
	/* the union of ids, sorted: an area ("pty/") is then contiguous */
	struct idlist all = {0};
	for (size_t c = 0; c < m->ncols; c++)
		for (size_t i = 0; i < m->cols[c]->ncases; i++)
			idlist_add(&all, m->cols[c]->cases[i].id);
	if (all.n)
		qsort(all.v, all.n, sizeof *all.v, cmp_id);
	for (size_t i = 0; i < all.n; i++)
		if (i == 0 || strcmp(all.v[i], all.v[i - 1]) != 0)
			idlist_add(&m->rows, all.v[i]);
	idlist_free(&all);

	size_t nr = m->rows.n, nc = m->ncols;
	m->cell = xrealloc(NULL, (nr * nc + 1) * sizeof *m->cell);
	m->marks = xrealloc(NULL, (nr * nc + 1) * sizeof *m->marks);
	m->sum = xrealloc(NULL, (nc + 1) * sizeof *m->sum);
	memset(m->sum, 0, (nc + 1) * sizeof *m->sum);
	m->regressions = 0;
	bool base_ok = nc > 0 && m->cols[m->base]->end != END_ERROR;
	for (size_t r = 0; r < nr; r++) {
		for (size_t c = 0; c < nc; c++)
			m->cell[r * nc + c] = find_case(m->cols[c], m->rows.v[r]);
		const struct case_result *b = matrix_cell(m, r, m->base);
		for (size_t c = 0; c < nc; c++) {
			const struct case_result *x = matrix_cell(m, r, c);
			enum mark mk = MARK_NONE;
			if (x && c != m->base && base_ok) {
				if (!b)
					mk = MARK_NEW;
				else if (b->st == ST_PASS && status_bad(x->st))
					mk = MARK_REGRESSION;
				else if (status_bad(b->st) && x->st == ST_PASS)
					mk = MARK_FIX;
			}
			m->marks[r * nc + c] = mk;
			struct col_summary *s = &m->sum[c];
			if (x) {
				s->count[x->st]++;
				s->total++;
			}
			if (mk == MARK_REGRESSION) {
				s->regressions++;
				m->regressions++;
			} else if (mk == MARK_FIX) {
				s->fixes++;
			} else if (mk == MARK_NEW) {
				s->news++;
			}
		}
	}
}

const struct case_result *matrix_cell(const struct matrix *m, size_t row,
				      size_t col)
{
	long i = m->cell[row * m->ncols + col];
	return i < 0 ? NULL : &m->cols[col]->cases[i];
}

enum mark matrix_mark(const struct matrix *m, size_t row, size_t col)
{
	return m->marks[row * m->ncols + col];
}

bool matrix_row_differs(const struct matrix *m, size_t row)
{
	const struct case_result *first = matrix_cell(m, row, 0);
	for (size_t c = 1; c < m->ncols; c++) {
		const struct case_result *x = matrix_cell(m, row, c);
		if (!first != !x || (x && x->st != first->st))
			return true;
	}
	return false;
}

bool column_failed(const struct column *c)
{
	return c->end != END_DONE;
}

void matrix_free(struct matrix *m)
{
	for (size_t i = 0; i < m->ncols; i++)
		col_free(m->cols[i]);
	free(m->cols);
	idlist_free(&m->rows);
	free(m->cell);
	free(m->marks);
	free(m->sum);
	metalist_free(&m->meta);
	memset(m, 0, sizeof *m);
}
