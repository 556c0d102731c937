// SPDX-License-Identifier: GPL-2.0-only
/* schemata.c: the mutant schemata rewrite (schemata.h). */
#include "schemata.h"
#include "rbuf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char schemata_header[] =
	"/* ttypot mutant schemata (harness/mutation/schemata.h): the mutant this\n"
	" * kernel runs, from the command line (ttypot_mutant=N; 0: none). */\n"
	"#ifndef TTYPOT_MUTANT_H\n#define TTYPOT_MUTANT_H\n"
	"#ifdef TTYPOT_MUTANT_CONST\n#define ttypot_mutant TTYPOT_MUTANT_CONST\n"
	"#else\nextern int ttypot_mutant;\n#endif\n#endif\n";

const char schemata_definition[] =
	"\n/* ttypot mutant schemata: ttypot_mutant=N on the command line picks the\n"
	" * mutant every guarded site of the tty layer runs (0: none). */\n"
	"#ifndef TTYPOT_MUTANT_CONST\n"
	"int ttypot_mutant __read_mostly;\n"
	"static int __init ttypot_mutant_setup(char *s)\n{\n"
	"\tif (kstrtoint(s, 0, &ttypot_mutant))\n\t\tttypot_mutant = 0;\n"
	"\tpr_info(\"ttypot: mutant %d\\n\", ttypot_mutant);\n\treturn 1;\n}\n"
	"__setup(\"ttypot_mutant=\", ttypot_mutant_setup);\n#endif\n";

/* Mutants sharing one span form a node; nodes nest. */
struct node {
	long s, e;
	bool stmt;
	const struct gmut **mv;
	size_t nm;
	size_t *kids;
	size_t nkids;
};

/* Append p[0..len) on one line: line breaks become spaces and // comments
 * go (they would swallow the rest of the line); strings and block comments
 * are copied as they are. */
static void add_flat(struct rbuf *b, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = p[i];
		if (c == '"' || c == '\'') {
			rbuf_addc(b, c);
			for (i++; i < len && p[i] != c; i++) {
				rbuf_addc(b, p[i]);
				if (p[i] == '\\' && i + 1 < len)
					rbuf_addc(b, p[++i]);
			}
			if (i < len)
				rbuf_addc(b, c);
		} else if (c == '/' && i + 1 < len && p[i + 1] == '/') {
			while (i + 1 < len && p[i + 1] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && p[i + 1] == '*') {
			rbuf_add(b, "/*");
			for (i += 2; i + 1 < len && !(p[i] == '*' && p[i + 1] == '/'); i++)
				rbuf_addc(b, p[i] == '\n' ? ' ' : p[i]);
			rbuf_add(b, "*/");
			i++;
		} else {
			rbuf_addc(b, c == '\n' || c == '\r' ? ' ' : c);
		}
	}
}

static void render(const char *text, const struct node *nodes, size_t k, struct rbuf *out);

/* The node's span with mutant g's edits (g NULL: none) and its children
 * rendered as schemata themselves. */
static void body(const char *text, const struct node *nodes, size_t k,
		 const struct gmut *g, struct rbuf *out)
{
	const struct node *n = &nodes[k];
	long pos = n->s;
	size_t kid = 0;
	int ed = 0;
	while (pos < n->e || (g && ed < g->ned && g->ed[ed].a == pos)) {
		if (g && ed < g->ned && g->ed[ed].a == pos) {
			rbuf_add(out, g->ed[ed].text);
			pos = g->ed[ed].b;
			ed++;
			while (kid < n->nkids && nodes[n->kids[kid]].s < pos)
				kid++; /* replaced with the text it was in */
			continue;
		}
		if (kid < n->nkids && nodes[n->kids[kid]].s == pos) {
			render(text, nodes, n->kids[kid], out);
			pos = nodes[n->kids[kid]].e;
			kid++;
			continue;
		}
		rbuf_addc(out, text[pos++]);
	}
}

static void render(const char *text, const struct node *nodes, size_t k, struct rbuf *out)
{
	const struct node *n = &nodes[k];
	for (size_t i = 0; i < n->nm; i++) {
		struct rbuf arm = {0};
		body(text, nodes, k, n->mv[i], &arm);
		if (n->stmt)
			rbuf_addf(out, "%s if (ttypot_mutant == %u) { ", i ? " else" : "{",
				  n->mv[i]->m.id);
		else
			rbuf_addf(out, "%sttypot_mutant == %u ? (", i ? "" : "(", n->mv[i]->m.id);
		add_flat(out, rbuf_str(&arm), arm.len);
		rbuf_add(out, n->stmt ? " }" : ") : ");
		rbuf_free(&arm);
	}
	rbuf_add(out, n->stmt ? " else { " : "(");
	body(text, nodes, k, NULL, out);
	rbuf_add(out, n->stmt ? " } }" : "))");
}

static int cmp_span(const void *x, const void *y)
{
	const struct gmut *a = *(const struct gmut *const *)x, *b = *(const struct gmut *const *)y;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->m.id < b->m.id ? -1 : a->m.id > b->m.id;
}

char *schemata_rewrite(const char *text, const struct gmut *const *sel, size_t n)
{
	const struct gmut **v = calloc(n ? n : 1, sizeof *v);
	memcpy(v, sel, n * sizeof *v);
	qsort(v, n, sizeof *v, cmp_span);
	struct node *nodes = calloc(n ? n : 1, sizeof *nodes);
	size_t nn = 0;
	size_t *stack = calloc(n ? n : 1, sizeof *stack), ns = 0;
	size_t *tops = calloc(n ? n : 1, sizeof *tops), ntops = 0;
	for (size_t i = 0; i < n; i++) {
		if (nn && nodes[nn - 1].s == v[i]->s && nodes[nn - 1].e == v[i]->e) {
			struct node *c = &nodes[nn - 1];
			c->mv = xrealloc(c->mv, (c->nm + 1) * sizeof *c->mv);
			c->mv[c->nm++] = v[i];
			continue;
		}
		struct node *c = &nodes[nn];
		*c = (struct node){ .s = v[i]->s, .e = v[i]->e, .stmt = v[i]->stmt };
		c->mv = xrealloc(NULL, sizeof *c->mv);
		c->mv[c->nm++] = v[i];
		while (ns && nodes[stack[ns - 1]].e <= c->s)
			ns--;
		if (ns) {
			struct node *p = &nodes[stack[ns - 1]];
			p->kids = xrealloc(p->kids, (p->nkids + 1) * sizeof *p->kids);
			p->kids[p->nkids++] = nn;
		} else {
			tops[ntops++] = nn;
		}
		stack[ns++] = nn++;
	}
	struct rbuf out = {0};
	long pos = 0;
	for (size_t t = 0; t < ntops; t++) {
		rbuf_addn(&out, text + pos, (size_t)(nodes[tops[t]].s - pos));
		render(text, nodes, tops[t], &out);
		pos = nodes[tops[t]].e;
	}
	rbuf_add(&out, text + pos);
	for (size_t i = 0; i < nn; i++) {
		free(nodes[i].mv);
		free(nodes[i].kids);
	}
	free(nodes);
	free(stack);
	free(tops);
	free(v);
	if (!out.s)
		return xstrdup("");
	return out.s;
}

char *schemata_apply_one(const char *text, const struct gmut *g)
{
	struct rbuf out = {0};
	long pos = 0;
	for (int i = 0; i < g->ned; i++) {
		rbuf_addn(&out, text + pos, (size_t)(g->ed[i].a - pos));
		rbuf_add(&out, g->ed[i].text);
		pos = g->ed[i].b;
	}
	rbuf_add(&out, text + pos);
	return out.s ? out.s : xstrdup("");
}
