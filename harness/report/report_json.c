/* report_json.c: matrix.json, schema "ttypot-matrix/1" (reports/README.md). */
#include "report.h"

#include <string.h>

static void kv_str(struct rbuf *b, const char *k, const char *v, bool comma)
{
	rbuf_json(b, k);
	rbuf_add(b, ": ");
	rbuf_json(b, v);
	if (comma)
		rbuf_add(b, ", ");
}

static void column_json(const struct matrix *m, size_t ci, struct rbuf *b)
{
	const struct column *c = m->cols[ci];
	const struct col_summary *s = &m->sum[ci];
	rbuf_add(b, "    {");
	kv_str(b, "label", c->label, true);
	kv_str(b, "spec", c->spec, true);
	kv_str(b, "uname", c->uname, true);
	kv_str(b, "version", c->version, true);
	kv_str(b, "config_hash", c->config_hash, true);
	kv_str(b, "arch", c->arch, true);
	kv_str(b, "accel", c->accel, true);
	rbuf_add(b, "\"boot_s\": ");
	rbuf_json_num(b, c->boot_s);
	rbuf_add(b, ", \"suite_s\": ");
	rbuf_json_num(b, c->suite_s);
	rbuf_add(b, ",\n     ");
	kv_str(b, "end", end_name(c->end), true);
	kv_str(b, "error", c->error, true);
	rbuf_addf(b, "\"garbage\": %ld, \"duplicates\": %ld, \"truncated\": %ld, "
		  "\"begin_cases\": %ld, \"kyua_rc\": %ld,\n     ",
		  c->garbage, c->duplicates, c->truncated, c->begin_cases, c->kyua_rc);
	rbuf_add(b, "\"features\": {");
	for (size_t i = 0; i < c->nfeat; i++)
		kv_str(b, c->feat[i].key, c->feat[i].value, i + 1 < c->nfeat);
	rbuf_add(b, "},\n     \"summary\": {");
	for (int st = 0; st < ST__N; st++)
		rbuf_addf(b, "\"%s\": %ld, ", status_name((enum status)st), s->count[st]);
	rbuf_addf(b, "\"total\": %ld, \"regression\": %ld, \"fix\": %ld, \"new\": %ld},\n     ",
		  s->total, s->regressions, s->fixes, s->news);
	kv_str(b, "console_tail", c->console_tail, false);
	rbuf_add(b, "}");
}

void report_json(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "{\n  \"schema\": \"" MATRIX_SCHEMA "\",\n  \"baseline\": ");
	rbuf_json(b, m->ncols ? m->cols[m->base]->label : "");
	rbuf_addf(b, ",\n  \"regressions\": %ld,\n  \"columns\": [\n", m->regressions);
	for (size_t c = 0; c < m->ncols; c++) {
		column_json(m, c, b);
		rbuf_add(b, c + 1 < m->ncols ? ",\n" : "\n");
	}
	rbuf_add(b, "  ],\n  \"cases\": [\n");
	for (size_t r = 0; r < m->rows.n; r++) {
		char area[128];
		case_area(m->rows.v[r], area, sizeof area);
		rbuf_add(b, "    {");
		kv_str(b, "id", m->rows.v[r], true);
		kv_str(b, "area", area, true);
		rbuf_add(b, "\"cells\": {");
		bool first = true;
		for (size_t c = 0; c < m->ncols; c++) {
			const struct case_result *x = matrix_cell(m, r, c);
			if (!x)
				continue;
			rbuf_add(b, first ? "\n      " : ",\n      ");
			first = false;
			rbuf_json(b, m->cols[c]->label);
			rbuf_add(b, ": {");
			kv_str(b, "status", status_name(x->st), true);
			kv_str(b, "raw", status_name(x->raw), true);
			rbuf_add(b, "\"seconds\": ");
			rbuf_json_num(b, x->secs);
			rbuf_add(b, ", ");
			kv_str(b, "reason", x->reason, true);
			kv_str(b, "expect", x->expect, true);
			kv_str(b, "mark", mark_name(matrix_mark(m, r, c)), false);
			rbuf_add(b, "}");
		}
		rbuf_add(b, "}}");
		rbuf_add(b, r + 1 < m->rows.n ? ",\n" : "\n");
	}
	rbuf_add(b, "  ]\n}\n");
}
