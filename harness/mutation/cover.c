// SPDX-License-Identifier: GPL-2.0-only
/* cover.c: the per-program coverage map (cover.h): load, look up. */
#include "cover.h"
#include "blocks.h"
#include "kutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COVER_MAGIC "# ttypot coverage map "
/* The version written; every version from 1 up to it is read. */
#define COVER_VERSION 3

struct loader {
	size_t cap_unrun;
	const char *path;
	int lineno;
	char *err;
	size_t errlen;
	size_t cap_progs, cap_fns, cap_lines;
};

static int fail(struct loader *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct loader *L, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (L->lineno > 0)
		snprintf(L->err, L->errlen, "%s:%d: %s", L->path, L->lineno, msg);
	else
		snprintf(L->err, L->errlen, "%s: %s", L->path, msg);
	return -1;
}

/* Grow *arr (of size elements) to hold n+1. */
static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return arr;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(arr, c * size);
	if (!p) {
		fprintf(stderr, "ttypot: out of memory\n");
		abort();
	}
	*cap = c;
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fprintf(stderr, "ttypot: out of memory\n");
		abort();
	}
	return d;
}

/* A positive line number, or -1. */
static int parse_lineno(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 1 || v > 10000000)
		return -1;
	return (int)v;
}

/* The index of program name, looking from hint on first (a line lists its
 * programs in run order, so the next one is usually just after). */
static long find_prog(const struct cover_map *m, const char *name, size_t hint)
{
	for (size_t k = 0; k < m->nprogs; k++) {
		size_t i = (hint + k) % m->nprogs;
		if (!strcmp(m->progs[i], name))
			return (long)i;
	}
	return -1;
}

/* Split s in place into words (spaces, tabs); a word starting with '#'
 * ends the record (a trailing comment).  The number of words. */
static int split(char *s, char **w, int max)
{
	int n = 0;
	for (char *t = strtok(s, " \t\r"); t && *t != '#'; t = strtok(NULL, " \t\r")) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

#define MAX_WORDS 4096

static int parse_program(struct loader *L, struct cover_map *m, char **w, int n)
{
	if (n < 2 || n > 3)
		return fail(L, "'program' takes a name and its seconds");
	if (find_prog(m, w[1], 0) >= 0)
		return fail(L, "program %s listed twice", w[1]);
	double secs = -1;
	if (n == 3 && strcmp(w[2], "-")) {
		char *end;
		secs = strtod(w[2], &end);
		if (*end || end == w[2] || secs < 0)
			return fail(L, "program %s: seconds '%s' is not a number", w[1], w[2]);
	}
	m->progs = grow(m->progs, &L->cap_progs, m->nprogs, sizeof *m->progs);
	size_t cap = L->cap_progs;
	m->prog_secs = realloc(m->prog_secs, cap * sizeof *m->prog_secs);
	m->prog_cases = realloc(m->prog_cases, cap * sizeof *m->prog_cases);
	m->prog_ncases = realloc(m->prog_ncases, cap * sizeof *m->prog_ncases);
	m->prog_stale = realloc(m->prog_stale, cap * sizeof *m->prog_stale);
	if (!m->prog_secs || !m->prog_cases || !m->prog_ncases || !m->prog_stale)
		abort();
	m->progs[m->nprogs] = xstrdup(w[1]);
	m->prog_cases[m->nprogs] = NULL;
	m->prog_ncases[m->nprogs] = 0;
	m->prog_stale[m->nprogs] = false;
	m->prog_secs[m->nprogs++] = secs;
	return 0;
}

static int parse_cases(struct loader *L, struct cover_map *m, char **w, int n)
{
	if (n < 3)
		return fail(L, "'cases' takes a program and its cases");
	long p = find_prog(m, w[1], m->nprogs ? m->nprogs - 1 : 0);
	if (p < 0)
		return fail(L, "cases of %s: it has no 'program' line before them", w[1]);
	if (m->prog_cases[p])
		return fail(L, "cases of %s listed twice", w[1]);
	char **v = calloc((size_t)(n - 2), sizeof *v);
	if (!v)
		abort();
	for (int i = 2; i < n; i++)
		v[i - 2] = xstrdup(w[i]);
	m->prog_cases[p] = v;
	m->prog_ncases[p] = (size_t)(n - 2);
	return 0;
}

static int parse_fn(struct loader *L, struct cover_map *m, char **w, int n)
{
	if (n != 5)
		return fail(L, "'fn' takes FILE FIRST LAST NAME");
	int first = parse_lineno(w[2]), last = parse_lineno(w[3]);
	if (first < 0 || last < 0)
		return fail(L, "fn %s: bad line range %s %s", w[4], w[2], w[3]);
	if (last < first)
		return fail(L, "fn %s: its last line %d is before its first %d", w[4], last, first);
	m->fns = grow(m->fns, &L->cap_fns, m->nfns, sizeof *m->fns);
	m->fns[m->nfns++] = (struct cover_fn){ .file = xstrdup(w[1]), .name = xstrdup(w[4]),
					       .first = first, .last = last };
	return 0;
}

static int parse_line(struct loader *L, struct cover_map *m, char **w, int n)
{
	if (n < 4)
		return fail(L, "'line' takes FILE LINE and * or the programs");
	int line = parse_lineno(w[2]);
	if (line < 0)
		return fail(L, "bad line number '%s'", w[2]);
	struct cover_line c = { .line = line };
	if (!strcmp(w[3], "*")) {
		if (n != 4)
			return fail(L, "%s:%d: '*' (every program) stands alone", w[1], line);
		c.boot = true;
	} else {
		c.progs = calloc((size_t)(n - 3), sizeof *c.progs);
		if (!c.progs)
			abort();
		long p = -1;
		for (int i = 3; i < n; i++) {
			p = find_prog(m, w[i], (size_t)(p + 1));
			if (p < 0) {
				free(c.progs);
				return fail(L, "%s:%d: program %s has no 'program' line before it",
					    w[1], line, w[i]);
			}
			c.progs[c.nprogs++] = m->progs[p];
		}
	}
	if (m->nlines && m->lines[m->nlines - 1].line == line &&
	    !strcmp(m->lines[m->nlines - 1].file, w[1])) {
		free(c.progs);
		return fail(L, "%s:%d is listed twice", w[1], line);
	}
	c.file = xstrdup(w[1]);
	m->lines = grow(m->lines, &L->cap_lines, m->nlines, sizeof *m->lines);
	m->lines[m->nlines++] = c;
	return 0;
}

/* unrun FILE LINE...: counted lines no program executed. */
static int parse_unrun(struct loader *L, struct cover_map *m, char **w, int n)
{
	if (m->version < 3)
		return fail(L, "'unrun' is a version 3 record (this map says version %d)",
			    m->version);
	if (n < 3)
		return fail(L, "'unrun' takes FILE and its lines");
	for (int i = 2; i < n; i++) {
		int line = parse_lineno(w[i]);
		if (line < 0)
			return fail(L, "unrun %s: bad line number '%s'", w[1], w[i]);
		m->unrun = grow(m->unrun, &L->cap_unrun, m->nunrun, sizeof *m->unrun);
		m->unrun[m->nunrun++] = (struct cover_line){ .file = xstrdup(w[1]), .line = line };
	}
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	const struct cover_line *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_fn(const void *a, const void *b)
{
	const struct cover_fn *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->first > y->first) - (x->first < y->first);
}

static int parse(struct loader *L, struct cover_map *m, char *text)
{
	char **w = malloc(MAX_WORDS * sizeof *w);
	if (!w)
		abort();
	bool magic = false;
	int rc = 0;
	char *next;
	L->lineno = 0;
	for (char *l = text; l && rc == 0; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		L->lineno++;
		if (!next && !*l)
			break; /* after the last newline */
		if (!magic) {
			if (strncmp(l, COVER_MAGIC, strlen(COVER_MAGIC))) {
				rc = fail(L, "not a ttypot coverage map (its first line is not "
					     "'" COVER_MAGIC "%d')", COVER_VERSION);
				break;
			}
			int v = atoi(l + strlen(COVER_MAGIC));
			if (v < 1 || v > COVER_VERSION)
				rc = fail(L, "coverage map version %d, this ttypot reads 1 to %d", v,
					  COVER_VERSION);
			m->version = v;
			magic = true;
			continue;
		}
		if (!strncmp(l, "# source ", 9)) {
			snprintf(m->source, sizeof m->source, "%s", l + 9);
			m->source[strcspn(m->source, "\r")] = '\0';
			continue;
		}
		int n = split(l, w, MAX_WORDS);
		if (n == 0)
			continue;
		if (n > MAX_WORDS)
			rc = fail(L, "more than %d words on a line", MAX_WORDS);
		else if (!strcmp(w[0], "program"))
			rc = parse_program(L, m, w, n);
		else if (!strcmp(w[0], "cases"))
			rc = parse_cases(L, m, w, n);
		else if (!strcmp(w[0], "fn"))
			rc = parse_fn(L, m, w, n);
		else if (!strcmp(w[0], "line"))
			rc = parse_line(L, m, w, n);
		else if (!strcmp(w[0], "unrun"))
			rc = parse_unrun(L, m, w, n);
		else
			rc = fail(L, "unknown record '%s' (program, cases, fn, line or unrun)",
				  w[0]);
	}
	free(w);
	if (rc == 0 && !magic) {
		L->lineno = 0;
		rc = fail(L, "empty: not a ttypot coverage map");
	}
	return rc;
}

int cover_load(const char *path, struct cover_map *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	struct loader L = { .path = path, .err = err, .errlen = errlen };
	size_t len;
	char *text = ku_read_file(path, &len);
	if (!text)
		return fail(&L, "cannot read: %s", strerror(errno));
	if (memchr(text, '\0', len)) {
		free(text);
		return fail(&L, "binary data: not a ttypot coverage map");
	}
	int rc = parse(&L, m, text);
	free(text);
	if (rc == 0) {
		L.lineno = 0;
		qsort(m->lines, m->nlines, sizeof *m->lines, cmp_line);
		qsort(m->fns, m->nfns, sizeof *m->fns, cmp_fn);
		qsort(m->unrun, m->nunrun, sizeof *m->unrun, cmp_line);
		for (size_t i = 0; i < m->nunrun && rc == 0; i++)
			if (cover_find(m, m->unrun[i].file, m->unrun[i].line))
				rc = fail(&L, "%s:%d is both executed and unrun", m->unrun[i].file,
					  m->unrun[i].line);
		for (size_t i = 1; i < m->nlines && rc == 0; i++)
			if (!cmp_line(&m->lines[i - 1], &m->lines[i]))
				rc = fail(&L, "%s:%d is listed twice", m->lines[i].file,
					  m->lines[i].line);
	}
	if (rc < 0)
		cover_free(m);
	return rc;
}

void cover_free(struct cover_map *m)
{
	for (size_t i = 0; i < m->nprogs; i++) {
		free(m->progs[i]);
		for (size_t k = 0; m->prog_cases[i] && k < m->prog_ncases[i]; k++)
			free(m->prog_cases[i][k]);
		free(m->prog_cases[i]);
	}
	for (size_t i = 0; i < m->nfns; i++) {
		free(m->fns[i].file);
		free(m->fns[i].name);
	}
	for (size_t i = 0; i < m->nlines; i++) {
		free(m->lines[i].file);
		free(m->lines[i].progs);
	}
	free(m->progs);
	free(m->prog_secs);
	free(m->prog_cases);
	free(m->prog_ncases);
	free(m->prog_stale);
	for (size_t i = 0; i < m->nunrun; i++)
		free(m->unrun[i].file);
	free(m->fns);
	free(m->lines);
	free(m->unrun);
	memset(m, 0, sizeof *m);
}

const struct cover_line *cover_find(const struct cover_map *m, const char *file, int line)
{
	struct cover_line key = { .file = (char *)file, .line = line };
	return bsearch(&key, m->lines, m->nlines, sizeof *m->lines, cmp_line);
}

/* The innermost function holding the line (nested ranges: the narrowest). */
const struct cover_fn *cover_fn_at(const struct cover_map *m, const char *file, int line)
{
	const struct cover_fn *best = NULL;
	for (size_t i = 0; i < m->nfns; i++) {
		const struct cover_fn *f = &m->fns[i];
		if (strcmp(f->file, file) || line < f->first || line > f->last)
			continue;
		if (!best || f->last - f->first < best->last - best->first)
			best = f;
	}
	return best;
}

const struct cover_fn *cover_fn_named(const struct cover_map *m, const char *file,
				      const char *name)
{
	for (size_t i = 0; i < m->nfns; i++)
		if (!strcmp(m->fns[i].name, name) && (!file || !strcmp(m->fns[i].file, file)))
			return &m->fns[i];
	return NULL;
}

size_t cover_programs(const struct cover_map *m, const char *file, int line, char *out,
		      size_t outlen)
{
	if (outlen)
		out[0] = '\0';
	const struct cover_line *c = cover_find(m, file, line);
	if (!c)
		return 0;
	char **progs = c->boot ? m->progs : c->progs;
	size_t n = c->boot ? m->nprogs : c->nprogs, used = 0, listed = 0;
	bool full = false;
	for (size_t i = 0; i < n; i++) {
		if (!cover_knows(m, progs[i]))
			continue;
		listed++;
		int w = full || !outlen ? -1 : snprintf(out + used, outlen - used, "%s%s",
							used ? " " : "", progs[i]);
		if (w < 0 || (size_t)w >= outlen - used) {
			if (outlen)
				out[used] = '\0'; /* no half program name */
			full = true;
			continue;
		}
		used += (size_t)w;
	}
	return listed;
}

static bool is_unrun(const struct cover_map *m, const char *file, int line)
{
	struct cover_line key = { .file = (char *)file, .line = line };
	return bsearch(&key, m->unrun, m->nunrun, sizeof *m->unrun, cmp_line) != NULL;
}

/* Does the map list file:line, executed or unrun? */
static bool listed_line(const struct cover_map *m, const char *file, int line)
{
	return cover_find(m, file, line) || is_unrun(m, file, line);
}

bool cover_has_counter(const struct cover_map *m, const char *file, int line)
{
	return m->version < 3 || listed_line(m, file, line);
}

/* Append what cover_programs gives for file:line to out (at *used), those
 * not there yet; the number added. */
static size_t add_around(const struct cover_map *m, const char *file, int line, char *out,
			 size_t outlen, size_t *used)
{
	char *mine = malloc(outlen);
	if (!mine)
		abort();
	size_t added = 0;
	if (cover_programs(m, file, line, mine, outlen)) {
		for (char *save = NULL, *p = strtok_r(mine, " ", &save); p;
		     p = strtok_r(NULL, " ", &save)) {
			size_t pl = strlen(p);
			bool have = false;
			for (const char *q = out; *q && !have;) {
				size_t ql = strcspn(q, " ");
				have = ql == pl && !strncmp(q, p, pl);
				q += ql + (q[ql] == ' ');
			}
			if (have || *used + pl + 2 > outlen)
				continue;
			*used += (size_t)sprintf(out + *used, "%s%s", *used ? " " : "", p);
			added++;
		}
	}
	free(mine);
	return added;
}

void cover_counted_neighbours(const struct cover_map *m, const char *file, int line,
			      int *before, int *after)
{
	*before = *after = 0;
	const struct cover_fn *f = cover_fn_at(m, file, line);
	if (!f)
		return;
	for (int l = line - 1; l >= f->first && !*before; l--)
		if (listed_line(m, file, l))
			*before = l;
	for (int l = line + 1; l <= f->last && !*after; l++)
		if (listed_line(m, file, l))
			*after = l;
}

struct counted_ctx {
	const struct cover_map *m;
	const char *file;
};

static bool counted(int line, void *arg)
{
	const struct counted_ctx *c = arg;
	return listed_line(c->m, c->file, line);
}

size_t cover_programs_around(const struct cover_map *m, const char *file, int line,
			     const struct blocks *src, char *out, size_t outlen)
{
	if (outlen)
		out[0] = '\0';
	if (!outlen)
		return 0;
	int before, after;
	cover_counted_neighbours(m, file, line, &before, &after);
	size_t used = 0, n = 0;
	if (before)
		n += add_around(m, file, before, out, outlen, &used);
	if (after)
		n += add_around(m, file, after, out, outlen, &used);
	/* The textual neighbours may lie in a block that line is not in (the
	 * last case of a switch before the statement after it): the counted
	 * line the braces say is before it on every path adds its programs. */
	const struct cover_fn *f = src ? cover_fn_at(m, file, line) : NULL;
	struct counted_ctx c = { m, file };
	int dom = f ? blocks_before(src, line, f->first, counted, &c) : 0;
	if (dom && dom != before)
		n += add_around(m, file, dom, out, outlen, &used);
	return n;
}

bool cover_knows_file(const struct cover_map *m, const char *file)
{
	for (size_t i = 0; i < m->nfns; i++)
		if (!strcmp(m->fns[i].file, file))
			return true;
	for (size_t i = 0; i < m->nlines; i++)
		if (!strcmp(m->lines[i].file, file))
			return true;
	return false;
}

bool cover_knows(const struct cover_map *m, const char *prog)
{
	long p = find_prog(m, prog, 0);
	return p >= 0 && !m->prog_stale[p];
}

/* Does every case of the program's list appear among ids (prog:CASE), and
 * ids hold no other case of it? */
static bool same_cases(const struct cover_map *m, size_t p, const char *const *ids,
		       size_t nids)
{
	const char *prog = m->progs[p];
	size_t pl = strlen(prog), now = 0;
	for (size_t i = 0; i < nids; i++) {
		if (strncmp(ids[i], prog, pl) || ids[i][pl] != ':')
			continue;
		now++;
		bool found = false;
		for (size_t k = 0; k < m->prog_ncases[p] && !found; k++)
			found = !strcmp(m->prog_cases[p][k], ids[i] + pl + 1);
		if (!found)
			return false;
	}
	return now == m->prog_ncases[p];
}

size_t cover_check_cases(struct cover_map *m, const char *const *ids, size_t nids,
			 char *note, size_t notelen)
{
	size_t stale = 0, used = 0;
	if (notelen)
		note[0] = '\0';
	if (m->version < 2) {
		snprintf(note, notelen, "the coverage map has no case lists (version %d, made "
			 "before ttypot recorded them): a case added since to a program it "
			 "maps is not selected for lines the map does not credit to that "
			 "program; make coverage writes a map with them", m->version);
		return 0;
	}
	for (size_t p = 0; p < m->nprogs; p++) {
		m->prog_stale[p] = !m->prog_cases[p] || !same_cases(m, p, ids, nids);
		if (!m->prog_stale[p])
			continue;
		if (!stale++ && notelen)
			used = (size_t)snprintf(note, notelen, "programs whose cases differ from "
						"the coverage map's, run as the map's unknowns "
						"(make coverage maps them again):");
		if (used < notelen)
			used += (size_t)snprintf(note + used, notelen - used, " %s", m->progs[p]);
	}
	return stale;
}
