/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctok.h: a small C lexer and the definitions of a file, enough for the
 * inventory to read kernel sources (which names a file uses, its string
 * literals, its structure initialisers) and the suite's cases (what each
 * case body names, through the helpers it calls).  Not a C parser: it
 * counts braces and parentheses outside comments, strings and
 * preprocessor lines.
 */
#ifndef TTYPOT_CTOK_H
#define TTYPOT_CTOK_H

#include <stdbool.h>
#include <stddef.h>

enum ctok_kind {
	CT_IDENT = 'i',
	CT_STRING = 's',   /* adjacent literals are merged; text unescaped */
	CT_NUMBER = 'n',
	CT_PUNCT = 'p',    /* one character: ( ) { } [ ] ; , = and the rest */
	CT_PP = '#',       /* a preprocessor line begins: text is its directive */
	CT_PP_END = 'e',   /* ... and ends */
};

struct ctok {
	char kind;
	char *text;
	int line;
};

struct ctoks {
	struct ctok *v;
	size_t n, cap;
};

/* Lex text (NUL-terminated) into out; the caller frees with ctok_free. */
void ctok_lex(const char *text, struct ctoks *out);
void ctok_free(struct ctoks *t);

/* Is token i the punctuator c / the identifier s? */
bool ctok_is(const struct ctoks *t, size_t i, char c);
bool ctok_ident(const struct ctoks *t, size_t i, const char *s);
/* The index of the token that closes the bracket at i ('(' '[' '{'), or
 * t->n when it never closes. */
size_t ctok_close(const struct ctoks *t, size_t i);

/* A definition at file level: a function (or a case body: TP_CASE*(name,
 * ...) and ATF_TC_BODY(name, tc) give the case's name), a variable with an
 * initialiser, or a #define.  Tokens first..last are its body. */
struct cdef {
	char *name;
	bool is_case;
	bool is_static;  /* declared static */
	bool is_macro;   /* a #define */
	size_t first, last;
	int line;
};

size_t ctok_defs(const struct ctoks *t, struct cdef **out);
void ctok_defs_free(struct cdef *d, size_t n);

/* Blank the lines of text that the configuration leaves out: #ifdef
 * CONFIG_X, #ifndef, #if defined(CONFIG_X), #if IS_ENABLED(CONFIG_X),
 * IS_BUILTIN, their negations, #elif and #else.  enabled(name) says
 * whether CONFIG_name is y or m.  A condition it cannot evaluate is taken
 * as true (its #else as false).  In place; the line count is kept. */
void cpp_filter(char *text, bool (*enabled)(const char *sym, void *arg), void *arg);

#endif
