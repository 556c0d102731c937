// SPDX-License-Identifier: GPL-2.0-only
/* report_json.c: matrix.json, schema "ttypot-matrix/1" (reports/README.md),
 * built with jansson. */
#include "report.h"

/* One kernel warning: times are null when unknown or at boot. */
static json_t *kwarn_json(const struct kwarn *w)
{
	json_t *cases = json_array();
	for (size_t i = 0; i < w->cases.n; i++)
		json_array_append_new(cases, report_jstr(w->cases.v[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:I, s:I, s:o}",
			 "kind", w->kind == KW_TAINT ? "taint" : "kmsg",
			 "text", report_jstr(w->text),
			 "ktime", w->ktime < 0 ? json_null() : report_jnum(w->ktime),
			 "from", w->from < 0 ? json_null() : report_jnum(w->from),
			 "to", w->to < 0 ? json_null() : report_jnum(w->to),
			 "taint", (json_int_t)w->taint, "taint_old", (json_int_t)w->taint_old,
			 "cases", cases);
}

static json_t *column_json(const struct matrix *m, size_t ci)
{
	const struct column *c = m->cols[ci];
	const struct col_summary *s = &m->sum[ci];
	json_t *features = json_object();
	for (size_t i = 0; i < c->nfeat; i++)
		json_object_set_new(features, c->feat[i].key, report_jstr(c->feat[i].value));
	json_t *summary = json_object();
	for (int st = 0; st < ST__N; st++)
		json_object_set_new(summary, status_name((enum status)st),
				    json_integer(s->count[st]));
	json_object_set_new(summary, "total", json_integer(s->total));
	json_object_set_new(summary, "regression", json_integer(s->regressions));
	json_object_set_new(summary, "fix", json_integer(s->fixes));
	json_object_set_new(summary, "new", json_integer(s->news));
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o,"
			 " s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "label", report_jstr(c->label), "spec", report_jstr(c->spec),
			 "uname", report_jstr(c->uname), "version", report_jstr(c->version),
			 "config_hash", report_jstr(c->config_hash), "arch", report_jstr(c->arch),
			 "accel", report_jstr(c->accel), "resolve_s", report_jnum(c->resolve_s),
			 "boot_s", report_jnum(c->boot_s),
			 "suite_s", report_jnum(c->suite_s), "end", end_name(c->end),
			 "error", report_jstr(c->error),
			 "garbage", (json_int_t)c->garbage, "duplicates", (json_int_t)c->duplicates,
			 "truncated", (json_int_t)c->truncated,
			 "begin_cases", (json_int_t)c->begin_cases, "kyua_rc", (json_int_t)c->kyua_rc,
			 "features", features, "summary", summary,
			 "console_tail", report_jstr(c->console_tail));
	/* Optional (added within /1): the userland ABI when not native. */
	if (c->abi[0])
		json_object_set_new(o, "abi", report_jstr(c->abi));
	/* Optional (added within /1): how the kernel log was watched and the
	 * kernel warnings (log lines, new taint flags) with their cases. */
	if (c->kmsg_mode[0] || c->nkw) {
		json_object_set_new(o, "kmsg", json_pack("{s:o, s:o, s:I}",
			"mode", report_jstr(c->kmsg_mode), "note", report_jstr(c->kmsg_note),
			"taint_start", (json_int_t)c->taint_start));
		json_t *kw = json_array();
		for (size_t i = 0; i < c->nkw; i++)
			json_array_append_new(kw, kwarn_json(&c->kw[i]));
		json_object_set_new(o, "kernel_warnings", kw);
	}
	json_object_set_new(summary, "kernel_warnings",
			    json_integer((json_int_t)column_warning_count(c)));
	/* Optional (added within /1): a column read from the result cache. */
	if (c->cached[0])
		json_object_set_new(o, "cached", report_jstr(c->cached));
	return o;
}

static json_t *case_json(const struct matrix *m, size_t r)
{
	char area[128];
	case_area(m->rows.v[r], area, sizeof area);
	json_t *cells = json_object();
	for (size_t c = 0; c < m->ncols; c++) {
		const struct case_result *x = matrix_cell(m, r, c);
		if (!x)
			continue;
		json_object_set_new(cells, m->cols[c]->label,
			json_pack("{s:s, s:s, s:o, s:o, s:o, s:s}",
				  "status", status_name(x->st), "raw", status_name(x->raw),
				  "seconds", report_jnum(x->secs), "reason", report_jstr(x->reason),
				  "expect", report_jstr(x->expect),
				  "mark", mark_name(matrix_mark(m, r, c))));
		/* Optional: kernel warnings attributed to this case. */
		size_t nk = column_case_warnings(m->cols[c], m->rows.v[r]);
		if (nk)
			json_object_set_new(json_object_get(cells, m->cols[c]->label), "kwarn",
					    json_integer((json_int_t)nk));
	}
	json_t *o = json_pack("{s:o, s:o, s:o}", "id", report_jstr(m->rows.v[r]),
			      "area", report_jstr(area), "cells", cells);
	/* Optional (added within /1): what the suite says about the case. */
	const struct case_meta *meta = metalist_find(&m->meta, m->rows.v[r]);
	if (meta && meta->descr[0])
		json_object_set_new(o, "descr", report_jstr(meta->descr));
	if (meta && meta->commits[0])
		json_object_set_new(o, "commits", report_jstr(meta->commits));
	return o;
}

void report_json(const struct matrix *m, struct rbuf *b)
{
	json_t *cols = json_array(), *cases = json_array();
	for (size_t c = 0; c < m->ncols; c++)
		json_array_append_new(cols, column_json(m, c));
	for (size_t r = 0; r < m->rows.n; r++)
		json_array_append_new(cases, case_json(m, r));
	report_jdump(json_pack("{s:s, s:o, s:I, s:o, s:o}", "schema", MATRIX_SCHEMA,
			       "baseline", report_jstr(m->ncols ? m->cols[m->base]->label : ""),
			       "regressions", (json_int_t)m->regressions,
			       "columns", cols, "cases", cases), b);
}
