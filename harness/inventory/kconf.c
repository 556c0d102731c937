// SPDX-License-Identifier: GPL-2.0-only
/* kconf.c: a .config and the kbuild Makefiles of a kernel source, read as
 * kbuild reads them, enough to say whether a source file is built: obj-y,
 * obj-m, lib-y and composite objects (NAME-y, NAME-objs), with $(CONFIG_X)
 * expanded, ifeq/ifneq/ifdef/ifndef on config symbols, and the directory
 * chain from drivers/ or fs/ down (inv_private.h). */
#include "inv_private.h"
#include "kutil.h"
#include "rbuf.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

struct assign {
	char *lhs_raw, *lhs; /* as written, and with $(CONFIG_X) expanded */
	char op;             /* '=' (also :=), '+', '?' */
	char **words;
	size_t nwords;
	char **raw_words;    /* before expansion, for the reason */
};

struct mkfile {
	char *dir;
	struct assign *a;
	size_t n;
};

struct kconf {
	char **sym, **val;
	size_t n;
	struct mkfile *mk;
	size_t nmk;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct kconf *kconf_load(const char *path, char *err, size_t errlen)
{
	char *text = inv_read(path, err, errlen);
	if (!text)
		return NULL;
	struct kconf *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	char **pairs = NULL;
	size_t n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "CONFIG_", 7))
			continue;
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *v = eq + 1;
		pairs = xrealloc(pairs, (n + 1) * sizeof *pairs);
		struct rbuf b = {0};
		rbuf_addf(&b, "%s%c%s", line + 7, '\0', v);
		pairs[n++] = xrealloc(b.s, b.len + 1);
	}
	free(text);
	if (!n) {
		snprintf(err, errlen, "%s: no CONFIG_ line: not a kernel .config", path);
		free(pairs);
		free(c);
		return NULL;
	}
	qsort(pairs, n, sizeof *pairs, cmp_str);
	c->sym = pairs;
	c->val = malloc(n * sizeof *c->val);
	if (!c->val)
		abort();
	for (size_t i = 0; i < n; i++)
		c->val[i] = pairs[i] + strlen(pairs[i]) + 1;
	c->n = n;
	return c;
}

static const char *kconf_value(const struct kconf *c, const char *sym)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int r = strcmp(sym, c->sym[mid]);
		if (!r)
			return c->val[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool kconf_enabled(const char *sym, void *arg)
{
	const char *v = kconf_value(arg, sym);
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

static void free_mk(struct mkfile *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct assign *a = &m->a[i];
		for (size_t j = 0; j < a->nwords; j++) {
			free(a->words[j]);
			free(a->raw_words[j]);
		}
		free(a->words);
		free(a->raw_words);
		free(a->lhs_raw);
		free(a->lhs);
	}
	free(m->a);
	free(m->dir);
}

void kconf_free(struct kconf *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->sym[i]);
	free(c->sym);
	free(c->val);
	for (size_t i = 0; i < c->nmk; i++)
		free_mk(&c->mk[i]);
	free(c->mk);
	free(c);
}

/* s with every $(CONFIG_X) replaced by its value ("" when unset). */
static char *expand(const struct kconf *c, const char *s)
{
	struct rbuf b = {0};
	rbuf_add(&b, "");
	while (*s) {
		if (!strncmp(s, "$(CONFIG_", 9)) {
			const char *e = strchr(s, ')');
			if (e) {
				char sym[256];
				snprintf(sym, sizeof sym, "%.*s", (int)(e - s - 9), s + 9);
				const char *v = kconf_value(c, sym);
				if (v && *v != '"')
					rbuf_add(&b, v);
				s = e + 1;
				continue;
			}
		}
		rbuf_addc(&b, *s++);
	}
	return b.s;
}

/* The first unset CONFIG_ symbol s names, in out ("" when none). */
static void unset_symbol(const struct kconf *c, const char *s, char *out, size_t outlen)
{
	out[0] = '\0';
	for (const char *p = strstr(s, "$(CONFIG_"); p; p = strstr(p + 1, "$(CONFIG_")) {
		const char *e = strchr(p, ')');
		if (!e)
			return;
		char sym[256];
		snprintf(sym, sizeof sym, "%.*s", (int)(e - p - 9), p + 9);
		if (!kconf_enabled(sym, (void *)c)) {
			snprintf(out, outlen, "CONFIG_%s", sym);
			return;
		}
	}
}

/* An ifeq/ifneq/ifdef/ifndef line: is its branch taken?  Unknown forms
 * (anything but config symbols and constants) count as taken. */
static bool condition(const struct kconf *c, const char *kw, const char *rest)
{
	if (!strcmp(kw, "ifdef") || !strcmp(kw, "ifndef")) {
		char sym[256];
		if (sscanf(rest, " %255s", sym) != 1)
			return true;
		bool on = !strncmp(sym, "CONFIG_", 7) ? kconf_enabled(sym + 7, (void *)c) : true;
		return kw[2] == 'n' ? !on : on;
	}
	const char *o = strchr(rest, '('), *comma = o ? strchr(o, ',') : NULL;
	const char *cl = comma ? strrchr(comma, ')') : NULL;
	if (!cl)
		return true;
	char a[512], b[512];
	snprintf(a, sizeof a, "%.*s", (int)(comma - o - 1), o + 1);
	snprintf(b, sizeof b, "%.*s", (int)(cl - comma - 1), comma + 1);
	char *ea = expand(c, a), *eb = expand(c, b);
	bool unknown = strchr(ea, '$') || strchr(eb, '$');
	char ta[512], tb[512];
	ta[0] = tb[0] = '\0';
	sscanf(ea, " %511s", ta);
	sscanf(eb, " %511s", tb);
	bool eq = !strcmp(ta, tb);
	free(ea);
	free(eb);
	if (unknown)
		return true;
	return !strcmp(kw, "ifeq") ? eq : !eq;
}

static void split_words(const char *s, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", s);
	char *save;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = xstrdup(w);
	}
}

static void parse_makefile(struct kconf *c, const char *src, const char *dir, struct mkfile *m)
{
	*m = (struct mkfile){ .dir = xstrdup(dir) };
	char path[PATH_MAX], e[256];
	snprintf(path, sizeof path, "%s/%s/Kbuild", src, dir);
	if (!ku_is_file(path))
		snprintf(path, sizeof path, "%s/%s/Makefile", src, dir);
	char *text = ku_is_file(path) ? inv_read(path, e, sizeof e) : NULL;
	if (!text)
		return;
	for (char *p = text; *p; p++) /* join continued lines */
		if (p[0] == '\\' && p[1] == '\n')
			p[0] = p[1] = ' ';
	bool live[64] = { true }, taken[64] = { true };
	int depth = 0;
	char *save;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*line))
			line++;
		char kw[16] = "";
		sscanf(line, "%15[a-z]", kw);
		bool elif = !strcmp(kw, "else") && line[4];
		if (!strcmp(kw, "ifeq") || !strcmp(kw, "ifneq") || !strcmp(kw, "ifdef") ||
		    !strcmp(kw, "ifndef")) {
			if (depth < 63) {
				bool v = condition(c, kw, line + strlen(kw));
				depth++;
				live[depth] = live[depth - 1] && v;
				taken[depth] = v;
			}
			continue;
		}
		if (!strcmp(kw, "else") && depth) {
			bool v = !taken[depth];
			if (elif && v) {
				char kw2[16] = "";
				const char *r = line + 4;
				while (isspace((unsigned char)*r))
					r++;
				sscanf(r, "%15[a-z]", kw2);
				v = condition(c, kw2, r + strlen(kw2));
			}
			live[depth] = live[depth - 1] && v;
			taken[depth] = taken[depth] || v;
			continue;
		}
		if (!strcmp(kw, "endif") && depth) {
			depth--;
			continue;
		}
		if (!live[depth])
			continue;
		/* NAME op words, NAME without blanks */
		size_t ln = strcspn(line, " \t:+?=");
		char *op = line + ln;
		while (*op == ' ' || *op == '\t')
			op++;
		char kind;
		size_t oplen;
		if (op[0] == '+' && op[1] == '=')
			kind = '+', oplen = 2;
		else if (op[0] == ':' && op[1] == '=')
			kind = '=', oplen = 2;
		else if (op[0] == '?' && op[1] == '=')
			kind = '?', oplen = 2;
		else if (op[0] == '=')
			kind = '=', oplen = 1;
		else
			continue;
		if (!ln)
			continue;
		char lhs[512];
		snprintf(lhs, sizeof lhs, "%.*s", (int)ln, line);
		m->a = xrealloc(m->a, (m->n + 1) * sizeof *m->a);
		struct assign *a = &m->a[m->n++];
		*a = (struct assign){ .lhs_raw = xstrdup(lhs), .lhs = expand(c, lhs), .op = kind };
		char *rhs = expand(c, op + oplen);
		split_words(rhs, &a->words, &a->nwords);
		free(rhs);
		size_t nraw;
		split_words(op + oplen, &a->raw_words, &nraw);
		while (nraw < a->nwords) { /* keep the two lists the same length */
			a->raw_words = xrealloc(a->raw_words, (nraw + 1) * sizeof *a->raw_words);
			a->raw_words[nraw++] = xstrdup("");
		}
		for (size_t j = a->nwords; j < nraw; j++)
			free(a->raw_words[j]);
	}
	free(text);
}

static struct mkfile *makefile(struct kconf *c, const char *src, const char *dir)
{
	for (size_t i = 0; i < c->nmk; i++)
		if (!strcmp(c->mk[i].dir, dir))
			return &c->mk[i];
	c->mk = xrealloc(c->mk, (c->nmk + 1) * sizeof *c->mk);
	parse_makefile(c, src, dir, &c->mk[c->nmk]);
	return &c->mk[c->nmk++];
}

/* Does the list lhs end up holding word (assignments in order)? */
static bool holds(const struct mkfile *m, const char *lhs, const char *word)
{
	bool in = false, set = false;
	for (size_t i = 0; i < m->n; i++) {
		const struct assign *a = &m->a[i];
		if (strcmp(a->lhs, lhs))
			continue;
		bool here = false;
		for (size_t j = 0; j < a->nwords; j++)
			here = here || !strcmp(a->words[j], word);
		if (a->op == '=')
			in = here;
		else if (a->op == '+')
			in = in || here;
		else if (!set)
			in = here;
		set = true;
	}
	return in;
}

/* Why word is not in m's lists: the unset symbol guarding it, if any. */
static void reason(const struct kconf *c, const struct mkfile *m, const char *word,
		   char *why, size_t whylen)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct assign *a = &m->a[i];
		for (size_t j = 0; j < a->nwords; j++) {
			if (strcmp(a->raw_words[j], word) && strcmp(a->words[j], word))
				continue;
			char sym[300];
			unset_symbol(c, a->lhs_raw, sym, sizeof sym);
			if (!sym[0])
				unset_symbol(c, a->raw_words[j], sym, sizeof sym);
			if (sym[0]) {
				snprintf(why, whylen, "%s is not set (%s/Makefile: %s)", sym,
					 m->dir, a->lhs_raw);
				return;
			}
		}
	}
	snprintf(why, whylen, "%s/Makefile does not build %s", m->dir, word);
}

static bool dir_built(struct kconf *c, const char *src, const char *dir, char *why,
		      size_t whylen, int depth);

static bool obj_built(struct kconf *c, const char *src, const char *dir, const char *obj,
		      char *why, size_t whylen, int depth)
{
	if (depth > 8)
		return false;
	struct mkfile *m = makefile(c, src, dir);
	if (holds(m, "obj-y", obj) || holds(m, "obj-m", obj) || holds(m, "lib-y", obj))
		return dir_built(c, src, dir, why, whylen, depth + 1);
	/* a part of a composite object: NAME-y, NAME-m, NAME-objs */
	for (size_t i = 0; i < m->n; i++) {
		const char *l = m->a[i].lhs;
		size_t ll = strlen(l);
		size_t stem = ll >= 5 && !strcmp(l + ll - 5, "-objs") ? ll - 5 :
			      ll >= 2 && (!strcmp(l + ll - 2, "-y") || !strcmp(l + ll - 2, "-m")) ?
			      ll - 2 : 0;
		bool list = stem == 3 && (!strncmp(l, "obj", 3) || !strncmp(l, "lib", 3));
		if (!stem || list || !holds(m, l, obj))
			continue;
		char whole[300];
		snprintf(whole, sizeof whole, "%.*s.o", (int)stem, l);
		if (strcmp(whole, obj) && obj_built(c, src, dir, whole, why, whylen, depth + 1))
			return true;
	}
	reason(c, m, obj, why, whylen);
	return false;
}

/* Is dir descended into: named (as "sub/" or "sub/dir/") by the obj lists
 * of an ancestor that is itself built?  A top-level directory is. */
static bool dir_built(struct kconf *c, const char *src, const char *dir, char *why,
		      size_t whylen, int depth)
{
	const char *slash = strrchr(dir, '/');
	if (!slash)
		return true;
	char first_why[512] = "";
	for (const char *cut = slash; cut; ) {
		char anc[PATH_MAX], rel[PATH_MAX];
		snprintf(anc, sizeof anc, "%.*s", (int)(cut - dir), dir);
		snprintf(rel, sizeof rel, "%s/", cut + 1);
		struct mkfile *m = makefile(c, src, anc);
		if (holds(m, "obj-y", rel) || holds(m, "obj-m", rel))
			return dir_built(c, src, anc, why, whylen, depth + 1);
		if (!first_why[0])
			reason(c, m, rel, first_why, sizeof first_why);
		const char *prev = NULL;
		for (const char *p = dir; p < cut; p++)
			if (*p == '/')
				prev = p;
		cut = prev;
	}
	snprintf(why, whylen, "%s", first_why);
	return false;
}

bool kbuild_built(const char *src, struct kconf *c, const char *rel, char *why, size_t whylen)
{
	char dir[PATH_MAX], obj[PATH_MAX];
	const char *slash = strrchr(rel, '/');
	if (!slash) {
		snprintf(why, whylen, "%s: not in a directory kbuild descends into", rel);
		return false;
	}
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - rel), rel);
	snprintf(obj, sizeof obj, "%s", slash + 1);
	char *dot = strrchr(obj, '.');
	if (!dot)
		return false;
	strcpy(dot, ".o");
	return obj_built(c, src, dir, obj, why, whylen, 0);
}
