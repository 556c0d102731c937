// SPDX-License-Identifier: GPL-2.0-only
/* report_csv.c: matrix.csv: one header line (case,area, then each kernel's
 * "LABEL · ARCH[-ABI]"), then one line per case:
 * case,area,<one column per kernel: "status" or "status (mark)">. */
#include "report.h"

void report_csv(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "case,area");
	for (size_t c = 0; c < m->ncols; c++) {
		struct rbuf t = {0};
		report_col_title(m->cols[c], &t);
		rbuf_addc(b, ',');
		rbuf_csv(b, rbuf_str(&t));
		rbuf_free(&t);
	}
	rbuf_add(b, "\r\n");
	for (size_t r = 0; r < m->rows.n; r++) {
		char area[128], cell[64];
		case_area(m->rows.v[r], area, sizeof area);
		rbuf_csv(b, m->rows.v[r]);
		rbuf_addc(b, ',');
		rbuf_csv(b, area);
		for (size_t c = 0; c < m->ncols; c++) {
			report_cell_text(m, r, c, cell, sizeof cell);
			rbuf_addc(b, ',');
			rbuf_csv(b, cell);
		}
		rbuf_add(b, "\r\n");
	}
}
