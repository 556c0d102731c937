// SPDX-License-Identifier: GPL-2.0-only
/* generate.c: sites to mutants (generate.h). */
#include "generate.h"
#include "diffmap.h"
#include "rbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long gen_offset(const char *text, int line, int col)
{
	long off = 0;
	for (int l = 1; l < line; l++) {
		const char *nl = strchr(text + off, '\n');
		if (!nl)
			return -1;
		off = nl - text + 1;
	}
	long eol = (long)strcspn(text + off, "\n");
	return col <= eol ? off + col : -1;
}

/* Span text on one line (runs of white space as one space), cut to fit. */
static void flat_copy(char *out, size_t outlen, const char *p, long len)
{
	size_t o = 0;
	bool space = false;
	for (long i = 0; i < len && o + 4 < outlen; i++) {
		char c = p[i];
		if (c == '\n' || c == '\t' || c == ' ' || c == '\r') {
			space = o > 0;
			continue;
		}
		if (space)
			out[o++] = ' ';
		space = false;
		out[o++] = c;
	}
	if (o + 4 >= outlen)
		memcpy(out + o, "...", 3), o += 3;
	out[o] = '\0';
}

/* The replacement operators of ror: one step at the boundary and the
 * opposite direction; == and != swap. */
static const char *const ror_variants[][3] = {
	{ "<", "<=", ">" }, { "<=", "<", ">=" }, { ">", ">=", "<" },
	{ ">=", ">", "<=" }, { "==", "!=", NULL }, { "!=", "==", NULL },
};

/* errno: each name's replacement, a neighbour user space tells apart. */
static const char *const errno_map[][2] = {
	{ "EIO", "EAGAIN" }, { "EAGAIN", "EIO" }, { "EWOULDBLOCK", "EIO" },
	{ "EINTR", "EIO" }, { "ERESTARTSYS", "EINTR" }, { "EINVAL", "ENOTTY" },
	{ "ENOTTY", "EINVAL" }, { "EPERM", "EACCES" }, { "EACCES", "EPERM" },
	{ "EBUSY", "EAGAIN" }, { "ENXIO", "EIO" }, { "EFAULT", "EINVAL" },
	{ "ENOMEM", "ENOSPC" }, { "EOPNOTSUPP", "EINVAL" },
	{ "ENOIOCTLCMD", "EINVAL" }, { "ENODEV", "ENXIO" }, { "EBADF", "EIO" },
	{ "EEXIST", "EBUSY" }, { "ENOSPC", "ENOMEM" }, { "EOVERFLOW", "EINVAL" },
	{ "ESRCH", "EPERM" }, { "ENOENT", "ENODEV" }, { "ERANGE", "EINVAL" },
	{ "ENOSYS", "EINVAL" }, { "ETIMEDOUT", "EIO" }, { "ENOBUFS", "ENOMEM" },
	{ "ERESTARTNOINTR", "EINTR" }, { "ERESTARTNOHAND", "EINTR" },
	{ "ENOTSUPP", "EINVAL" }, { "EPIPE", "EIO" }, { "ECHILD", "ESRCH" },
};

static struct gmut *add(struct gmut **v, size_t *nv, const struct site *s, long a, long b)
{
	*v = xrealloc(*v, (*nv + 1) * sizeof **v);
	struct gmut *g = &(*v)[(*nv)++];
	memset(g, 0, sizeof *g);
	snprintf(g->m.file, sizeof g->m.file, "%s", s->file);
	snprintf(g->m.func, sizeof g->m.func, "%s", s->func);
	g->m.op = s->op;
	g->m.line = s->l1;
	g->m.col = s->c1;
	g->m.end_line = s->l2;
	g->m.end_col = s->c2;
	g->s = a;
	g->e = b;
	return g;
}

static void edit(struct gmut *g, long a, long b, const char *text)
{
	struct mut_edit *e = &g->ed[g->ned++];
	e->a = a;
	e->b = b;
	snprintf(e->text, sizeof e->text, "%s", text);
}

/* The span's text with the mutant's edits, one line (for reports). */
static void describe(const char *text, struct gmut *g)
{
	flat_copy(g->m.orig, sizeof g->m.orig, text + g->s, g->e - g->s);
	struct rbuf b = {0};
	long pos = g->s;
	for (int i = 0; i < g->ned; i++) {
		rbuf_addn(&b, text + pos, (size_t)(g->ed[i].a - pos));
		rbuf_add(&b, g->ed[i].text);
		pos = g->ed[i].b;
	}
	rbuf_addn(&b, text + pos, (size_t)(g->e - pos));
	flat_copy(g->m.repl, sizeof g->m.repl, rbuf_str(&b), (long)b.len);
	rbuf_free(&b);
}

/* The ';' ending a statement whose expression ends at e, or -1. */
static long stmt_end(const char *text, long e)
{
	while (text[e] == ' ' || text[e] == '\t')
		e++;
	return text[e] == ';' ? e + 1 : -1;
}

static bool is_name(const char *p, long len)
{
	for (long i = 0; i < len; i++)
		if (!(p[i] == '_' || (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z') ||
		      (p[i] >= '0' && p[i] <= '9')))
			return false;
	return len > 0;
}

/* One site's mutants; false when its text does not fit the operator. */
static bool expand_one(const char *text, const struct site *s, struct gmut **v, size_t *nv)
{
	long a = gen_offset(text, s->l1, s->c1), b = gen_offset(text, s->l2, s->c2);
	/* Outside any function (a global's initialiser, a macro's body): no
	 * guard can go there. */
	if (a < 0 || b <= a || !strcmp(s->func, "something_else"))
		return false;
	size_t n0 = *nv;
	char tok[64];
	long len = b - a;
	switch (s->op) {
	case OP_ROR: {
		int ol, oc;
		char op[8];
		if (sscanf(s->extra, "%d:%d:%7s", &ol, &oc, op) != 3)
			return false;
		long o = gen_offset(text, ol, oc);
		size_t opl = strlen(op);
		if (o < a || o + (long)opl > b || strncmp(text + o, op, opl))
			return false;
		for (size_t i = 0; i < sizeof ror_variants / sizeof *ror_variants; i++) {
			if (strcmp(ror_variants[i][0], op))
				continue;
			for (int k = 1; k < 3 && ror_variants[i][k]; k++)
				edit(add(v, nv, s, a, b), o, o + (long)opl, ror_variants[i][k]);
		}
		break;
	}
	case OP_NEG: {
		struct gmut *g = add(v, nv, s, a, b);
		edit(g, a, a, "!(");
		edit(g, b, b, ")");
		break;
	}
	case OP_CALL: {
		long e = stmt_end(text, b);
		if (e < 0)
			return false;
		struct gmut *g = add(v, nv, s, a, e);
		g->stmt = true;
		edit(g, a, e, ";");
		break;
	}
	case OP_ERRNO:
		if (len >= (long)sizeof tok || !is_name(text + a, len))
			return false;
		snprintf(tok, sizeof tok, "%.*s", (int)len, text + a);
		for (size_t i = 0; i < sizeof errno_map / sizeof *errno_map; i++)
			if (!strcmp(errno_map[i][0], tok))
				edit(add(v, nv, s, a, b), a, b, errno_map[i][1]);
		break;
	case OP_OBO: {
		if (len >= 40 || !is_name(text + a, len) || text[a] < '0' || text[a] > '9')
			return false;
		char r[100];
		snprintf(tok, sizeof tok, "%.*s", (int)len, text + a);
		snprintf(r, sizeof r, "(%s + 1)", tok);
		edit(add(v, nv, s, a, b), a, b, r);
		snprintf(r, sizeof r, "(%s - 1)", tok);
		edit(add(v, nv, s, a, b), a, b, r);
		break;
	}
	case OP_FLAG:
		if (!strcmp(s->extra, "test")) {
			edit(add(v, nv, s, a, b), a, b, "0");
		} else if (!strcmp(s->extra, "set")) {
			long e = stmt_end(text, b);
			if (e < 0)
				return false;
			struct gmut *g = add(v, nv, s, a, e);
			g->stmt = true;
			edit(g, a, e, ";");
		} else {
			int kl1, kc1, kl2, kc2;
			if (sscanf(s->extra, "or %d:%d-%d:%d", &kl1, &kc1, &kl2, &kc2) != 4)
				return false;
			long ka = gen_offset(text, kl1, kc1), kb = gen_offset(text, kl2, kc2);
			if (ka < a || kb > b || kb <= ka)
				return false;
			/* Keep the other operand: delete what is before and after it. */
			struct gmut *g = add(v, nv, s, a, b);
			edit(g, a, ka, "");
			edit(g, kb, b, "");
		}
		break;
	case OP_RET:
		if (!strcmp(s->extra, "zero"))
			edit(add(v, nv, s, a, b), a, b, "1");
		else if (!strcmp(s->extra, "bool"))
			edit(add(v, nv, s, a, b), a, b, text[a] == 't' ? "false" : "true");
		else if (!strcmp(s->extra, "expr"))
			edit(add(v, nv, s, a, b), a, b, "0");
		else
			return false;
		break;
	default:
		return false;
	}
	for (size_t i = n0; i < *nv; i++)
		describe(text, &(*v)[i]);
	return *nv > n0;
}

/* Is the word w (an identifier) at p, not inside a longer identifier? */
static bool word_at(const char *text, const char *p, const char *w)
{
	size_t n = strlen(w);
	return !strncmp(p, w, n) && !(isalnum((unsigned char)p[n]) || p[n] == '_') &&
	       (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
}

/* The last occurrence of the word w in [from, to), or NULL. */
static const char *last_word(const char *text, const char *from, const char *to,
			     const char *w)
{
	const char *last = NULL;
	for (const char *p = from; p < to; p++)
		if (word_at(text, p, w))
			last = p;
	return last;
}

/* Inside a function: the start of the statement or declaration holding a,
 * scanning back to a ';', a block's '}' or a block's '{' at its own level.
 * Braces of an initialiser are part of it: a '{' after '=', ',' or '{' and
 * a '}' before ',' (an element) are crossed.  *brace gets a block's '{' that
 * ended the scan (NULL otherwise). */
static const char *statement_start(const char *text, long a, const char **brace)
{
	int paren = 0, curly = 0;
	*brace = NULL;
	for (long i = a - 1; i >= 0; i--) {
		char c = text[i];
		if (c == ')' || c == ']')
			paren++;
		else if ((c == '(' || c == '[') && paren > 0)
			paren--;
		if (paren > 0)
			continue;
		if (c == '}') {
			long j = i + 1;
			while (isspace((unsigned char)text[j]))
				j++;
			if (curly == 0 && text[j] != ',')
				return text + i + 1; /* the end of a block before it */
			curly++;
			continue;
		}
		if (c == '{' && curly > 0) {
			curly--;
			continue;
		}
		if (curly > 0)
			continue;
		if (c == ';')
			return text + i + 1;
		if (c == '{') {
			long j = i - 1;
			while (j >= 0 && isspace((unsigned char)text[j]))
				j--;
			if (j >= 0 && (text[j] == '=' || text[j] == ',' || text[j] == '{'))
				continue; /* an initialiser's brace */
			*brace = text + i;
			return text + i + 1;
		}
	}
	return text;
}

/* gen_constant_context on code_only's text, with the file's functions
 * found once. */
static const char *constant_in(const char *text, long a, const struct dm_fn *fns, size_t nfns)
{
	/* A macro's body: its uses decide, and the compiler tells. */
	if (text[a] == ' ')
		return NULL;
	int line = 1;
	for (long i = 0; i < a && text[i]; i++)
		line += text[i] == '\n';
	bool inside = false;
	for (size_t i = 0; i < nfns && !inside; i++)
		inside = line > fns[i].brace && line < fns[i].end;
	/* The brace lines themselves: inside when after the body's '{'. */
	for (size_t i = 0; i < nfns && !inside; i++)
		if (line == fns[i].brace || line == fns[i].end) {
			long ls = a;
			while (ls > 0 && text[ls - 1] != '\n')
				ls--;
			const char *ob = memchr(text + ls, '{', (size_t)(a - ls));
			inside = line == fns[i].brace ? ob != NULL : !memchr(text + ls, '}',
									   (size_t)(a - ls));
		}
	if (!inside)
		return "outside every function (a static initialiser or a declaration)";
	const char *brace;
	const char *st = statement_start(text, a, &brace);
	const char *end = text + a;
	const char *c = last_word(text, st, end, "case");
	if (c && !memchr(c, ':', (size_t)(end - c)))
		return "a case label";
	while (st < end && isspace((unsigned char)*st))
		st++;
	if (word_at(text, st, "static"))
		return "a static local's declaration";
	/* module_param(), module_param_cb() and their kin make static
	 * storage of their arguments, inside a function too */
	if (!strncmp(st, "module_param", 12) || !strncmp(st, "core_param", 10))
		return "a module parameter's definition";
	if (last_word(text, st, end, "BUILD_BUG_ON") || last_word(text, st, end, "static_assert") ||
	    last_word(text, st, end, "_Static_assert"))
		return "a BUILD_BUG_ON or static assertion";
	if (brace) {
		/* enum [NAME] { ... : the values of an enum. */
		const char *p = brace;
		while (p > text && isspace((unsigned char)p[-1]))
			p--;
		while (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			p--;
		const char *q = p;
		if (!word_at(text, q, "enum")) {
			while (q > text && isspace((unsigned char)q[-1]))
				q--;
			while (q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
				q--;
		}
		if (word_at(text, q, "enum"))
			return "an enum's value";
	}
	return NULL;
}

/* text with comments, the insides of string and character literals and
 * preprocessor lines blanked (newlines kept, so offsets and lines stay):
 * what the compiler reads as code.  malloc'd. */
static char *code_only(const char *text)
{
	size_t len = strlen(text);
	char *c = xrealloc(NULL, len + 1);
	memcpy(c, text, len + 1);
	bool bol = true;
	for (size_t i = 0; i < len;) {
		char ch = c[i];
		if (bol && ch == '#') { /* with its continuation lines */
			while (i < len && !(c[i] == '\n' && (i == 0 || text[i - 1] != '\\'))) {
				if (c[i] != '\n')
					c[i] = ' ';
				i++;
			}
			continue;
		}
		if (ch == '\n') {
			bol = true;
			i++;
			continue;
		}
		if (ch != ' ' && ch != '\t')
			bol = false;
		if (ch == '/' && c[i + 1] == '*') {
			for (; i < len && !(c[i] == '*' && c[i + 1] == '/'); i++)
				if (c[i] != '\n')
					c[i] = ' ';
			for (int k = 0; k < 2 && i < len; k++)
				c[i++] = ' ';
			continue;
		}
		if (ch == '/' && c[i + 1] == '/') {
			for (; i < len && c[i] != '\n'; i++)
				c[i] = ' ';
			continue;
		}
		if (ch == '"' || ch == '\'') {
			for (i++; i < len && text[i] != ch && text[i] != '\n'; i++) {
				if (text[i] == '\\' && i + 1 < len)
					c[i++] = ' ';
				c[i] = ' ';
			}
			i += i < len;
			continue;
		}
		i++;
	}
	return c;
}

const char *gen_constant_context(const char *text, long a)
{
	struct dm_fn *fns = NULL;
	size_t nfns = dm_functions(text, &fns);
	char *code = code_only(text);
	const char *why = constant_in(code, a, fns, nfns);
	free(code);
	free(fns);
	return why;
}

int gen_expand(const char *text, const struct site *s, size_t n, struct gmut **v,
	       size_t *nv, size_t *skipped, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct dm_fn *fns = NULL;
	size_t nfns = dm_functions(text, &fns);
	char *code = code_only(text);
	for (size_t i = 0; i < n; i++) {
		size_t n0 = *nv;
		if (!expand_one(text, &s[i], v, nv)) {
			(*skipped)++;
			continue;
		}
		const char *why = constant_in(code, (*v)[n0].s, fns, nfns);
		for (size_t k = n0; k < *nv; k++)
			(*v)[k].constant = why;
	}
	free(code);
	free(fns);
	return 0;
}

static int cmp_gmut(const void *x, const void *y)
{
	const struct gmut *a = x, *b = y;
	int c = strcmp(a->m.file, b->m.file);
	if (c)
		return c;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1; /* the enclosing span first */
	if (a->m.op != b->m.op)
		return (int)a->m.op - (int)b->m.op;
	return strcmp(a->m.repl, b->m.repl);
}

/* Column order within a line, for ordinals. */
static int cmp_pos(const void *x, const void *y)
{
	const struct gmut *a = x, *b = y;
	int c = strcmp(a->m.file, b->m.file);
	if (c)
		return c;
	if (a->m.line != b->m.line)
		return a->m.line - b->m.line;
	if (a->m.op != b->m.op)
		return (int)a->m.op - (int)b->m.op;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e < b->e ? -1 : 1;
	return strcmp(a->m.repl, b->m.repl);
}

size_t gen_finish(struct gmut *v, size_t n, size_t *dropped)
{
	qsort(v, n, sizeof *v, cmp_gmut);
	size_t w = 0;
	*dropped = 0;
	/* Spans still open at this point (the enclosing ones). */
	long *open = calloc(n ? n : 1, sizeof *open);
	size_t nopen = 0;
	const char *file = "";
	for (size_t i = 0; i < n; i++) {
		struct gmut *g = &v[i];
		if (strcmp(g->m.file, file)) {
			file = g->m.file;
			nopen = 0;
		}
		bool dup = w > 0 && !strcmp(v[w - 1].m.file, g->m.file) && v[w - 1].s == g->s &&
			   v[w - 1].e == g->e && !strcmp(v[w - 1].m.repl, g->m.repl);
		while (nopen && open[nopen - 1] <= g->s)
			nopen--;
		bool overlap = nopen && g->e > open[nopen - 1];
		/* A statement and an expression on the same span cannot share one arm. */
		bool kind = w > 0 && !strcmp(v[w - 1].m.file, g->m.file) && v[w - 1].s == g->s &&
			    v[w - 1].e == g->e && v[w - 1].stmt != g->stmt;
		if (dup || overlap || kind) {
			(*dropped)++;
			continue;
		}
		open[nopen++] = g->e;
		if (w != i)
			v[w] = *g;
		w++;
	}
	free(open);
	qsort(v, w, sizeof *v, cmp_pos);
	for (size_t i = 0; i < w; i++) {
		struct gmut *g = &v[i];
		bool same = i > 0 && !strcmp(v[i - 1].m.file, g->m.file) &&
			    v[i - 1].m.line == g->m.line && v[i - 1].m.op == g->m.op;
		g->m.ordinal = same ? v[i - 1].m.ordinal + 1 : 1;
		g->m.id = (unsigned)(i + 1);
		snprintf(g->m.key, sizeof g->m.key, "%s:%d:%s:%d", g->m.file, g->m.line,
			 mut_op_name(g->m.op), g->m.ordinal);
	}
	return w;
}
