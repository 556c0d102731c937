// SPDX-License-Identifier: GPL-2.0-only
/* blocks.c: brace depths of a C file and the lines before a line that
 * dominate it (blocks.h). */
#include "blocks.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Does the line at p begin with a label: "case ...:", "default:" or an
 * identifier and a colon (not "::", not a bit-field's "x : 3" inside a
 * struct, which no function body holds)? */
static bool is_label(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "case ", 5) || !strncmp(p, "case\t", 5) || !strncmp(p, "default:", 8) ||
	    !strncmp(p, "default :", 9))
		return true;
	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == ':' && p[1] != ':';
}

int blocks_read(const char *text, struct blocks *b)
{
	int n = 1;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	b->nlines = n;
	b->start = calloc((size_t)n + 2, sizeof *b->start);
	b->low = calloc((size_t)n + 2, sizeof *b->low);
	b->label = calloc((size_t)n + 2, sizeof *b->label);
	if (!b->start || !b->low || !b->label) {
		blocks_free(b);
		return -1;
	}
	int depth = 0, line = 1;
	enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
	b->start[1] = b->low[1] = 0;
	b->label[1] = is_label(text);
	for (const char *p = text; *p; p++) {
		char c = *p;
		if (c == '\n') {
			line++;
			b->start[line] = b->low[line] = depth;
			if (st == LINE_COMMENT)
				st = CODE;
			b->label[line] = st == CODE && is_label(p + 1);
			continue;
		}
		switch (st) {
		case LINE_COMMENT:
			break;
		case BLOCK_COMMENT:
			if (c == '*' && p[1] == '/') {
				st = CODE;
				p++;
			}
			break;
		case STRING:
		case CHAR:
			if (c == '\\' && p[1] && p[1] != '\n')
				p++;
			else if (c == (st == STRING ? '"' : '\''))
				st = CODE;
			break;
		case CODE:
			if (c == '/' && p[1] == '/')
				st = LINE_COMMENT;
			else if (c == '/' && p[1] == '*') {
				st = BLOCK_COMMENT;
				p++;
			} else if (c == '"')
				st = STRING;
			else if (c == '\'')
				st = CHAR;
			else if (c == '{')
				depth++;
			else if (c == '}') {
				depth--;
				if (depth < b->low[line])
					b->low[line] = depth;
			}
			break;
		}
	}
	return 0;
}

void blocks_free(struct blocks *b)
{
	free(b->start);
	free(b->low);
	free(b->label);
	b->start = b->low = NULL;
	b->label = NULL;
	b->nlines = 0;
}

int blocks_before(const struct blocks *b, int line, int first,
		  bool (*take)(int line, void *arg), void *arg)
{
	if (line < 1 || line > b->nlines)
		return 0;
	/* Going back: a line that starts deeper than the level reached so
	 * far is inside a block that closed before line; a line whose braces
	 * go lower (a "}", a "} else {") closes one, and the lines before it
	 * count only at that lower level. */
	int level = b->start[line];
	for (int l = line - 1; l >= first && l >= 1; l--) {
		if (b->start[l] <= level && take(l, arg))
			return l;
		if (b->low[l] < level)
			level = b->low[l];
		/* entered from elsewhere: only its block's head is before it
		 * on every path */
		if (b->label[l] && b->start[l] == level)
			level--;
	}
	return 0;
}
