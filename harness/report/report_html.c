// SPDX-License-Identifier: GPL-2.0-only
/* report_html.c: matrix.html: one self-contained page (inline CSS and JS, no
 * server needed).  An overview first (areas x kernels, each cell the area's
 * worst status with counts, linking to the area), then the full table with
 * its header row and case column kept in view, each case's description and
 * commits on hover, and filters by status, area and "differences only". */
#include "report.h"

#include <string.h>

static const char css[] =
	"body{font:14px/1.4 sans-serif;margin:1em;color:#222}"
	"table{border-collapse:separate;border-spacing:0;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top;background:#fff}"
	"thead th{background:#f4f4f4;text-align:left}"
	/* the header row and the case column stay in view while scrolling */
	"#m thead th{position:sticky;top:0;z-index:2}"
	"#m td.id,#m tr.area th{position:sticky;left:0;z-index:1}"
	"#m thead th:first-child{left:0;z-index:3}"
	".meta{font-weight:normal;font-size:11px;color:#555;white-space:nowrap}"
	"tr.area th{background:#e8eef8;text-align:left}"
	"td.id{font-family:monospace;background:#fafafa}"
	"td.id .tip{display:none;position:absolute;left:100%;top:0;width:36em;z-index:5;"
	"font:12px/1.4 sans-serif;background:#ffffe8;border:1px solid #999;padding:4px 6px;"
	"white-space:normal;box-shadow:2px 2px 4px #0003}"
	"td.id:hover .tip{display:block}"
	".tip .commits{font-family:monospace;color:#555}"
	".st-pass,.w-pass{background:#d7f5d7}.st-fail,.w-fail{background:#f8c8c8}"
	".st-skip,.w-skip{background:#eee;color:#666}.st-xfail,.w-xfail{background:#fde9c2}"
	".st-broken,.w-broken{background:#f2a0a0}.st-timeout,.w-timeout{background:#e9b3f0}"
	".st-panic,.w-panic{background:#b00;color:#fff}"
	".st-missing,.w-missing{background:#ddd;color:#900}"
	".st-none,.w-none{background:#fff;color:#aaa}"
	".mk-regression{outline:2px solid #c00;font-weight:bold}"
	".mk-fix{outline:2px solid #070}.mk-new{font-style:italic}"
	"#overview td{white-space:nowrap}#overview td a{color:inherit}"
	"#overview tbody th{text-align:left}#overview td.mk-regression{font-weight:normal}"
	"#overview td .n{font-size:11px}"
	"#filters{background:#f7f7f7;border:1px solid #ddd;padding:4px 8px;display:inline-block}"
	"#filters label{margin-right:.6em;white-space:nowrap}"
	"pre{background:#f7f7f7;padding:.5em;overflow:auto;max-height:30em}"
	"tr.hidden{display:none}"
	/* kernel warnings: never green, whatever the cells say */
	".kw{background:#ffd27f}.kwm{color:#b35c00;font-weight:bold;cursor:help}"
	"#diffonly:checked~table tr.same{display:none}";

/* Rows are shown when they pass every filter: a ticked status present in
 * the row, the chosen area, and (differences only) a differing row.  An
 * area heading is shown when one of its rows is.  matrix.html#diff opens
 * with differences only, #area-NAME with that area, #status-fail,broken with
 * those statuses ticked. */
static const char js[] =
	"(function(){var d=document,b=d.getElementById('diffonly'),"
	"a=d.getElementById('area'),o=d.getElementById('shown'),"
	"sts=d.querySelectorAll('#filters input.st'),i,"
	"go=d.querySelectorAll('a[data-area]');"
	/* the overview links to each area (no href in the file itself) */
	"for(i=0;i<go.length;i++)go[i].setAttribute('href','#area-'+go[i].dataset.area);"
	/* a row's area: the first path component of its id (case_area) */
	"function area(t){var s=t.cells[0].firstChild.nodeValue,k=s.indexOf('/');"
	"return k>=0?s.slice(0,k):s.split(':')[0];}"
	/* a row's statuses: its cells' st-* classes (no cell: missing) */
	"function st(t){var r=[],j,c;for(j=1;j<t.cells.length;j++){c=t.cells[j].className"
	".match(/st-([a-z]+)/);r.push(c&&c[1]!=='none'?c[1]:'missing');}return r;}"
	"function u(){var on={},n=0,j,r=d.querySelectorAll('#m tbody tr'),total=0,last=null;"
	"for(j=0;j<sts.length;j++)on[sts[j].value]=sts[j].checked;"
	"for(j=0;j<r.length;j++){var t=r[j];"
	"if(t.classList.contains('area')){last=t;t.classList.add('hidden');continue;}"
	"total++;var ok=!(b.checked&&t.classList.contains('same'))&&"
	"(!a.value||a.value===area(t)),any=false,s=st(t);"
	"for(var k=0;k<s.length;k++)if(on[s[k]])any=true;ok=ok&&any;"
	"t.classList.toggle('hidden',!ok);if(ok){n++;if(last)last.classList.remove('hidden');}}"
	"o.textContent=n+' of '+total+' cases shown';}"
	"function h(){var x=decodeURIComponent(location.hash);if(x==='#diff')b.checked=true;"
	"else if(x.indexOf('#area-')===0){a.value=x.slice(6);}"
	"else if(x.indexOf('#status-')===0){var w=x.slice(8).split(',');"
	"for(var j=0;j<sts.length;j++)sts[j].checked=w.indexOf(sts[j].value)>=0;}u();}"
	"b.addEventListener('change',u);a.addEventListener('change',u);"
	"for(i=0;i<sts.length;i++)sts[i].addEventListener('change',u);"
	"window.addEventListener('hashchange',h);h();})();";

/* Worst first: how a whole area is coloured in the overview. */
static const enum status severity[] = {
	ST_PANIC, ST_BROKEN, ST_TIMEOUT, ST_FAIL, ST_MISSING, ST_XFAIL, ST_SKIP, ST_PASS,
};

static void col_header(const struct matrix *m, size_t ci, struct rbuf *b)
{
	const struct column *c = m->cols[ci];
	struct rbuf t = {0};
	report_col_title(c, &t);
	rbuf_add(b, "<th>");
	rbuf_html(b, rbuf_str(&t));
	rbuf_free(&t);
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
	char aa[40];
	col_arch_abi(c, aa, sizeof aa);
	rbuf_add(b, "<br>");
	rbuf_html(b, aa[0] ? aa : "?");
	rbuf_add(b, " / ");
	rbuf_html(b, c->accel[0] ? c->accel : "?");
	rbuf_addf(b, "<br>boot %.1f s + suite %.1f s<br>%s", c->boot_s, c->suite_s,
		  end_name(c->end));
	if (c->cached[0]) {
		rbuf_add(b, "<br>");
		rbuf_html(b, c->cached);
	}
	if (c->error[0]) {
		rbuf_add(b, ": ");
		rbuf_html(b, c->error);
	}
	rbuf_add(b, "</div></th>");
}

/* The rows [first, *end) of the area that starts at row first. */
static void area_of(const struct matrix *m, size_t first, char *area, size_t arealen,
		    size_t *end)
{
	char next[128];
	case_area(m->rows.v[first], area, arealen);
	size_t r = first + 1;
	for (; r < m->rows.n; r++) {
		case_area(m->rows.v[r], next, sizeof next);
		if (strcmp(next, area) != 0)
			break;
	}
	*end = r;
}

/* One overview cell: the worst status of the area's cells in column c,
 * with the count of each status present. */
static void overview_cell(const struct matrix *m, size_t first, size_t end, size_t c,
			  const char *area, struct rbuf *b)
{
	long n[ST__N] = {0}, total = 0;
	for (size_t r = first; r < end; r++) {
		const struct case_result *x = matrix_cell(m, r, c);
		if (x) {
			n[x->st]++;
			total++;
		}
	}
	long regressions = 0;
	for (size_t r = first; r < end; r++)
		regressions += matrix_mark(m, r, c) == MARK_REGRESSION;
	const char *worst = "none";
	for (size_t i = 0; i < sizeof severity / sizeof *severity && total; i++)
		if (n[severity[i]]) {
			worst = status_name(severity[i]);
			break;
		}
	rbuf_addf(b, "<td class=\"w-%s%s\"><a data-area=\"", worst,
		  regressions ? " mk-regression" : "");
	rbuf_html(b, area);
	rbuf_add(b, "\">");
	if (!total)
		rbuf_add(b, "-");
	for (size_t i = 0, k = 0; i < sizeof severity / sizeof *severity; i++)
		if (n[severity[i]])
			rbuf_addf(b, "%s%s <span class=\"n\">%ld</span>", k++ ? ", " : "",
				  status_name(severity[i]), n[severity[i]]);
	if (regressions)
		rbuf_addf(b, " <b>(%ld regression%s)</b>", regressions, regressions == 1 ? "" : "s");
	long warned = 0;
	for (size_t r = first; r < end; r++)
		warned += matrix_cell(m, r, c) && column_case_warnings(m->cols[c], m->rows.v[r]);
	if (warned)
		rbuf_addf(b, " <span class=\"kwm\" title=\"%ld case%s ran while the kernel warned\">"
			  "\xe2\x9a\xa0 %ld</span>", warned, warned == 1 ? "" : "s", warned);
	rbuf_add(b, "</a></td>");
}

static void overview(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "<h2>Overview</h2>\n<table id=\"overview\">\n<thead><tr><th>area</th>");
	for (size_t c = 0; c < m->ncols; c++) {
		struct rbuf t = {0};
		report_col_title(m->cols[c], &t);
		rbuf_add(b, "<th>");
		rbuf_html(b, rbuf_str(&t));
		rbuf_add(b, "</th>");
		rbuf_free(&t);
	}
	rbuf_add(b, "</tr></thead>\n<tbody>\n");
	char area[128];
	for (size_t r = 0, end; r < m->rows.n; r = end) {
		area_of(m, r, area, sizeof area, &end);
		rbuf_add(b, "<tr class=\"ov\"><th><a data-area=\"");
		rbuf_html(b, area);
		rbuf_add(b, "\">");
		rbuf_html(b, area);
		rbuf_addf(b, "</a> <span class=\"meta\">%zu cases</span></th>", end - r);
		for (size_t c = 0; c < m->ncols; c++)
			overview_cell(m, r, end, c, area, b);
		rbuf_add(b, "</tr>\n");
	}
	/* A column can pass every case and still have warned. */
	if (report_kwarn_total(m)) {
		rbuf_add(b, "<tr class=\"ovkw\"><th><a href=\"#kernel-warnings\">kernel "
			 "warnings</a></th>");
		for (size_t c = 0; c < m->ncols; c++) {
			struct rbuf t = {0};
			report_kwarn_summary(m->cols[c], &t);
			rbuf_addf(b, "<td%s>", column_warning_count(m->cols[c]) ? " class=\"kw\"" : "");
			rbuf_html(b, rbuf_str(&t));
			rbuf_add(b, "</td>");
			rbuf_free(&t);
		}
		rbuf_add(b, "</tr>\n");
	}
	rbuf_add(b, "</tbody>\n</table>\n");
}

static void filters(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "<h2>Cases</h2>\n<input type=\"checkbox\" id=\"diffonly\"> <label "
		 "for=\"diffonly\">differences only</label>\n<div id=\"filters\">status: ");
	for (int s = 0; s < ST__N; s++)
		rbuf_addf(b, "<label><input type=\"checkbox\" class=\"st\" value=\"%s\" checked>"
			  " %s</label>", status_name((enum status)s), status_name((enum status)s));
	rbuf_add(b, " area: <select id=\"area\"><option value=\"\">all</option>");
	char area[128];
	for (size_t r = 0, end; r < m->rows.n; r = end) {
		area_of(m, r, area, sizeof area, &end);
		rbuf_add(b, "<option>");
		rbuf_html(b, area);
		rbuf_add(b, "</option>");
	}
	rbuf_add(b, "</select></div>\n");
}

/* The case column: its id, and on hover its description and commits. */
static void case_cell(const struct matrix *m, size_t r, struct rbuf *b)
{
	const struct case_meta *meta = metalist_find(&m->meta, m->rows.v[r]);
	rbuf_add(b, "<td class=\"id\">");
	rbuf_html(b, m->rows.v[r]);
	if (meta && (meta->descr[0] || meta->commits[0])) {
		rbuf_add(b, "<div class=\"tip\">");
		rbuf_html(b, meta->descr);
		if (meta->commits[0]) {
			rbuf_add(b, "<div class=\"commits\">commits: ");
			rbuf_html(b, meta->commits);
			rbuf_add(b, "</div>");
		}
		rbuf_add(b, "</div>");
	}
	rbuf_add(b, "</td>");
}

/* A cell's mark when kernel warnings ran with its case: the lines on hover. */
static void kwarn_mark(const struct column *c, const char *id, struct rbuf *b)
{
	if (!column_case_warnings(c, id))
		return;
	rbuf_add(b, " <span class=\"kwm\" title=\"kernel warnings while it ran:");
	for (size_t i = 0; i < c->nkw; i++)
		for (size_t k = 0; k < c->kw[i].cases.n; k++)
			if (strcmp(c->kw[i].cases.v[k], id) == 0) {
				rbuf_add(b, "\n");
				rbuf_html(b, c->kw[i].text);
				break;
			}
	rbuf_add(b, "\">\xe2\x9a\xa0</span>");
}

static void case_row(const struct matrix *m, size_t r, struct rbuf *b)
{
	char cell[64];
	rbuf_addf(b, "<tr class=\"case%s\">", matrix_row_differs(m, r) ? "" : " same");
	case_cell(m, r, b);
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
		if (x)
			kwarn_mark(m->cols[c], m->rows.v[r], b);
		rbuf_add(b, "</td>");
	}
	rbuf_add(b, "</tr>\n");
}

static void summary_rows(const struct matrix *m, struct rbuf *b)
{
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
	rbuf_add(b, "<tr><th>kernel warnings</th>");
	for (size_t c = 0; c < m->ncols; c++)
		rbuf_addf(b, "<td%s>%zu</td>", column_warning_count(m->cols[c]) ? " class=\"kw\"" : "",
			  column_warning_count(m->cols[c]));
	rbuf_add(b, "</tr>\n");
}

/* Each column's kernel warnings: when, taint, the cases running, the line. */
static void kernel_warnings(const struct matrix *m, struct rbuf *b)
{
	if (!report_kwarn_total(m))
		return;
	rbuf_add(b, "<h2 id=\"kernel-warnings\">Kernel warnings</h2>\n<p>Kernel log lines of a "
		 "WARN, BUG, Oops or lockdep report and taint flags that appeared, with the "
		 "cases running then (marked <span class=\"kwm\">\xe2\x9a\xa0</span> in the "
		 "table).</p>\n<table id=\"kwarn\">\n<thead><tr><th>kernel</th><th>kernel time s"
		 "</th><th>taint</th><th>cases</th><th>warning</th></tr></thead>\n<tbody>\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		for (size_t i = 0; i < k->nkw; i++) {
			const struct kwarn *w = &k->kw[i];
			struct rbuf t = {0};
			report_col_title(k, &t);
			rbuf_add(b, "<tr><td>");
			rbuf_html(b, rbuf_str(&t));
			rbuf_free(&t);
			if (w->ktime >= 0)
				rbuf_addf(b, "</td><td>%.6f</td>", w->ktime);
			else
				rbuf_add(b, "</td><td>-</td>");
			rbuf_addf(b, "<td>%lu</td><td>", w->taint);
			report_kwarn_cases(w, &t);
			rbuf_html(b, rbuf_str(&t));
			rbuf_add(b, "</td><td class=\"kw\"><code>");
			rbuf_html(b, w->text);
			rbuf_add(b, "</code></td></tr>\n");
			rbuf_free(&t);
		}
	}
	rbuf_add(b, "</tbody>\n</table>\n");
}

static void consoles(const struct matrix *m, struct rbuf *b)
{
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
}

void report_html(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		 "<title>ttypot matrix</title><style>");
	rbuf_add(b, css);
	rbuf_add(b, "</style></head><body>\n<h1>ttypot matrix</h1>\n<p>");
	rbuf_addf(b, "%zu kernels, %zu cases, baseline <b>", m->ncols, m->rows.n);
	rbuf_html(b, m->ncols ? m->cols[m->base]->label : "-");
	rbuf_addf(b, "</b>, %ld regression%s", m->regressions, m->regressions == 1 ? "" : "s");
	size_t nkw = report_kwarn_total(m);
	if (nkw)
		rbuf_addf(b, ", <a class=\"kw\" href=\"#kernel-warnings\"><b>%zu kernel warning%s</b></a>",
			  nkw, nkw == 1 ? "" : "s");
	rbuf_add(b, ". <span id=\"shown\"></span></p>\n");
	overview(m, b);
	filters(m, b);
	rbuf_add(b, "<table id=\"m\">\n<thead><tr><th>case</th>");
	for (size_t c = 0; c < m->ncols; c++)
		col_header(m, c, b);
	rbuf_add(b, "</tr></thead>\n<tbody>\n");
	char area[128];
	for (size_t r = 0, end; r < m->rows.n; r = end) {
		area_of(m, r, area, sizeof area, &end);
		/* An area with no differing row is hidden by the filter too. */
		bool differs = false;
		for (size_t q = r; q < end && !differs; q++)
			differs = matrix_row_differs(m, q);
		rbuf_addf(b, "<tr class=\"area%s\" id=\"area-", differs ? "" : " same");
		rbuf_html(b, area);
		rbuf_addf(b, "\"><th colspan=\"%zu\">", m->ncols + 1);
		rbuf_html(b, area);
		rbuf_add(b, "</th></tr>\n");
		for (size_t q = r; q < end; q++)
			case_row(m, q, b);
	}
	rbuf_add(b, "</tbody>\n<tfoot>\n");
	summary_rows(m, b);
	rbuf_add(b, "</tfoot>\n</table>\n");
	kernel_warnings(m, b);
	consoles(m, b);
	rbuf_add(b, "<script>");
	rbuf_add(b, js);
	rbuf_add(b, "</script>\n</body></html>\n");
}
