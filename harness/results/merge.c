// SPDX-License-Identifier: GPL-2.0-only
/* merge.c: matrix.json -> columns (read with jansson). */
#include "merge.h"
#include "rbuf.h"
#include "matrix.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *merge_str(const json_t *o, const char *key, const char *dflt)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : dflt;
}

double merge_num(const json_t *o, const char *key, double dflt)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

json_t *merge_parse(const char *text, size_t len, json_error_t *je)
{
	/* Strict: one object, no duplicate keys, nothing after it. */
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, je);
	if (doc && !json_is_object(doc)) {
		snprintf(je->text, sizeof je->text, "not a JSON object");
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static void copy(char *dst, size_t n, const json_t *o, const char *key)
{
	snprintf(dst, n, "%s", merge_str(o, key, ""));
}

/* Taint flags as written (an integer); anything else is 0. */
static unsigned long merge_flags(const json_t *o, const char *key, unsigned long dflt)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return dflt;
	return json_is_integer(v) && json_integer_value(v) >= 0
	       ? (unsigned long)json_integer_value(v) : 0;
}

/* A time of a kernel warning: null (unknown, or at boot) is -1. */
static double merge_time(const json_t *o, const char *key)
{
	return merge_num(o, key, -1);
}

static void load_kwarn(struct column *c, const json_t *o)
{
	json_t *km = json_object_get(o, "kmsg"), *w;
	size_t i;
	if (json_is_object(km)) {
		const char *mode = merge_str(km, "mode", "");
		snprintf(c->kmsg_mode, sizeof c->kmsg_mode, "%s", mode);
		free(c->kmsg_note);
		c->kmsg_note = utf8_clean(merge_str(km, "note", ""),
					  strlen(merge_str(km, "note", "")));
		json_t *ts = json_object_get(km, "taint_start");
		c->taint_start = json_is_integer(ts) && json_integer_value(ts) >= 0
				 ? (long long)json_integer_value(ts) : -1;
	}
	json_array_foreach(json_object_get(o, "kernel_warnings"), i, w) {
		if (!json_is_object(w))
			continue;
		unsigned long taint = merge_flags(w, "taint", 0),
			      old = merge_flags(w, "taint_old", taint);
		struct kwarn *k = col_add_kwarn(c, strcmp(merge_str(w, "kind", ""), "taint") == 0
						   ? KW_TAINT : KW_KMSG,
						merge_str(w, "text", ""), merge_time(w, "ktime"),
						merge_time(w, "from"), merge_time(w, "to"),
						taint, old, NULL);
		/* the cases saved, not a new attribution (no spans here) */
		idlist_free(&k->cases);
		size_t j;
		json_t *id;
		json_array_foreach(json_object_get(w, "cases"), j, id)
			if (json_is_string(id))
				kwarn_attribute(k, json_string_value(id));
	}
}

static struct column *load_column(const json_t *o)
{
	struct column *c = col_new(merge_str(o, "label", ""));
	copy(c->spec, sizeof c->spec, o, "spec");
	copy(c->uname, sizeof c->uname, o, "uname");
	copy(c->version, sizeof c->version, o, "version");
	copy(c->config_hash, sizeof c->config_hash, o, "config_hash");
	col_set_arch(c, merge_str(o, "arch", ""), merge_str(o, "abi", ""));
	copy(c->accel, sizeof c->accel, o, "accel");
	copy(c->cached, sizeof c->cached, o, "cached");
	c->resolve_s = merge_num(o, "resolve_s", 0);
	c->boot_s = merge_num(o, "boot_s", 0);
	c->suite_s = merge_num(o, "suite_s", 0);
	int e = end_parse(merge_str(o, "end", "done"));
	c->end = e < 0 ? END_ERROR : (enum col_end)e;
	col_set_error(c, merge_str(o, "error", ""));
	col_set_console(c, merge_str(o, "console_tail", ""));
	c->garbage = (long)merge_num(o, "garbage", 0);
	c->duplicates = (long)merge_num(o, "duplicates", 0);
	c->truncated = (long)merge_num(o, "truncated", 0);
	c->begin_cases = (long)merge_num(o, "begin_cases", -1);
	c->kyua_rc = (long)merge_num(o, "kyua_rc", -1);
	c->begin_seen = c->end_seen = 1;
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(o, "features"), key, v)
		if (json_is_string(v))
			col_set_feature(c, key, json_string_value(v));
	load_kwarn(c, o);
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
	int rc = merge_load_text(m, text, len, path, baseline, baselen, err, errlen);
	free(text);
	return rc;
}

int merge_load_text(struct matrix *m, const char *text, size_t len, const char *path,
		    char *baseline, size_t baselen, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = merge_parse(text, len, &je);
	if (!doc) {
		snprintf(err, errlen, "%s: not valid JSON: line %d col %d: %s", path, je.line,
			 je.column, je.text);
		return -1;
	}
	struct column **cols = NULL;
	size_t ncols = 0;
	struct metalist meta = {0};
	int rc = -1;
	json_t *jc = json_object_get(doc, "columns"), *jr = json_object_get(doc, "cases");
	if (strcmp(merge_str(doc, "schema", ""), MATRIX_SCHEMA) != 0) {
		snprintf(err, errlen, "%s: not a %s file (\"schema\" is \"%s\")", path,
			 MATRIX_SCHEMA, merge_str(doc, "schema", ""));
		goto out;
	}
	if (!json_is_array(jc) || !json_is_array(jr)) {
		snprintf(err, errlen, "%s: \"columns\" and \"cases\" must be arrays", path);
		goto out;
	}
	cols = xrealloc(NULL, (json_array_size(jc) + 1) * sizeof *cols);
	size_t i, r;
	json_t *col, *row;
	json_array_foreach(jc, i, col) {
		if (!json_is_object(col) || !merge_str(col, "label", "")[0]) {
			snprintf(err, errlen, "%s: column %zu has no label", path, i + 1);
			goto out;
		}
		cols[ncols++] = load_column(col);
	}
	json_array_foreach(jr, r, row) {
		const char *id = merge_str(row, "id", "");
		json_t *cells = json_object_get(row, "cells"), *cell;
		const char *label;
		if (!id[0] || !json_is_object(cells)) {
			snprintf(err, errlen, "%s: case %zu needs \"id\" and \"cells\"", path, r + 1);
			goto out;
		}
		const char *descr = merge_str(row, "descr", NULL), *commits = merge_str(row, "commits", NULL);
		if (descr || commits)
			metalist_put(&meta, id, descr, commits);
		json_object_foreach(cells, label, cell) {
			struct column *c = NULL;
			for (size_t k = 0; k < ncols && !c; k++)
				if (strcmp(cols[k]->label, label) == 0)
					c = cols[k];
			int st = status_parse(merge_str(cell, "status", ""));
			int raw = status_parse(merge_str(cell, "raw", merge_str(cell, "status", "")));
			if (!c || st < 0 || raw < 0) {
				snprintf(err, errlen, "%s: case %s: bad cell for \"%s\"", path, id,
					 label);
				goto out;
			}
			struct case_result *x = col_put(c, id, (enum status)raw,
							merge_num(cell, "seconds", 0),
							merge_str(cell, "reason", ""));
			x->st = (enum status)st;
			free(x->expect);
			x->expect = xstrdup(merge_str(cell, "expect", ""));
		}
	}
	if (baseline)
		snprintf(baseline, baselen, "%s", merge_str(doc, "baseline", ""));
	for (i = 0; i < ncols; i++) {
		char was[128];
		snprintf(was, sizeof was, "%s", cols[i]->label);
		if (matrix_add(m, cols[i])) {
			char aa[40];
			col_arch_abi(cols[i], aa, sizeof aa);
			fprintf(stderr, "ttypot: %s: label '%s'%s%s already taken, renamed '%s'\n",
				path, was, aa[0] ? " on " : "", aa, cols[i]->label);
		}
		cols[i] = NULL;
	}
	/* The first file that describes a case wins. */
	for (i = 0; i < meta.n; i++)
		if (!metalist_find(&m->meta, meta.v[i].id))
			metalist_put(&m->meta, meta.v[i].id, meta.v[i].descr, meta.v[i].commits);
	rc = 0;
out:
	for (size_t i = 0; i < ncols; i++)
		col_free(cols[i]);
	free(cols);
	metalist_free(&meta);
	json_decref(doc);
	return rc;
}
