// SPDX-License-Identifier: GPL-2.0-only
/* diffmap.c: a git diff of the tty layer mapped to the programs that reach
 * it through the coverage map (diffmap.h); gitdiff.c reads the diff,
 * cfuncs.c finds the functions. */
#include "diffmap.h"
#include "kutil.h"
#include "rbuf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define DM_PROGS_BUF 65536

static const struct dm_fn *fn_at(const struct dm_fn *v, size_t n, int line)
{
	for (size_t i = 0; i < n; i++)
		if (line >= v[i].start && line <= v[i].end)
			return &v[i];
	return NULL;
}


/* Files the kernel build never reads. */
static bool not_built(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !strncmp(path, "Documentation/", 14) || !strncmp(path, "LICENSES/", 9) ||
	       !strcmp(path, "MAINTAINERS") || !strcmp(path, "CREDITS") ||
	       !strcmp(path, "README") || !strcmp(path, "COPYING") ||
	       !strcmp(path, ".mailmap") || !strcmp(base, ".gitignore");
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static void everything(struct dm_result *r, const char *fmt, const char *a, const char *b)
{
	if (!r->all)
		snprintf(r->why, sizeof r->why, fmt, a, b);
	r->all = true;
}

static void add_prog(struct dm_result *r, const char *prog)
{
	for (size_t i = 0; i < r->nprogs; i++)
		if (!strcmp(r->progs[i], prog))
			return;
	r->progs = xrealloc(r->progs, (r->nprogs + 1) * sizeof *r->progs);
	r->progs[r->nprogs++] = xstrdup(prog);
}

/* The programs cover_programs wrote, one by one. */
static void add_progs(struct dm_result *r, char *list)
{
	char *save = NULL;
	for (char *p = strtok_r(list, " ", &save); p; p = strtok_r(NULL, " ", &save))
		add_prog(r, p);
}

/* Every program that executed a line of the map's function fn. */
static void fn_progs(const struct cover_map *m, const struct cover_fn *fn, struct dm_result *r,
		     char *buf)
{
	for (int l = fn->first; l <= fn->last; l++)
		if (cover_programs(m, fn->file, l, buf, DM_PROGS_BUF))
			add_progs(r, buf);
}

/* Is the base file the map's source: every function the map lists for it
 * where the base has it (starting at its name or brace, ending at its
 * closing brace)? */
static bool same_source(const struct cover_map *m, const char *path, const struct dm_fn *fns,
			size_t nfns)
{
	bool any = false;
	for (size_t i = 0; i < nfns; i++) {
		const struct cover_fn *f = cover_fn_named(m, path, fns[i].name);
		if (!f)
			continue;
		any = true;
		if ((f->first != fns[i].start && f->first != fns[i].brace) ||
		    f->last != fns[i].end)
			return false;
	}
	return any;
}

/* The contents of path at rev (NULL: the working file). */
static char *contents(const char *tree, const char *rev, const char *path, char *err,
		      size_t errlen)
{
	if (!rev) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", tree, path);
		char *t = ku_read_file(p, NULL);
		if (!t)
			snprintf(err, errlen, "%s: %s", p, strerror(errno));
		return t;
	}
	return dm_git_show(tree, rev, path, err, errlen);
}

/* A changed line's function, by name in the map; NULL (everything) when it
 * is outside every function or the map does not know it. */
static const struct cover_fn *map_fn(const struct cover_map *m, const char *path,
				     const struct dm_fn *fns, size_t nfns, int line,
				     struct dm_result *r)
{
	const struct dm_fn *f = fn_at(fns, nfns, line);
	char where[PATH_MAX + 32];
	snprintf(where, sizeof where, "%s:%d", path, line);
	if (!f) {
		everything(r, "%s: outside every function (a declaration, macro or "
			   "initializer)%s", where, "");
		return NULL;
	}
	const struct cover_fn *cf = cover_fn_named(m, path, f->name);
	if (!cf)
		everything(r, "%s: %s is a function the map does not know", where, f->name);
	return cf;
}

/* Is line l of text only blanks (it changes no code)? */
static bool blank_line(const char *text, int l)
{
	const char *p = text;
	for (int i = 1; i < l && p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return false;
	for (; *p && *p != '\n'; p++)
		if (!isspace((unsigned char)*p))
			return false;
	return true;
}

static int map_file(const struct cover_map *m, const struct dm_file *f, const char *tree,
		    const char *base, struct dm_result *r, char *buf, char *err, size_t errlen)
{
	const char *p = f->path;
	if (not_built(p))
		return 0;
	if (f->binary || f->created || f->deleted || f->renamed) {
		everything(r, "%s: %s", p, f->binary ? "a binary file" : f->created ? "a new file" :
			   f->deleted ? "a deleted file" : "a renamed file");
		return 0;
	}
	if (!ends_with(p, ".c")) {
		bool build = ends_with(p, "Makefile") || ends_with(p, "Kbuild") ||
			     !strncmp(strrchr(p, '/') ? strrchr(p, '/') + 1 : p, "Kconfig", 7) ||
			     !strncmp(p, "scripts/", 8) || ends_with(p, ".mk");
		everything(r, "%s: %s", p, ends_with(p, ".h") ? "a header" :
			   build ? "a build change" : "a file the map does not know");
		return 0;
	}
	char *old = contents(tree, base, p, err, errlen);
	char *cur = old ? contents(tree, NULL, p, err, errlen) : NULL;
	if (!old || !cur) {
		free(old);
		free(cur);
		return -1;
	}
	struct dm_fn *ofn = NULL, *nfn = NULL;
	size_t no = dm_functions(old, &ofn), nn = dm_functions(cur, &nfn);
	bool known = false;
	for (size_t i = 0; i < no && !known; i++)
		known = cover_fn_named(m, p, ofn[i].name) != NULL;
	if (!known) {
		everything(r, "%s: %s", p, "a file the map does not know");
		goto out;
	}
	r->nfiles++;
	bool lines = same_source(m, p, ofn, no);
	r->by_function |= !lines;
	for (size_t h = 0; h < f->nhunks && !r->all; h++) {
		const struct dm_hunk *k = &f->hunks[h];
		/* Removed or replaced lines of the base: in the map's own source
		 * a line it lists gives its programs; any other line its
		 * function's. */
		bool exact = lines && k->oc > 0;
		for (int l = k->os; l < k->os + k->oc && !r->all; l++) {
			if (blank_line(old, l))
				continue;
			const struct cover_fn *cf = map_fn(m, p, ofn, no, l, r);
			if (!cf)
				break;
			r->nlines++;
			if (lines && cover_find(m, p, l)) {
				if (cover_programs(m, p, l, buf, DM_PROGS_BUF))
					add_progs(r, buf);
			} else {
				exact = false;
				fn_progs(m, cf, r, buf);
			}
		}
		/* The new lines: in a function the map knows (by name in the new
		 * version).  An insertion, or a replacement not mapped line by
		 * line, reaches whoever runs that function; a replacement of
		 * mapped lines stands where they stood: counted with them. */
		for (int l = k->ns; l < k->ns + k->nc && !r->all; l++) {
			if (blank_line(cur, l))
				continue;
			const struct cover_fn *cf = map_fn(m, p, nfn, nn, l, r);
			if (!cf)
				break;
			r->nlines += k->oc == 0;
			if (!exact)
				fn_progs(m, cf, r, buf);
		}
	}
out:
	free(ofn);
	free(nfn);
	free(old);
	free(cur);
	return 0;
}

int dm_map(const struct cover_map *m, const struct dm_diff *d, const char *tree,
	   const char *base, struct dm_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	char *buf = xrealloc(NULL, DM_PROGS_BUF);
	int rc = 0;
	for (size_t i = 0; i < d->n && !r->all && rc == 0; i++)
		rc = map_file(m, &d->v[i], tree, base, r, buf, err, errlen);
	free(buf);
	r->known = xrealloc(NULL, (m->nprogs + 1) * sizeof *r->known);
	for (size_t i = 0; i < m->nprogs; i++)
		if (cover_knows(m, m->progs[i])) /* a stale one is unknown: selected */
			r->known[r->nknown++] = xstrdup(m->progs[i]);
	if (r->all) {
		for (size_t i = 0; i < r->nprogs; i++)
			free(r->progs[i]);
		free(r->progs);
		r->progs = NULL;
		r->nprogs = 0;
	}
	return rc;
}

void dm_result_free(struct dm_result *r)
{
	for (size_t i = 0; i < r->nprogs; i++)
		free(r->progs[i]);
	free(r->progs);
	for (size_t i = 0; i < r->nknown; i++)
		free(r->known[i]);
	free(r->known);
	memset(r, 0, sizeof *r);
}

bool dm_selects(const struct dm_result *r, const char *prog)
{
	if (r->all)
		return true;
	/* Only files the build never reads changed (Documentation/ ...): the
	 * kernel is the one before, for the map's programs and any other. */
	if (r->nfiles == 0)
		return false;
	for (size_t i = 0; i < r->nprogs; i++)
		if (!strcmp(r->progs[i], prog))
			return true;
	for (size_t i = 0; i < r->nknown; i++)
		if (!strcmp(r->known[i], prog))
			return false;
	return true;
}
