// SPDX-License-Identifier: GPL-2.0-only
/* kwarn.c: kernel warnings of a column (result.h): log lines and new taint
 * flags, attributed to the cases running when they appeared. */
#include "result.h"
#include "rbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's taint flags (include/linux/panic.h, kernel/panic.c):
 * bit, letter, name; LTP's tst_taint knows the same list. */
static const struct { char letter; const char *name; } taint_flags[] = {
	{'P', "proprietary module"}, {'F', "forced module"}, {'S', "cpu out of spec"},
	{'R', "forced rmmod"}, {'M', "machine check"}, {'B', "bad page"},
	{'U', "user"}, {'D', "die"}, {'A', "overridden acpi table"},
	{'W', "warn"}, {'C', "staging"}, {'I', "firmware workaround"},
	{'O', "out-of-tree module"}, {'E', "unsigned module"}, {'L', "soft lockup"},
	{'K', "livepatch"}, {'X', "aux"}, {'T', "randstruct"}, {'N', "test"},
};

void taint_describe(unsigned long flags, char *out, size_t outlen)
{
	size_t o = 0;
	out[0] = '\0';
	for (unsigned b = 0; b < 8 * sizeof flags && o + 1 < outlen; b++) {
		if (!(flags & (1UL << b)))
			continue;
		int n;
		if (b < sizeof taint_flags / sizeof *taint_flags)
			n = snprintf(out + o, outlen - o, "%s%c (%s)", o ? ", " : "",
				     taint_flags[b].letter, taint_flags[b].name);
		else
			n = snprintf(out + o, outlen - o, "%sbit %u", o ? ", " : "", b);
		o = n < 0 ? o : o + (size_t)n >= outlen ? outlen - 1 : o + (size_t)n;
	}
}

void kwarn_attribute(struct kwarn *w, const char *id)
{
	if (!id || !*id)
		return;
	for (size_t i = 0; i < w->cases.n; i++)
		if (strcmp(w->cases.v[i], id) == 0)
			return;
	idlist_add(&w->cases, id);
}

static bool has(const struct idlist *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], id) == 0)
			return true;
	return false;
}

static void drop(struct idlist *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], id) == 0) {
			free(l->v[i]);
			memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
			l->n--;
			return;
		}
}

/* Did the case run while the warning appeared (result.h: the slacks)? */
static bool in_span(const struct kwarn *w, const struct case_result *r)
{
	if (w->to < 0 || r->t_end < 0)
		return false;
	double start = r->t_start >= 0 ? r->t_start
		     : r->t_end - (r->secs > 0 ? r->secs : 0) - KW_SEEN_SLACK_S;
	return start <= w->to && w->from - KW_READ_SLACK_S <= r->t_end;
}

struct kwarn *col_add_kwarn(struct column *c, enum kw_kind kind, const char *text,
			    double ktime, double from, double to, unsigned long taint,
			    unsigned long taint_old, const char *running)
{
	c->kw = xrealloc(c->kw, (c->nkw + 1) * sizeof *c->kw);
	struct kwarn *w = &c->kw[c->nkw++];
	memset(w, 0, sizeof *w);
	w->kind = kind;
	w->text = utf8_clean(text ? text : "", text ? strlen(text) : 0);
	w->ktime = ktime;
	w->from = from;
	w->to = to;
	w->taint = taint;
	w->taint_old = taint_old;
	if (to < 0) {
		kwarn_attribute(w, "boot");
		return w;
	}
	for (const char *p = running ? running : ""; *p;) {
		size_t n = strcspn(p, ",");
		char id[1024];
		if (n && n < sizeof id) {
			memcpy(id, p, n);
			id[n] = '\0';
			const char *ip = strncmp(id, "cases/", 6) == 0 ? id + 6 : id;
			if (!has(&w->running, ip))
				idlist_add(&w->running, ip);
			kwarn_attribute(w, ip);
		}
		p += n;
		p += *p == ',';
	}
	for (size_t i = 0; i < c->ncases; i++)
		if (in_span(w, &c->cases[i]))
			kwarn_attribute(w, c->cases[i].id);
	return w;
}

void col_kwarn_case_seen(struct column *c, const struct case_result *r)
{
	for (size_t i = 0; i < c->nkw; i++) {
		struct kwarn *w = &c->kw[i];
		if (w->to < 0)
			continue; /* the boot's */
		if (in_span(w, r) || has(&w->running, r->id))
			kwarn_attribute(w, r->id);
		else
			drop(&w->cases, r->id);
	}
}

size_t column_warning_count(const struct column *c)
{
	return c ? c->nkw : 0;
}

unsigned long column_new_taint(const struct column *c)
{
	unsigned long bits = 0;
	for (size_t i = 0; c && i < c->nkw; i++)
		if (c->kw[i].kind == KW_TAINT)
			bits |= c->kw[i].taint & ~c->kw[i].taint_old;
	return bits;
}

bool column_taint_appeared(const struct column *c)
{
	return column_new_taint(c) != 0;
}

size_t column_case_warnings(const struct column *c, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nkw; i++)
		for (size_t k = 0; k < c->kw[i].cases.n; k++)
			if (strcmp(c->kw[i].cases.v[k], id) == 0) {
				n++;
				break;
			}
	return n;
}
