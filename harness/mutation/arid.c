// SPDX-License-Identifier: GPL-2.0-only
/* arid.c: the arid lines of C source (arid.h): each byte classed, then
 * each line by its bytes. */
#include "arid.h"
#include "rbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum cls {
	C_WS,       /* blank: neutral */
	C_COMMENT,  /* neutral, but a line of only these is a comment */
	C_CODE,     /* live code, scanned for statements */
	C_STR,      /* a string or character constant: live, not scanned */
	C_PP,       /* a preprocessor line: live, not scanned */
	C_LOG,      /* the arid kinds */
	C_ASSERT,
	C_TRACE,
	C_DECL,
};

static const char *const cls_why[] = {
	[C_LOG] = "a log call", [C_ASSERT] = "an assertion", [C_TRACE] = "a tracepoint",
	[C_DECL] = "a declaration",
};

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Comments, strings, character constants and preprocessor lines. */
static void class_bytes(const char *t, size_t len, unsigned char *c)
{
	bool line_start = true;
	for (size_t i = 0; i < len;) {
		if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
			const char *e = strstr(t + i + 2, "*/");
			size_t end = e ? (size_t)(e - t) + 2 : len;
			memset(c + i, C_COMMENT, end - i);
			i = end;
		} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
			size_t end = i + strcspn(t + i, "\n");
			memset(c + i, C_COMMENT, end - i);
			i = end;
		} else if (t[i] == '"' || t[i] == '\'') {
			size_t j = i + 1;
			while (j < len && t[j] != t[i] && t[j] != '\n')
				j += t[j] == '\\' && j + 1 < len ? 2 : 1;
			j = j < len ? j + 1 : len;
			memset(c + i, C_STR, j - i);
			i = j;
			line_start = false;
		} else if (t[i] == '#' && line_start) {
			size_t j = i;
			while (j < len && !(t[j] == '\n' && (j == 0 || t[j - 1] != '\\')))
				j++;
			memset(c + i, C_PP, j - i);
			i = j;
		} else {
			bool ws = isspace((unsigned char)t[i]);
			c[i] = ws ? C_WS : C_CODE;
			if (t[i] == '\n')
				line_start = true;
			else if (!ws)
				line_start = false;
			i++;
		}
	}
}

/* The next byte at or after i that is code (C_CODE or C_STR), or len. */
static size_t next_code(const unsigned char *c, size_t len, size_t i)
{
	while (i < len && c[i] != C_CODE && c[i] != C_STR)
		i++;
	return i;
}

/* The ')' matching the '(' at k (code bytes only), or len. */
static size_t match_paren(const char *t, const unsigned char *c, size_t len, size_t k)
{
	int depth = 0;
	for (size_t i = k; i < len; i++) {
		if (c[i] != C_CODE)
			continue;
		if (t[i] == '(')
			depth++;
		else if (t[i] == ')' && --depth == 0)
			return i;
	}
	return len;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !strncmp(w, s, n);
}

static bool has_prefix(const char *w, size_t n, const char *p)
{
	size_t pl = strlen(p);
	return n >= pl && !strncmp(w, p, pl);
}

/* The arid kind of a call to the function named w[0..n), or 0. */
static enum cls call_kind(const char *w, size_t n)
{
	static const char *const dev[] = { "err", "warn", "info", "dbg", "notice", "crit",
					   "alert", "emerg", "printk", "vdbg", NULL };
	if (has_prefix(w, n, "printk") || has_prefix(w, n, "pr_") ||
	    has_prefix(w, n, "tty_debug"))
		return C_LOG;
	if (word_is(w, n, "tty_err") || word_is(w, n, "tty_warn") || word_is(w, n, "tty_info") ||
	    word_is(w, n, "tty_notice"))
		return C_LOG;
	if (has_prefix(w, n, "dev_")) {
		for (size_t i = 0; dev[i]; i++) {
			size_t dl = strlen(dev[i]);
			if (n >= 4 + dl && !strncmp(w + 4, dev[i], dl) &&
			    (n == 4 + dl || word_is(w + 4 + dl, n - 4 - dl, "_once") ||
			     word_is(w + 4 + dl, n - 4 - dl, "_ratelimited")))
				return C_LOG;
		}
		if (has_prefix(w, n, "dev_WARN"))
			return C_ASSERT;
		return 0;
	}
	if (has_prefix(w, n, "WARN") || has_prefix(w, n, "BUG") ||
	    has_prefix(w, n, "BUILD_BUG") || has_prefix(w, n, "lockdep_assert") ||
	    has_prefix(w, n, "might_sleep"))
		return C_ASSERT;
	if (has_prefix(w, n, "trace_"))
		return C_TRACE;
	return 0;
}

/* Is t[a..b] (a statement without its ';') a pure declaration: names, '*',
 * ',', '[N]' only, two names at least, no statement keyword? */
static bool pure_decl(const char *t, const unsigned char *c, size_t a, size_t b)
{
	static const char *const kw[] = { "return", "break", "continue", "goto", "else", "do",
					  "case", "default", "sizeof", NULL };
	int names = 0;
	for (size_t i = a; i < b;) {
		if (c[i] == C_STR || c[i] == C_PP)
			return false;
		if (c[i] != C_CODE) {
			i++;
			continue;
		}
		if (ident_start(t[i])) {
			size_t j = i;
			while (j < b && ident_char(t[j]))
				j++;
			for (size_t k = 0; kw[k]; k++)
				if (word_is(t + i, j - i, kw[k]))
					return false;
			names++;
			i = j;
		} else if (isdigit((unsigned char)t[i]) || strchr("*,[]", t[i])) {
			i++;
		} else {
			return false;
		}
	}
	return names >= 2;
}

static void mark(unsigned char *c, size_t a, size_t b, enum cls k)
{
	for (size_t i = a; i <= b; i++)
		if (c[i] == C_CODE || c[i] == C_STR)
			c[i] = k;
}

/* Statements: arid calls and pure declarations re-classed. */
static void class_statements(const char *t, size_t len, unsigned char *c)
{
	size_t stmt = len; /* len: at a statement's start */
	int paren = 0;
	for (size_t i = next_code(c, len, 0); i < len; i = next_code(c, len, i)) {
		if (stmt == len && c[i] == C_CODE && ident_start(t[i])) {
			size_t j = i;
			while (j < len && ident_char(t[j]))
				j++;
			const char *w = t + i;
			size_t n = j - i;
			size_t k = next_code(c, len, j);
			if ((word_is(w, n, "if") || word_is(w, n, "for") || word_is(w, n, "while") ||
			     word_is(w, n, "switch")) && k < len && t[k] == '(') {
				size_t m = match_paren(t, c, len, k);
				i = m < len ? m + 1 : len;
				continue;
			}
			if (word_is(w, n, "else") || word_is(w, n, "do")) {
				i = j;
				continue;
			}
			if (word_is(w, n, "case") || word_is(w, n, "default")) {
				while (k < len && !(c[k] == C_CODE && t[k] == ':'))
					k++;
				i = k < len ? k + 1 : len;
				continue;
			}
			if (k + 1 < len && t[k] == ':' && t[k + 1] != ':') { /* a label */
				i = k + 1;
				continue;
			}
			enum cls kind = call_kind(w, n);
			if (kind && k < len && t[k] == '(') {
				size_t m = match_paren(t, c, len, k);
				size_t s = m < len ? next_code(c, len, m + 1) : len;
				if (s < len && t[s] == ';') {
					mark(c, i, s, kind);
					i = s + 1;
					continue;
				}
			}
		}
		if (stmt == len && c[i] == C_CODE && strchr(";{}", t[i])) {
			i++;
			continue;
		}
		if (stmt == len) {
			stmt = i;
			paren = 0;
		}
		if (c[i] == C_CODE) {
			char ch = t[i];
			paren += (ch == '(' || ch == '[') - (ch == ')' || ch == ']');
			if (ch == ';' && paren <= 0) {
				if (pure_decl(t, c, stmt, i))
					mark(c, stmt, i, C_DECL);
				stmt = len;
			} else if (ch == '{' || ch == '}') {
				stmt = len;
			}
		}
		i++;
	}
}

void arid_scan(const char *text, struct arid *a)
{
	size_t len = strlen(text);
	unsigned char *c = calloc(len + 1, 1);
	class_bytes(text, len, c);
	class_statements(text, len, c);
	int lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	a->nlines = lines;
	a->why = xrealloc(NULL, (size_t)(lines + 1) * sizeof *a->why);
	size_t i = 0;
	for (int l = 1; l <= lines; l++) {
		bool live = false, comment = false;
		const char *why = NULL;
		for (; i < len && text[i] != '\n'; i++) {
			live |= c[i] == C_CODE || c[i] == C_STR || c[i] == C_PP;
			comment |= c[i] == C_COMMENT;
			if (!why && c[i] >= C_LOG)
				why = cls_why[c[i]];
		}
		i++;
		a->why[l] = live ? NULL : why ? why : comment ? "a comment" : "blank";
	}
	a->why[0] = NULL;
	free(c);
}

void arid_free(struct arid *a)
{
	free(a->why);
	a->why = NULL;
	a->nlines = 0;
}

const char *arid_why(const struct arid *a, int line)
{
	return line >= 1 && line <= a->nlines ? a->why[line] : NULL;
}

bool arid_span(const struct arid *a, int l1, int l2)
{
	for (int l = l1; l <= l2; l++)
		if (!arid_why(a, l))
			return false;
	return true;
}
