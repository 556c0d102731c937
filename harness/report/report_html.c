/* report_html.c: matrix.html: one self-contained page (inline CSS and JS, no
 * server needed), colour-coded cells, a "differences only" filter. */
#include "report.h"

#include <string.h>

static const char css[] =
	"body{font:14px/1.4 sans-serif;margin:1em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}"
	"thead th{background:#f4f4f4;text-align:left}"
	".meta{font-weight:normal;font-size:11px;color:#555;white-space:nowrap}"
	"tr.area th{background:#e8eef8;text-align:left}"
	"td.id{font-family:monospace}"
	".st-pass{background:#d7f5d7}.st-fail{background:#f8c8c8}"
	".st-skip{background:#eee;color:#666}.st-xfail{background:#fde9c2}"
	".st-broken{background:#f2a0a0}.st-timeout{background:#e9b3f0}"
	".st-panic{background:#b00;color:#fff}.st-missing{background:#ddd;color:#900}"
	".st-none{background:#fff;color:#aaa}"
	".mk-regression{outline:2px solid #c00;font-weight:bold}"
	".mk-fix{outline:2px solid #070}.mk-new{font-style:italic}"
	"pre{background:#f7f7f7;padding:.5em;overflow:auto;max-height:30em}"
	"#diffonly:checked~table tr.same{display:none}";

static const char js[] =
	"(function(){var b=document.getElementById('diffonly'),"
	"o=document.getElementById('shown');function u(){var n=0,"
	"r=document.querySelectorAll('#m tbody tr.case');for(var i=0;i<r.length;i++)"
	"if(!b.checked||!r[i].classList.contains('same'))n++;o.textContent=n+' of '+"
	"r.length+' cases shown';}b.addEventListener('change',u);"
	/* matrix.html#diff opens with the filter on: a link to the differences. */
	"if(location.hash==='#diff')b.checked=true;u();})();";

static void col_header(const struct matrix *m, size_t ci, struct rbuf *b)
{
	const struct column *c = m->cols[ci];
	rbuf_add(b, "<th>");
	rbuf_html(b, c->label);
	if (ci == m->base)
		rbuf_add(b, " <small>(baseline)</small>");
	rbuf_add(b, "<div class=\"meta\">");
	rbuf_html(b, c->uname[0] ? c->uname : "uname ?");
	if (c->version[0]) {
		rbuf_add(b, "<br>");
		rbuf_html(b, c->version);
	}
	if (c->config_hash[0]) {
		rbuf_add(b, "<br>config ");
		rbuf_html(b, c->config_hash);
	}
	rbuf_add(b, "<br>");
	rbuf_html(b, c->arch[0] ? c->arch : "?");
	rbuf_add(b, " / ");
	rbuf_html(b, c->accel[0] ? c->accel : "?");
	rbuf_addf(b, "<br>boot %.1f s + suite %.1f s<br>%s", c->boot_s, c->suite_s,
		  end_name(c->end));
	if (c->error[0]) {
		rbuf_add(b, ": ");
		rbuf_html(b, c->error);
	}
	rbuf_add(b, "</div></th>");
}

void report_html(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		 "<title>ttypot matrix</title><style>");
	rbuf_add(b, css);
	rbuf_add(b, "</style></head><body>\n<h1>ttypot matrix</h1>\n<p>");
	rbuf_addf(b, "%zu kernels, %zu cases, baseline <b>", m->ncols, m->rows.n);
	rbuf_html(b, m->ncols ? m->cols[m->base]->label : "-");
	rbuf_addf(b, "</b>, %ld regression%s. <span id=\"shown\"></span></p>\n",
		  m->regressions, m->regressions == 1 ? "" : "s");
	rbuf_add(b, "<input type=\"checkbox\" id=\"diffonly\"> <label for=\"diffonly\">"
		 "differences only</label>\n<table id=\"m\">\n<thead><tr><th>case</th>");
	for (size_t c = 0; c < m->ncols; c++)
		col_header(m, c, b);
	rbuf_add(b, "</tr></thead>\n<tbody>\n");
	char prev[128] = "", area[128], cell[64];
	for (size_t r = 0; r < m->rows.n; r++) {
		case_area(m->rows.v[r], area, sizeof area);
		if (r == 0 || strcmp(area, prev) != 0) {
			/* An area with no differing row is hidden by the filter too. */
			bool differs = false;
			char next[128];
			for (size_t q = r; q < m->rows.n && !differs; q++) {
				case_area(m->rows.v[q], next, sizeof next);
				if (strcmp(next, area) != 0)
					break;
				differs = matrix_row_differs(m, q);
			}
			rbuf_addf(b, "<tr class=\"area%s\"><th colspan=\"%zu\">",
				  differs ? "" : " same", m->ncols + 1);
			rbuf_html(b, area);
			rbuf_add(b, "</th></tr>\n");
		}
		memcpy(prev, area, sizeof prev);
		rbuf_addf(b, "<tr class=\"case%s\"><td class=\"id\">",
			  matrix_row_differs(m, r) ? "" : " same");
		rbuf_html(b, m->rows.v[r]);
		rbuf_add(b, "</td>");
		for (size_t c = 0; c < m->ncols; c++) {
			const struct case_result *x = matrix_cell(m, r, c);
			enum mark mk = matrix_mark(m, r, c);
			report_cell_text(m, r, c, cell, sizeof cell);
			rbuf_addf(b, "<td class=\"st-%s%s%s\"", x ? status_name(x->st) : "none",
				  mk ? " mk-" : "", mark_name(mk));
			if (x && (x->reason[0] || x->expect[0])) {
				rbuf_add(b, " title=\"");
				rbuf_html(b, x->expect[0] ? x->expect : x->reason);
				rbuf_add(b, "\"");
			}
			rbuf_addc(b, '>');
			rbuf_html(b, cell[0] ? cell : "-");
			rbuf_add(b, "</td>");
		}
		rbuf_add(b, "</tr>\n");
	}
	rbuf_add(b, "</tbody>\n<tfoot>\n");
	for (int s = 0; s < ST__N + 3; s++) {
		const char *name = s < ST__N ? status_name((enum status)s)
				 : s == ST__N ? "regression" : s == ST__N + 1 ? "fix" : "new";
		rbuf_addf(b, "<tr><th>%s</th>", name);
		for (size_t c = 0; c < m->ncols; c++) {
			const struct col_summary *su = &m->sum[c];
			long v = s < ST__N ? su->count[s] : s == ST__N ? su->regressions
				 : s == ST__N + 1 ? su->fixes : su->news;
			rbuf_addf(b, "<td>%ld</td>", v);
		}
		rbuf_add(b, "</tr>\n");
	}
	rbuf_add(b, "</tfoot>\n</table>\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		if (!column_failed(k))
			continue;
		rbuf_add(b, "<details><summary>console: ");
		rbuf_html(b, k->label);
		rbuf_addf(b, " (%s)</summary>\n", end_name(k->end));
		if (k->error[0]) {
			rbuf_add(b, "<p>");
			rbuf_html(b, k->error);
			rbuf_add(b, "</p>\n");
		}
		rbuf_add(b, "<pre>");
		rbuf_html(b, k->console_tail[0] ? k->console_tail : "(no console output kept)");
		rbuf_add(b, "</pre></details>\n");
	}
	rbuf_add(b, "<script>");
	rbuf_add(b, js);
	rbuf_add(b, "</script>\n</body></html>\n");
}
