// SPDX-License-Identifier: GPL-2.0-only
/* cfuncs.c: where the functions of a C file begin and end (diffmap.h),
 * found by counting braces outside comments, strings and preprocessor
 * lines: a brace at file level after "name(...)" opens a function. */
#include "diffmap.h"
#include "rbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct tok {
	char kind;      /* 'i' identifier, '(' ')' or another punctuator */
	char name[64];
	int line;
};

size_t dm_functions(const char *text, struct dm_fn **out)
{
	*out = NULL;
	size_t nfn = 0;
	/* The tokens at depth 0 since the last ';' or '}' there. */
	struct tok *t = NULL;
	size_t nt = 0, cap = 0;
	int depth = 0, line = 1;
	bool bol = true; /* only blanks so far on this line */
	long open = -1;  /* the function whose body is open */
	for (const char *p = text; *p;) {
		char c = *p;
		if (c == '\n') {
			line++, bol = true, p++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p++;
			continue;
		}
		if (bol && c == '#') { /* a preprocessor line, with its continuations */
			while (*p && !(*p == '\n' && p[-1] != '\\')) {
				if (*p == '\n')
					line++;
				p++;
			}
			continue;
		}
		bol = false;
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
		if (c == '"' || c == '\'') {
			for (p++; *p && *p != c; p++) {
				if (*p == '\\' && p[1])
					line += *++p == '\n';
				else
					line += *p == '\n';
			}
			p += *p ? 1 : 0;
			continue;
		}
		struct tok k = { .kind = c, .line = line };
		if (isalpha((unsigned char)c) || c == '_') {
			size_t n = 0;
			while (isalnum((unsigned char)*p) || *p == '_') {
				if (n + 1 < sizeof k.name)
					k.name[n++] = *p;
				p++;
			}
			k.name[n] = '\0';
			k.kind = 'i';
		} else {
			p++;
		}
		if (depth > 0) {
			if (c == '{')
				depth++;
			else if (c == '}' && --depth == 0) {
				if (open >= 0)
					(*out)[open].end = line;
				open = -1;
				nt = 0;
			}
			continue;
		}
		if (c == ';' || c == '}') {
			nt = 0;
			continue;
		}
		if (c == '{') {
			depth = 1;
			/* name ( ... ) [attr ( ... )]... { : a function body */
			long i = (long)nt - 1;
			const struct tok *name = NULL;
			while (i >= 0 && t[i].kind == ')') {
				int lvl = 0;
				for (; i >= 0; i--) {
					lvl += t[i].kind == ')';
					lvl -= t[i].kind == '(';
					if (lvl == 0)
						break;
				}
				if (--i < 0 || t[i].kind != 'i')
					break;
				name = &t[i--];
			}
			if (name && strcmp(name->name, "sizeof") != 0) {
				*out = xrealloc(*out, (nfn + 1) * sizeof **out);
				struct dm_fn *f = &(*out)[nfn];
				memset(f, 0, sizeof *f);
				snprintf(f->name, sizeof f->name, "%s", name->name);
				f->start = name->line;
				f->brace = line;
				f->end = line;
				open = (long)nfn++;
			}
			continue;
		}
		if (nt == cap) {
			cap = cap ? cap * 2 : 256;
			t = xrealloc(t, cap * sizeof *t);
		}
		t[nt++] = k;
	}
	free(t);
	return nfn;
}
