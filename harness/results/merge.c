/* merge.c: matrix.json -> columns. */
#include "merge.h"
#include "jsonv.h"
#include "rbuf.h"
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const struct jv *o, const char *key)
{
	snprintf(dst, n, "%s", jv_str(o, key, ""));
}

static struct column *load_column(const struct jv *o)
{
	struct column *c = col_new(jv_str(o, "label", ""));
	copy(c->spec, sizeof c->spec, o, "spec");
	copy(c->uname, sizeof c->uname, o, "uname");
	copy(c->version, sizeof c->version, o, "version");
	copy(c->config_hash, sizeof c->config_hash, o, "config_hash");
	copy(c->arch, sizeof c->arch, o, "arch");
	copy(c->accel, sizeof c->accel, o, "accel");
	c->boot_s = jv_num(o, "boot_s", 0);
	c->suite_s = jv_num(o, "suite_s", 0);
	int e = end_parse(jv_str(o, "end", "done"));
	c->end = e < 0 ? END_ERROR : (enum col_end)e;
	col_set_error(c, jv_str(o, "error", ""));
	col_set_console(c, jv_str(o, "console_tail", ""));
	c->garbage = (long)jv_num(o, "garbage", 0);
	c->duplicates = (long)jv_num(o, "duplicates", 0);
	c->truncated = (long)jv_num(o, "truncated", 0);
	c->begin_cases = (long)jv_num(o, "begin_cases", -1);
	c->kyua_rc = (long)jv_num(o, "kyua_rc", -1);
	c->begin_seen = c->end_seen = 1;
	const struct jv *f = jv_get(o, "features");
	for (size_t i = 0; f && f->t == JV_OBJ && i < f->n; i++)
		if (f->items[i].t == JV_STR)
			col_set_feature(c, f->keys[i], f->items[i].str);
	return c;
}

int merge_load_json(struct matrix *m, const char *path, char *baseline,
		    size_t baselen, char *err, size_t errlen)
{
	char msg[512];
	size_t len;
	char *text = read_file(path, &len, msg, sizeof msg);
	if (!text) {
		snprintf(err, errlen, "%s", msg);
		return -1;
	}
	struct jv *doc = jv_parse(text, len, msg, sizeof msg);
	free(text);
	if (!doc) {
		snprintf(err, errlen, "%s: not valid JSON: %s", path, msg);
		return -1;
	}
	struct column **cols = NULL;
	size_t ncols = 0;
	int rc = -1;
	const struct jv *jc = jv_get(doc, "columns"), *jr = jv_get(doc, "cases");
	if (strcmp(jv_str(doc, "schema", ""), MATRIX_SCHEMA) != 0) {
		snprintf(err, errlen, "%s: not a %s file (\"schema\" is \"%s\")", path,
			 MATRIX_SCHEMA, jv_str(doc, "schema", ""));
		goto out;
	}
	if (!jc || jc->t != JV_ARR || !jr || jr->t != JV_ARR) {
		snprintf(err, errlen, "%s: \"columns\" and \"cases\" must be arrays", path);
		goto out;
	}
	cols = xrealloc(NULL, (jc->n + 1) * sizeof *cols);
	for (size_t i = 0; i < jc->n; i++) {
		if (jc->items[i].t != JV_OBJ || !jv_str(&jc->items[i], "label", "")[0]) {
			snprintf(err, errlen, "%s: column %zu has no label", path, i + 1);
			goto out;
		}
		cols[ncols++] = load_column(&jc->items[i]);
	}
	for (size_t r = 0; r < jr->n; r++) {
		const struct jv *row = &jr->items[r];
		const char *id = jv_str(row, "id", "");
		const struct jv *cells = jv_get(row, "cells");
		if (!id[0] || !cells || cells->t != JV_OBJ) {
			snprintf(err, errlen, "%s: case %zu needs \"id\" and \"cells\"", path, r + 1);
			goto out;
		}
		for (size_t k = 0; k < cells->n; k++) {
			const struct jv *cell = &cells->items[k];
			struct column *c = NULL;
			for (size_t i = 0; i < ncols && !c; i++)
				if (strcmp(cols[i]->label, cells->keys[k]) == 0)
					c = cols[i];
			int st = status_parse(jv_str(cell, "status", ""));
			int raw = status_parse(jv_str(cell, "raw", jv_str(cell, "status", "")));
			if (!c || st < 0 || raw < 0) {
				snprintf(err, errlen, "%s: case %s: bad cell for \"%s\"", path, id,
					 cells->keys[k]);
				goto out;
			}
			struct case_result *x = col_put(c, id, (enum status)raw,
							jv_num(cell, "seconds", 0),
							jv_str(cell, "reason", ""));
			x->st = (enum status)st;
			free(x->expect);
			x->expect = xstrdup(jv_str(cell, "expect", ""));
		}
	}
	if (baseline)
		snprintf(baseline, baselen, "%s", jv_str(doc, "baseline", ""));
	for (size_t i = 0; i < ncols; i++) {
		char was[128];
		snprintf(was, sizeof was, "%s", cols[i]->label);
		if (matrix_add(m, cols[i]))
			fprintf(stderr, "ttypot: %s: label '%s' already taken, renamed '%s'\n",
				path, was, cols[i]->label);
		cols[i] = NULL;
	}
	rc = 0;
out:
	for (size_t i = 0; i < ncols; i++)
		col_free(cols[i]);
	free(cols);
	jv_free(doc);
	return rc;
}
