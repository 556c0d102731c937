// SPDX-License-Identifier: GPL-2.0-only
/* mstate.c: the resumable state of a generated-mutant run (mstate.h). */
#include "mstate.h"
#include "rbuf.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSTATE_SCHEMA "ttypot-mutation-state/1"
#define MSTATE_FILE "mutation-state.json"

int mstate_save(const char *dir, const struct mstate_params *p, const struct gmut *v,
		size_t n, const unsigned char *pick, char *err, size_t errlen)
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		if (!pick[i])
			continue;
		const struct mutant *m = &v[i].m;
		json_t *e = json_pack("{s:s, s:I, s:s, s:s, s:s, s:f}",
			"key", m->key, "id", (json_int_t)m->id,
			"status", mut_status_name(m->status), "reason", m->reason,
			"covered_by", m->covered_by, "secs", m->secs);
		if (m->earlier[0])
			json_object_set_new(e, "earlier", json_string(m->earlier));
		json_array_append_new(list, e);
	}
	json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:f, s:o}",
			      "schema", MSTATE_SCHEMA, "source", p->source, "rules", p->rules,
			      "seed", (json_int_t)p->seed, "sample", (json_int_t)p->sample,
			      "generated", (json_int_t)p->generated, "wall_s", p->wall_s,
			      "mutants", list);
	/* the report's header figures, so that a render-only resume keeps them */
	json_object_set_new(o, "build_s", json_real(p->build_s));
	json_object_set_new(o, "baseline_s", json_real(p->baseline_s));
	char *text = json_dumps(o, JSON_INDENT(1));
	json_decref(o);
	struct rbuf b = {0};
	rbuf_add(&b, text);
	rbuf_add(&b, "\n");
	free(text);
	int rc = write_file(dir, MSTATE_FILE, &b, err, errlen);
	rbuf_free(&b);
	return rc;
}

int mstate_load(const char *dir, struct mstate_params *p, struct gmut *v, size_t n,
		unsigned char *pick, char *err, size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, MSTATE_FILE);
	json_error_t je;
	json_t *o = json_load_file(path, 0, &je);
	if (!o) {
		snprintf(err, errlen, "%s: %s (line %d)", path, je.text, je.line);
		return -1;
	}
	const char *schema = json_string_value(json_object_get(o, "schema"));
	json_t *list = json_object_get(o, "mutants");
	int rc = 0;
	if (!schema || strcmp(schema, MSTATE_SCHEMA) || !json_is_array(list)) {
		snprintf(err, errlen, "%s: not a %s file", path, MSTATE_SCHEMA);
		json_decref(o);
		return -1;
	}
	snprintf(p->source, sizeof p->source, "%s",
		 json_string_value(json_object_get(o, "source")) ?: "");
	snprintf(p->rules, sizeof p->rules, "%s",
		 json_string_value(json_object_get(o, "rules")) ?: "");
	p->seed = (unsigned long long)json_integer_value(json_object_get(o, "seed"));
	p->sample = (size_t)json_integer_value(json_object_get(o, "sample"));
	p->generated = (size_t)json_integer_value(json_object_get(o, "generated"));
	p->wall_s = json_number_value(json_object_get(o, "wall_s"));
	/* absent in states written before 2026-12-07: 0, no figure */
	p->build_s = json_number_value(json_object_get(o, "build_s"));
	p->baseline_s = json_number_value(json_object_get(o, "baseline_s"));
	memset(pick, 0, n);
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		const char *key = json_string_value(json_object_get(e, "key"));
		const char *st = json_string_value(json_object_get(e, "status"));
		size_t k = 0;
		while (key && k < n && strcmp(v[k].m.key, key))
			k++;
		int s = st ? mut_status_parse(st) : -1;
		if (!key || k == n || s < 0) {
			snprintf(err, errlen, "%s: mutant %zu (%s): %s", path, i, key ? key : "?",
				 k == n ? "not among the generated mutants (another source or "
				 "rules?)" : "bad entry");
			rc = -1;
			break;
		}
		struct mutant *m = &v[k].m;
		pick[k] = 1;
		m->status = (enum mut_status)s;
		snprintf(m->reason, sizeof m->reason, "%s",
			 json_string_value(json_object_get(e, "reason")) ?: "");
		snprintf(m->covered_by, sizeof m->covered_by, "%s",
			 json_string_value(json_object_get(e, "covered_by")) ?: "");
		m->secs = json_number_value(json_object_get(e, "secs"));
		snprintf(m->earlier, sizeof m->earlier, "%s",
			 json_string_value(json_object_get(e, "earlier")) ?: "");
	}
	json_decref(o);
	return rc;
}
