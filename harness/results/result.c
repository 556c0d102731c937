// SPDX-License-Identifier: GPL-2.0-only
/* result.c: the per-kernel column model. */
#include "result.h"
#include "kernel.h"
#include "rbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const st_names[ST__N] = {
	"pass", "fail", "skip", "xfail", "broken", "timeout", "panic", "missing",
};
static const char *const end_names[END__N] = {
	"done", "panic", "timeout", "silent", "error",
};

const char *status_name(enum status s)
{
	return (unsigned)s < ST__N ? st_names[s] : "?";
}

int status_parse(const char *name)
{
	for (int i = 0; i < ST__N; i++)
		if (strcmp(name, st_names[i]) == 0)
			return i;
	return -1;
}

bool status_bad(enum status s)
{
	return s == ST_FAIL || s == ST_BROKEN || s == ST_TIMEOUT ||
	       s == ST_PANIC || s == ST_MISSING;
}

const char *end_name(enum col_end e)
{
	return (unsigned)e < END__N ? end_names[e] : "?";
}

int end_parse(const char *name)
{
	for (int i = 0; i < END__N; i++)
		if (strcmp(name, end_names[i]) == 0)
			return i;
	return -1;
}

struct column *col_new(const char *label)
{
	struct column *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	snprintf(c->label, sizeof c->label, "%s", label ? label : "");
	c->error = xstrdup("");
	c->console_tail = xstrdup("");
	c->begin_cases = -1;
	c->kyua_rc = -1;
	c->end = END_DONE;
	c->kmsg_note = xstrdup("");
	c->taint_start = -1;
	return c;
}

void col_free(struct column *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ncases; i++) {
		free(c->cases[i].id);
		free(c->cases[i].reason);
		free(c->cases[i].expect);
	}
	for (size_t i = 0; i < c->nfeat; i++) {
		free(c->feat[i].key);
		free(c->feat[i].value);
	}
	free(c->feat);
	free(c->cases);
	for (size_t i = 0; i < c->nkw; i++) {
		free(c->kw[i].text);
		idlist_free(&c->kw[i].cases);
		idlist_free(&c->kw[i].running);
	}
	free(c->kw);
	free(c->kmsg_note);
	free(c->error);
	free(c->console_tail);
	free(c);
}

void col_set_error(struct column *c, const char *msg)
{
	free(c->error);
	c->error = utf8_clean(msg ? msg : "", msg ? strlen(msg) : 0);
}

void col_set_console(struct column *c, const char *tail)
{
	free(c->console_tail);
	c->console_tail = utf8_clean(tail ? tail : "", tail ? strlen(tail) : 0);
}

struct case_result *col_find(const struct column *c, const char *id)
{
	for (size_t i = 0; i < c->ncases; i++)
		if (strcmp(c->cases[i].id, id) == 0)
			return &c->cases[i];
	return NULL;
}

struct case_result *col_put(struct column *c, const char *id, enum status st,
			    double secs, const char *reason)
{
	struct case_result *r = col_find(c, id);
	if (r) {
		free(r->reason);
		free(r->expect);
	} else {
		if (c->ncases == c->capcases) {
			c->capcases = c->capcases ? c->capcases * 2 : 64;
			c->cases = xrealloc(c->cases, c->capcases * sizeof *c->cases);
		}
		r = &c->cases[c->ncases++];
		r->id = xstrdup(id);
	}
	r->st = r->raw = st;
	r->secs = secs;
	r->reason = xstrdup(reason);
	r->expect = xstrdup("");
	r->t_end = r->t_start = -1;
	return r;
}

const char *col_feature(const struct column *c, const char *key)
{
	for (size_t i = 0; i < c->nfeat; i++)
		if (strcmp(c->feat[i].key, key) == 0)
			return c->feat[i].value;
	return NULL;
}

void col_set_feature(struct column *c, const char *key, const char *value)
{
	for (size_t i = 0; i < c->nfeat; i++)
		if (strcmp(c->feat[i].key, key) == 0) {
			free(c->feat[i].value);
			c->feat[i].value = xstrdup(value);
			return;
		}
	c->feat = xrealloc(c->feat, (c->nfeat + 1) * sizeof *c->feat);
	c->feat[c->nfeat].key = xstrdup(key);
	c->feat[c->nfeat].value = xstrdup(value);
	c->nfeat++;
}

void metalist_put(struct metalist *l, const char *id, const char *descr,
		  const char *commits)
{
	struct case_meta *m = (struct case_meta *)metalist_find(l, id);
	if (!m) {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 64;
			l->v = xrealloc(l->v, l->cap * sizeof *l->v);
		}
		m = &l->v[l->n++];
		*m = (struct case_meta){ xstrdup(id), xstrdup(""), xstrdup("") };
	}
	if (descr) {
		free(m->descr);
		m->descr = xstrdup(descr);
	}
	if (commits) {
		free(m->commits);
		m->commits = xstrdup(commits);
	}
}

const struct case_meta *metalist_find(const struct metalist *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, id) == 0)
			return &l->v[i];
	return NULL;
}

void metalist_free(struct metalist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].descr);
		free(l->v[i].commits);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

void idlist_add(struct idlist *l, const char *id)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = xstrdup(id);
}

void idlist_free(struct idlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void case_area(const char *id, char *out, size_t outlen)
{
	size_t n = strcspn(id, "/:");
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, id, n);
	out[n] = '\0';
}

/* One filter word w (length n) selects id when id equals it or continues it
 * at a ':' or '/' boundary. */
static bool word_selects(const char *w, size_t n, const char *id)
{
	if (strncmp(id, w, n) != 0)
		return false;
	return id[n] == '\0' || id[n] == ':' || id[n] == '/' ||
	       (n > 0 && (w[n - 1] == '/' || w[n - 1] == ':'));
}

bool case_selected(const char *filter, const char *id)
{
	if (!filter || !*filter)
		return true;
	bool any = false;
	for (const char *p = filter; *p;) {
		p += strspn(p, ", ");
		size_t n = strcspn(p, ", ");
		if (!n)
			break;
		any = true;
		const char *w = p;
		size_t wn = n;
		if (wn > 6 && strncmp(w, "cases/", 6) == 0) {
			w += 6;
			wn -= 6;
		}
		if (word_selects(w, wn, id))
			return true;
		p += n;
	}
	return !any;
}

void col_set_arch(struct column *c, const char *arch, const char *abi)
{
	if (arch) {
		const char *canon = karch_canon(arch);
		snprintf(c->arch, sizeof c->arch, "%s", canon ? canon : arch);
	}
	if (abi)
		snprintf(c->abi, sizeof c->abi, "%s", abi);
}

void col_arch_abi(const struct column *c, char *out, size_t outlen)
{
	if (!c->arch[0])
		snprintf(out, outlen, "%s", "");
	else
		snprintf(out, outlen, "%s%s%s", c->arch, c->abi[0] ? "-" : "", c->abi);
}

void col_label_for(const struct column *c, const char *resolved, char *out,
		   size_t outlen)
{
	char got[128], aa[40], tail[48];
	snprintf(got, sizeof got, "%.127s", resolved);
	col_arch_abi(c, aa, sizeof aa);
	snprintf(tail, sizeof tail, " [%s]", aa);
	size_t gl = strlen(got), tl = strlen(tail);
	if (aa[0] && gl > tl && strcmp(got + gl - tl, tail) == 0)
		got[gl - tl] = '\0';
	if (c->abi[0] && !strstr(got, c->abi))
		snprintf(out, outlen, "%.100s+%.20s", got, c->abi);
	else
		snprintf(out, outlen, "%s", got);
}
