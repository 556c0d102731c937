// SPDX-License-Identifier: GPL-2.0-only
/* ctok.c: the inventory's C lexer, file-level definitions and #if filter
 * (ctok.h). */
#include "ctok.h"
#include "rbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct ctoks *t, char kind, const char *s, size_t n, int line)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	char *text = xrealloc(NULL, n + 1);
	memcpy(text, s, n);
	text[n] = '\0';
	t->v[t->n++] = (struct ctok){ .kind = kind, .text = text, .line = line };
}

/* A string literal from the opening quote at p: its text unescaped into b;
 * returns the character after the closing quote. */
static const char *lex_string(const char *p, struct rbuf *b, int *line)
{
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\n')
			(*line)++;
		if (*p != '\\') {
			rbuf_addc(b, *p);
			continue;
		}
		p++;
		switch (*p) {
		case 'n': rbuf_addc(b, '\n'); break;
		case 't': rbuf_addc(b, '\t'); break;
		case '\n': (*line)++; break;
		case '\0': return p;
		default: rbuf_addc(b, *p); break;
		}
	}
	return *p ? p + 1 : p;
}

void ctok_lex(const char *text, struct ctoks *out)
{
	*out = (struct ctoks){0};
	int line = 1;
	bool bol = true, in_pp = false, last_string = false;
	for (const char *p = text; *p;) {
		char c = *p;
		if (c == '\\' && p[1] == '\n') { /* a continued line */
			p += 2, line++;
			continue;
		}
		if (c == '\n') {
			if (in_pp)
				push(out, CT_PP_END, "", 0, line);
			in_pp = false, bol = true, last_string = false;
			line++, p++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			p++;
			continue;
		}
		if (c == '/' && p[1] == '*') {
			for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
				line += *p == '\n';
			p += *p ? 2 : 0;
			continue;
		}
		if (c == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (bol && c == '#') {
			const char *d = p + 1;
			while (*d == ' ' || *d == '\t')
				d++;
			const char *e = d;
			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			push(out, CT_PP, d, (size_t)(e - d), line);
			in_pp = true, bol = false, last_string = false;
			p = e;
			continue;
		}
		bol = false;
		if (c == '"') {
			struct rbuf b = {0};
			int at = line;
			p = lex_string(p, &b, &line);
			if (last_string) { /* "a" "b" is "ab" */
				struct ctok *prev = &out->v[out->n - 1];
				size_t pl = strlen(prev->text);
				prev->text = xrealloc(prev->text, pl + b.len + 1);
				memcpy(prev->text + pl, rbuf_str(&b), b.len + 1);
			} else {
				push(out, CT_STRING, rbuf_str(&b), b.len, at);
			}
			rbuf_free(&b);
			last_string = true;
			continue;
		}
		last_string = false;
		if (c == '\'') {
			const char *s = p;
			for (p++; *p && *p != '\'' && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			p += *p == '\'';
			push(out, CT_NUMBER, s, (size_t)(p - s), line);
			continue;
		}
		if (isalpha((unsigned char)c) || c == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			push(out, CT_IDENT, s, (size_t)(p - s), line);
			continue;
		}
		if (isdigit((unsigned char)c)) {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
			push(out, CT_NUMBER, s, (size_t)(p - s), line);
			continue;
		}
		push(out, CT_PUNCT, p, 1, line);
		p++;
	}
	if (in_pp)
		push(out, CT_PP_END, "", 0, line);
}

void ctok_free(struct ctoks *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
	*t = (struct ctoks){0};
}

bool ctok_is(const struct ctoks *t, size_t i, char c)
{
	return i < t->n && t->v[i].kind == CT_PUNCT && t->v[i].text[0] == c;
}

bool ctok_ident(const struct ctoks *t, size_t i, const char *s)
{
	return i < t->n && t->v[i].kind == CT_IDENT && !strcmp(t->v[i].text, s);
}

size_t ctok_close(const struct ctoks *t, size_t i)
{
	int depth = 0;
	for (; i < t->n; i++) {
		if (t->v[i].kind != CT_PUNCT)
			continue;
		char c = t->v[i].text[0];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
			return i;
	}
	return t->n;
}

/* The '(' that the ')' at i closes, or (size_t)-1. */
static size_t open_of(const struct ctoks *t, size_t i, size_t floor)
{
	int depth = 0;
	for (size_t j = i + 1; j-- > floor;) {
		if (t->v[j].kind != CT_PUNCT)
			continue;
		char c = t->v[j].text[0];
		if (c == ')' || c == ']' || c == '}')
			depth++;
		else if ((c == '(' || c == '[' || c == '{') && --depth == 0)
			return j;
	}
	return (size_t)-1;
}

static struct cdef *add_def(struct cdef **d, size_t *n, const char *name, bool is_case,
			    size_t first, size_t last, int line)
{
	*d = xrealloc(*d, (*n + 1) * sizeof **d);
	(*d)[*n] = (struct cdef){ .name = xstrdup(name), .is_case = is_case,
				  .first = first, .last = last, .line = line };
	return &(*d)[(*n)++];
}

/* Does the keyword static come in tokens [from, to)? */
static bool says_static(const struct ctoks *t, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (ctok_ident(t, i, "static"))
			return true;
	return false;
}

/* A function-like definition whose parameter list ends at close (a ')'
 * right before '{'): its name, stepping over __attribute__((...)). */
static void function_def(const struct ctoks *t, size_t start, size_t close, size_t body,
			 size_t end, struct cdef **d, size_t *n)
{
	for (;;) {
		size_t open = open_of(t, close, start);
		if (open == (size_t)-1 || open == start || t->v[open - 1].kind != CT_IDENT)
			return;
		const char *name = t->v[open - 1].text;
		if (!strcmp(name, "__attribute__") && open >= start + 2 &&
		    ctok_is(t, open - 2, ')')) {
			close = open - 2;
			continue;
		}
		bool is_case = !strncmp(name, "TP_CASE", 7) || !strcmp(name, "ATF_TC_BODY");
		if (is_case) {
			if (t->v[open + 1].kind != CT_IDENT)
				return;
			name = t->v[open + 1].text;
		}
		add_def(d, n, name, is_case, body + 1, end, t->v[open - 1].line)->is_static =
			says_static(t, start, open);
		return;
	}
}

size_t ctok_defs(const struct ctoks *t, struct cdef **out)
{
	struct cdef *d = NULL;
	size_t n = 0, chunk = 0;
	for (size_t i = 0; i < t->n;) {
		const struct ctok *k = &t->v[i];
		if (k->kind == CT_PP) {
			size_t e = i + 1;
			while (e < t->n && t->v[e].kind != CT_PP_END)
				e++;
			if (!strcmp(k->text, "define") && i + 1 < e && t->v[i + 1].kind == CT_IDENT)
				add_def(&d, &n, t->v[i + 1].text, false, i + 2, e, k->line)->is_macro =
					true;
			if (chunk == i) /* nothing pending: the next chunk starts after */
				chunk = e + 1;
			i = e + 1;
			continue;
		}
		if (ctok_is(t, i, '{')) {
			size_t close = ctok_close(t, i);
			size_t prev = i;
			while (prev > chunk && t->v[prev - 1].kind == CT_PP_END)
				while (prev > chunk && t->v[--prev].kind != CT_PP)
					;
			if (prev > chunk && ctok_is(t, prev - 1, ')')) {
				function_def(t, chunk, prev - 1, i, close, &d, &n);
				i = chunk = close + 1;
				continue;
			}
			i = close + 1; /* a struct, enum or initialiser: same chunk */
			continue;
		}
		if (ctok_is(t, i, '(') || ctok_is(t, i, '[')) {
			i = ctok_close(t, i) + 1;
			continue;
		}
		if (ctok_is(t, i, '=')) { /* a variable's initialiser: name = ... ; */
			size_t j = i;
			while (j > chunk && ctok_is(t, j - 1, ']')) {
				size_t o = open_of(t, j - 1, chunk);
				if (o == (size_t)-1)
					break;
				j = o;
			}
			size_t end = i + 1;
			while (end < t->n && !ctok_is(t, end, ';')) {
				if (ctok_is(t, end, '{') || ctok_is(t, end, '(') || ctok_is(t, end, '['))
					end = ctok_close(t, end);
				end++;
			}
			if (j > chunk && t->v[j - 1].kind == CT_IDENT)
				add_def(&d, &n, t->v[j - 1].text, false, i + 1, end,
					t->v[j - 1].line)->is_static = says_static(t, chunk, j);
			i = chunk = end + 1;
			continue;
		}
		if (ctok_is(t, i, ';')) {
			i = chunk = i + 1;
			continue;
		}
		i++;
	}
	*out = d;
	return n;
}

void ctok_defs_free(struct cdef *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i].name);
	free(d);
}

/* ---- #if filter ---- */

enum tri { NO, YES, UNKNOWN };

/* One term: [!]defined(X) | [!]defined X | [!]IS_ENABLED(X) | [!]X | 0 | 1. */
static enum tri term(const char **pp, bool (*en)(const char *, void *), void *arg)
{
	const char *p = *pp;
	bool neg = false;
	while (*p == ' ' || *p == '\t' || *p == '!') {
		neg ^= *p == '!';
		p++;
	}
	char word[128];
	size_t n = 0;
	while ((isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof word)
		word[n++] = *p++;
	word[n] = '\0';
	if (!n)
		return UNKNOWN;
	enum tri v = UNKNOWN;
	if (!strcmp(word, "0") || !strcmp(word, "1")) {
		v = word[0] == '1' ? YES : NO;
	} else if (!strcmp(word, "defined") || !strcmp(word, "IS_ENABLED") ||
		   !strcmp(word, "IS_BUILTIN") || !strcmp(word, "IS_REACHABLE")) {
		while (*p == ' ')
			p++;
		bool paren = *p == '(';
		p += paren;
		while (*p == ' ')
			p++;
		char sym[128];
		size_t m = 0;
		while ((isalnum((unsigned char)*p) || *p == '_') && m + 1 < sizeof sym)
			sym[m++] = *p++;
		sym[m] = '\0';
		while (*p == ' ')
			p++;
		if (paren && *p++ != ')')
			return UNKNOWN;
		if (!strncmp(sym, "CONFIG_", 7))
			v = en(sym + 7, arg) ? YES : NO;
	} else if (!strncmp(word, "CONFIG_", 7)) {
		v = en(word + 7, arg) ? YES : NO;
	}
	*pp = p;
	if (v == UNKNOWN)
		return v;
	return (v == YES) != neg ? YES : NO;
}

/* An #if expression of terms joined by && or || (left to right). */
static enum tri expr(const char *p, bool (*en)(const char *, void *), void *arg)
{
	enum tri v = term(&p, en, arg);
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n' || (p[0] == '/' && (p[1] == '*' || p[1] == '/')))
			return v;
		bool and = p[0] == '&' && p[1] == '&', or = p[0] == '|' && p[1] == '|';
		if (!and && !or)
			return UNKNOWN;
		p += 2;
		enum tri w = term(&p, en, arg);
		if (v == UNKNOWN || w == UNKNOWN)
			return UNKNOWN;
		v = and ? (v == YES && w == YES ? YES : NO) : (v == YES || w == YES ? YES : NO);
	}
}

struct ifstate {
	bool parent, on, taken;
};

void cpp_filter(char *text, bool (*enabled)(const char *, void *), void *arg)
{
	struct ifstate st[64];
	int depth = 0;
	bool active = true;
	for (char *line = text; *line;) {
		char *end = line;
		while (*end && !(*end == '\n' && (end == text || end[-1] != '\\')))
			end++;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		bool directive = *p == '#';
		bool keep = active;
		if (directive) {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "ifdef", 5) || !strncmp(p, "ifndef", 6) || !strncmp(p, "if", 2)) {
				enum tri v;
				if (!strncmp(p, "ifdef", 5) || !strncmp(p, "ifndef", 6)) {
					bool nd = p[2] == 'n';
					const char *q = p + (nd ? 6 : 5);
					char e[160];
					snprintf(e, sizeof e, "%sdefined %.*s", nd ? "!" : "",
						 (int)strcspn(q, "\n"), q);
					v = expr(e, enabled, arg);
				} else {
					v = expr(p + 2, enabled, arg);
				}
				if (depth < 64) {
					bool on = v != NO;
					st[depth++] = (struct ifstate){ active, on, on };
					active = active && on;
				}
			} else if (!strncmp(p, "elif", 4) && depth) {
				struct ifstate *s = &st[depth - 1];
				enum tri v = expr(p + 4, enabled, arg);
				s->on = !s->taken && v != NO;
				s->taken = s->taken || s->on;
				active = s->parent && s->on;
				keep = active;
			} else if (!strncmp(p, "else", 4) && depth) {
				struct ifstate *s = &st[depth - 1];
				s->on = !s->taken;
				s->taken = true;
				active = s->parent && s->on;
			} else if (!strncmp(p, "endif", 5) && depth) {
				active = st[--depth].parent;
				keep = active;
			}
		}
		if (!keep)
			for (char *q = line; q < end; q++)
				if (*q != '\n')
					*q = ' ';
		line = *end ? end + 1 : end;
	}
}
