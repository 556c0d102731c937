/* diffmap.c: a git diff of the tty layer mapped to the programs that reach
 * it through the coverage map (diffmap.h). */
#include "diffmap.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define DM_GIT_MS 120000
#define DM_PROGS_BUF 65536

/* ---- parsing `git diff -U0` ---- */

static struct dm_file *new_file(struct dm_diff *d)
{
	d->v = xrealloc(d->v, (d->n + 1) * sizeof *d->v);
	struct dm_file *f = &d->v[d->n++];
	memset(f, 0, sizeof *f);
	return f;
}

/* "a/x b/y" of a diff --git line: the b/ path (quoted names kept whole). */
static char *git_path(const char *l, const char *prefix)
{
	const char *p = strstr(l, prefix);
	if (!p)
		return NULL;
	p += strlen(prefix);
	size_t n = strcspn(p, "\t\n");
	char *s = xrealloc(NULL, n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

int dm_parse(const char *text, struct dm_diff *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	struct dm_file *f = NULL;
	int lineno = 0;
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = xrealloc(NULL, len + 1);
		memcpy(line, l, len);
		line[len] = '\0';
		lineno++;
		if (!strncmp(line, "diff --git ", 11)) {
			f = new_file(d);
			const char *b = strstr(line, " b/");
			f->path = b ? xstrdup(b + 3) : xstrdup(line + 11);
		} else if (!f) {
			/* text before the first file (none from git) */
		} else if (!strncmp(line, "new file mode", 13)) {
			f->created = true;
		} else if (!strncmp(line, "deleted file mode", 17)) {
			f->deleted = true;
		} else if (!strncmp(line, "rename from", 11) || !strncmp(line, "copy from", 9)) {
			f->renamed = true;
		} else if (!strncmp(line, "Binary files", 12) || !strncmp(line, "GIT binary patch", 16)) {
			f->binary = true;
		} else if (!strncmp(line, "--- a/", 6) && f->deleted) {
			free(f->path);
			f->path = git_path(line, "--- a/");
		} else if (!strncmp(line, "@@ -", 4)) {
			int os = 0, oc = 1, ns = 0, nc = 1;
			const char *p = line + 4;
			char *end;
			os = (int)strtol(p, &end, 10);
			if (*end == ',')
				oc = (int)strtol(end + 1, &end, 10);
			if (strncmp(end, " +", 2) != 0) {
				snprintf(err, errlen, "diff line %d: a hunk header I cannot read: %.100s",
					 lineno, line);
				free(line);
				dm_diff_free(d);
				return -1;
			}
			ns = (int)strtol(end + 2, &end, 10);
			if (*end == ',')
				nc = (int)strtol(end + 1, &end, 10);
			f->hunks = xrealloc(f->hunks, (f->nhunks + 1) * sizeof *f->hunks);
			f->hunks[f->nhunks++] = (struct dm_hunk){ os, oc, ns, nc };
		}
		free(line);
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

void dm_diff_free(struct dm_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].path);
		free(d->v[i].hunks);
	}
	free(d->v);
	memset(d, 0, sizeof *d);
}

/* ---- git ---- */

/* Run git in tree with its stdout into a malloc'd string. */
static char *git_out(const char *tree, const char *const *args, char *err, size_t errlen)
{
	char out[] = "/tmp/ttypot-diffmap.XXXXXX", errf[] = "/tmp/ttypot-diffmap-err.XXXXXX";
	int fd = mkstemp(out), fd2 = mkstemp(errf);
	if (fd < 0 || fd2 < 0) {
		snprintf(err, errlen, "mkstemp: %s", strerror(errno));
		if (fd >= 0)
			close(fd), unlink(out);
		if (fd2 >= 0)
			close(fd2), unlink(errf);
		return NULL;
	}
	close(fd);
	close(fd2);
	const char *argv[16];
	size_t n = 0;
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = tree;
	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	struct proc_opts o = { .stdout_path = out, .stderr_path = errf, .deadline_ms = DM_GIT_MS };
	struct proc_result *r = xrealloc(NULL, sizeof *r);
	proc_run(argv, &o, r);
	char *text = ku_read_file(out, NULL);
	if (r->status != 0 || !text) {
		char *e = ku_read_file(errf, NULL);
		if (e)
			e[strcspn(e, "\n")] = '\0';
		snprintf(err, errlen, "git -C %s %s %s: %s", tree, args[0], args[1] ? args[1] : "",
			 e && *e ? e : r->err[0] ? r->err : "failed");
		free(e);
		free(text);
		text = NULL;
	}
	free(r);
	unlink(out);
	unlink(errf);
	return text;
}

int dm_git_diff(const char *tree, const char *base, struct dm_diff *d, char *err,
		size_t errlen)
{
	memset(d, 0, sizeof *d);
	/* The working files against base: what the tree's build compiles. */
	const char *args[] = { "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0",
			       base, "--", NULL };
	char *text = git_out(tree, args, err, errlen);
	if (!text)
		return -1;
	int rc = dm_parse(text, d, err, errlen);
	free(text);
	return rc;
}

int dm_bisect_base(const char *tree, char *rev, size_t revlen, char *err, size_t errlen)
{
	const char *refs[] = { "for-each-ref", "--format=%(objectname)", "refs/bisect/", NULL };
	char *goods = git_out(tree, refs, err, errlen);
	if (!goods)
		return -1;
	long best = -1;
	char *save = NULL;
	for (char *g = strtok_r(goods, "\n", &save); g; g = strtok_r(NULL, "\n", &save)) {
		/* only refs/bisect/good-*: ask for them by name */
		char range[160];
		snprintf(range, sizeof range, "%s..HEAD", g);
		const char *isgood[] = { "for-each-ref", "--points-at", g, "refs/bisect/good-*",
					 NULL };
		char *names = git_out(tree, isgood, err, errlen);
		bool good = names && *names;
		free(names);
		const char *anc[] = { "merge-base", "--is-ancestor", g, "HEAD", NULL };
		char *a = good ? git_out(tree, anc, err, errlen) : NULL;
		if (!a)
			continue;
		free(a);
		const char *cnt[] = { "rev-list", "--count", range, NULL };
		char *c = git_out(tree, cnt, err, errlen);
		long n = c ? atol(c) : -1;
		free(c);
		if (n >= 0 && (best < 0 || n < best)) {
			best = n;
			snprintf(rev, revlen, "%s", g);
		}
	}
	free(goods);
	if (best >= 0)
		return 0;
	const char *parent[] = { "rev-parse", "--verify", "HEAD^", NULL };
	char *p = git_out(tree, parent, err, errlen);
	if (!p)
		return -1;
	p[strcspn(p, "\n")] = '\0';
	snprintf(rev, revlen, "%s", p);
	free(p);
	return 0;
}

/* ---- functions of a C file ---- */

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

static const struct dm_fn *fn_at(const struct dm_fn *v, size_t n, int line)
{
	for (size_t i = 0; i < n; i++)
		if (line >= v[i].start && line <= v[i].end)
			return &v[i];
	return NULL;
}

/* ---- the mapping ---- */

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
	char spec[PATH_MAX + 64];
	snprintf(spec, sizeof spec, "%s:%s", rev, path);
	const char *args[] = { "show", spec, NULL };
	return git_out(tree, args, err, errlen);
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
	for (size_t i = 0; i < r->nprogs; i++)
		if (!strcmp(r->progs[i], prog))
			return true;
	for (size_t i = 0; i < r->nknown; i++)
		if (!strcmp(r->known[i], prog))
			return false;
	return true;
}
