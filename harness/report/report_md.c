// SPDX-License-Identifier: GPL-2.0-only
/* report_md.c: matrix.md: kernels, summary, one table per area, the
 * reasons of failing cells, console tails of kernels that did not finish. */
#include "report.h"

#include <string.h>

static void console_block(struct rbuf *b, const char *text)
{
	/* an indented code block needs no fence, so guest text cannot end it */
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		rbuf_add(b, "    ");
		for (size_t i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)p[i];
			rbuf_addc(b, ch < 0x20 && ch != '\t' ? '?' : (char)ch);
		}
		rbuf_addc(b, '\n');
		p += n;
		if (*p)
			p++;
	}
}

/* A column's heading (report_col_title) as one table cell's text. */
static void md_title(struct rbuf *b, const struct column *c)
{
	struct rbuf t = {0};
	report_col_title(c, &t);
	rbuf_md(b, rbuf_str(&t));
	rbuf_free(&t);
}

static void area_header(const struct matrix *m, struct rbuf *b, const char *area)
{
	rbuf_add(b, "\n## ");
	rbuf_md(b, area);
	rbuf_add(b, "\n\n| case |");
	for (size_t c = 0; c < m->ncols; c++) {
		rbuf_addc(b, ' ');
		md_title(b, m->cols[c]);
		rbuf_add(b, c == m->base ? " (baseline) |" : " |");
	}
	rbuf_add(b, "\n|---|");
	for (size_t c = 0; c < m->ncols; c++)
		rbuf_add(b, "---|");
	rbuf_addc(b, '\n');
}

/* Every column's kernel warnings: when, the taint flags, the cases
 * running then, the log line. */
static void kernel_warnings(const struct matrix *m, struct rbuf *b)
{
	if (!report_kwarn_total(m))
		return;
	rbuf_add(b, "\n## Kernel warnings\n\nKernel log lines of a WARN, BUG, Oops or lockdep "
		 "report and taint flags that appeared, with the cases running then "
		 "(marked \xe2\x9a\xa0 in the tables above).\n\n"
		 "| kernel | kernel time s | taint | cases | warning |\n|---|---|---|---|---|\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		for (size_t i = 0; i < k->nkw; i++) {
			const struct kwarn *w = &k->kw[i];
			struct rbuf t = {0};
			rbuf_add(b, "| ");
			md_title(b, k);
			if (w->ktime >= 0)
				rbuf_addf(b, " | %.6f | ", w->ktime);
			else
				rbuf_add(b, " | - | ");
			rbuf_addf(b, "%lu | ", w->taint);
			report_kwarn_cases(w, &t);
			rbuf_md(b, rbuf_str(&t));
			rbuf_add(b, " | ");
			rbuf_md(b, w->text);
			rbuf_add(b, " |\n");
			rbuf_free(&t);
		}
	}
}

void report_md(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "# ttypot matrix\n\n");
	rbuf_addf(b, "%zu kernels, %zu cases, baseline ", m->ncols, m->rows.n);
	rbuf_md(b, m->ncols ? m->cols[m->base]->label : "-");
	rbuf_addf(b, ", %ld regression%s", m->regressions, m->regressions == 1 ? "" : "s");
	size_t nkw = report_kwarn_total(m);
	if (nkw)
		rbuf_addf(b, ", **%zu kernel warning%s**", nkw, nkw == 1 ? "" : "s");
	rbuf_add(b, ".\n\n## Kernels\n\n");
	rbuf_add(b, "| kernel | spec | uname -r | version | config | arch-abi | accel | "
		 "boot s | suite s | end | garbage |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		char aa[40];
		col_arch_abi(k, aa, sizeof aa);
		const char *f[] = { k->label, k->spec, k->uname, k->version,
				    k->config_hash, aa, k->accel };
		rbuf_add(b, "|");
		for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
			rbuf_addc(b, ' ');
			rbuf_md(b, f[i]);
			rbuf_add(b, " |");
		}
		rbuf_addf(b, " %.1f | %.1f | ", k->boot_s, k->suite_s);
		rbuf_add(b, end_name(k->end));
		if (k->cached[0]) {
			rbuf_add(b, ", ");
			rbuf_md(b, k->cached);
		}
		if (k->error[0]) {
			rbuf_add(b, ": ");
			rbuf_md(b, k->error);
		}
		rbuf_addf(b, " | %ld |\n", k->garbage);
	}
	rbuf_add(b, "\n## Summary\n\n| kernel |");
	for (int s = 0; s < ST__N; s++)
		rbuf_addf(b, " %s |", status_name((enum status)s));
	rbuf_add(b, " regression | fix | new | kernel warnings |\n|---|");
	for (int s = 0; s < ST__N + 4; s++)
		rbuf_add(b, "---|");
	rbuf_addc(b, '\n');
	for (size_t c = 0; c < m->ncols; c++) {
		const struct col_summary *s = &m->sum[c];
		rbuf_add(b, "| ");
		md_title(b, m->cols[c]);
		rbuf_add(b, " |");
		for (int st = 0; st < ST__N; st++)
			rbuf_addf(b, " %ld |", s->count[st]);
		rbuf_addf(b, " %ld | %ld | %ld | ", s->regressions, s->fixes, s->news);
		struct rbuf t = {0};
		report_kwarn_summary(m->cols[c], &t);
		rbuf_md(b, rbuf_str(&t));
		rbuf_add(b, " |\n");
		rbuf_free(&t);
	}

	char prev[128] = "", area[128], cell[64];
	for (size_t r = 0; r < m->rows.n; r++) {
		case_area(m->rows.v[r], area, sizeof area);
		if (r == 0 || strcmp(area, prev) != 0)
			area_header(m, b, area);
		memcpy(prev, area, sizeof prev);
		rbuf_add(b, "| ");
		rbuf_md(b, m->rows.v[r]);
		rbuf_add(b, " |");
		for (size_t c = 0; c < m->ncols; c++) {
			report_cell_text(m, r, c, cell, sizeof cell);
			enum mark mk = matrix_mark(m, r, c);
			rbuf_add(b, mk == MARK_REGRESSION ? " **" : " ");
			rbuf_add(b, cell[0] ? cell : "-");
			if (cell[0] && column_case_warnings(m->cols[c], m->rows.v[r]))
				rbuf_add(b, " \xe2\x9a\xa0"); /* a kernel warning ran with it */
			rbuf_add(b, mk == MARK_REGRESSION ? "** |" : " |");
		}
		rbuf_addc(b, '\n');
	}

	bool any = false;
	for (size_t r = 0; r < m->rows.n; r++)
		for (size_t c = 0; c < m->ncols; c++) {
			const struct case_result *x = matrix_cell(m, r, c);
			if (!x || (!status_bad(x->st) && x->st != ST_XFAIL))
				continue;
			if (!any)
				rbuf_add(b, "\n## Reasons\n\n");
			any = true;
			rbuf_add(b, "- ");
			rbuf_md(b, m->cols[c]->label);
			rbuf_add(b, " ");
			rbuf_md(b, m->rows.v[r]);
			rbuf_addf(b, ": %s: ", status_name(x->st));
			rbuf_md(b, x->st == ST_XFAIL && x->expect[0] ? x->expect :
				   x->reason[0] ? x->reason : "(no reason)");
			rbuf_addc(b, '\n');
		}

	kernel_warnings(m, b);

	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		if (!column_failed(k) || (!k->console_tail[0] && !k->error[0]))
			continue;
		rbuf_add(b, "\n## Console: ");
		rbuf_md(b, k->label);
		rbuf_addf(b, " (%s)\n\n", end_name(k->end));
		if (k->error[0]) {
			rbuf_md(b, k->error);
			rbuf_add(b, "\n\n");
		}
		console_block(b, k->console_tail);
	}
}
