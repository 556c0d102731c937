// SPDX-License-Identifier: GPL-2.0-only
/* patchsel.c: the mutants of a patch (patchsel.h). */
#include "patchsel.h"
#include "arid.h"
#include "kutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* git's output, its first line only ("" when none). */
static char *git_line(const char *tree, const char *const *args, char *err, size_t errlen)
{
	char *t = dm_git(tree, args, err, errlen);
	if (t)
		t[strcspn(t, "\n")] = '\0';
	return t;
}

static int known_rev(const struct ps_change *c, const char *rev, char *err, size_t errlen)
{
	char spec[200], gerr[300];
	snprintf(spec, sizeof spec, "%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	char *t = git_line(c->tree, args, gerr, sizeof gerr);
	if (!t) {
		snprintf(err, errlen, "--diff %s: git does not know the revision %s in %s",
			 c->spec, rev, c->tree);
		return -1;
	}
	free(t);
	return 0;
}

/* With A..B: every changed file's working copy is B's. */
static int working_is_to(const struct ps_change *c, char *err, size_t errlen)
{
	const char *args[] = { "diff", "--name-only", "--no-renames", c->to, "--", NULL };
	char *names = dm_git(c->tree, args, err, errlen);
	if (!names)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < c->diff.n && rc == 0; i++) {
		const char *p = c->diff.v[i].path;
		size_t pl = strlen(p);
		for (const char *l = names; *l && rc == 0;) {
			size_t ll = strcspn(l, "\n");
			if (ll == pl && !strncmp(l, p, pl)) {
				snprintf(err, errlen, "--diff %s: %s/%s is not %s's (the working "
					 "files are what is built): check out %s, or give --diff %s "
					 "for the working files", c->spec, c->tree, p, c->to, c->to,
					 c->from);
				rc = -1;
			}
			l += ll + (l[ll] == '\n');
		}
	}
	free(names);
	return rc;
}

int ps_read(const char *tree, const char *spec, struct ps_change *c, char *err,
	    size_t errlen)
{
	memset(c, 0, sizeof *c);
	snprintf(c->spec, sizeof c->spec, "%s", spec);
	if (!realpath(tree, c->tree)) {
		snprintf(err, errlen, "--tree %s: %s", tree, strerror(errno));
		return -1;
	}
	char gerr[600];
	const char *top_args[] = { "rev-parse", "--show-toplevel", NULL };
	char *top = git_line(c->tree, top_args, gerr, sizeof gerr);
	if (!top) {
		snprintf(err, errlen, "--tree %s: not a git tree (%s)", tree, gerr);
		return -1;
	}
	bool same = !strcmp(top, c->tree);
	if (!same)
		snprintf(err, errlen, "--tree %s is inside the git tree %s, not its top: give "
			 "--tree %s", tree, top, top);
	free(top);
	if (!same)
		return -1;
	const char *dots = strstr(spec, "..");
	if (dots && dots[2] == '.') {
		snprintf(err, errlen, "--diff %s: give REV or A..B (A...B is not read)", spec);
		return -1;
	}
	if (dots) {
		snprintf(c->from, sizeof c->from, "%.*s", (int)(dots - spec), spec);
		snprintf(c->to, sizeof c->to, "%s", dots + 2);
		if (!c->from[0] || !c->to[0]) {
			snprintf(err, errlen, "--diff %s: give REV or A..B", spec);
			return -1;
		}
	} else {
		snprintf(c->from, sizeof c->from, "%s", spec);
	}
	if (!spec[0] || known_rev(c, c->from, err, errlen) < 0 ||
	    (c->to[0] && known_rev(c, c->to, err, errlen) < 0)) {
		if (!spec[0])
			snprintf(err, errlen, "--diff: give REV or A..B");
		return -1;
	}
	const char *head_args[] = { "rev-parse", "HEAD", NULL };
	char *head = git_line(c->tree, head_args, gerr, sizeof gerr);
	snprintf(c->head, sizeof c->head, "%s", head ? head : "");
	free(head);
	if (!c->to[0])
		return dm_git_diff(c->tree, c->from, &c->diff, err, errlen);
	const char *args[] = { "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0",
			       c->from, c->to, "--", NULL };
	char *text = dm_git(c->tree, args, err, errlen);
	if (!text)
		return -1;
	int rc = dm_parse(text, &c->diff, err, errlen);
	free(text);
	return rc == 0 ? working_is_to(c, err, errlen) : rc;
}

void ps_free(struct ps_change *c)
{
	dm_diff_free(&c->diff);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

size_t ps_files(const struct ps_change *c, struct rbuf *files, struct rbuf *others)
{
	size_t n = 0;
	for (size_t i = 0; i < c->diff.n; i++) {
		const struct dm_file *f = &c->diff.v[i];
		if (!f->deleted && !f->binary && ends_with(f->path, ".c") &&
		    !strncmp(f->path, "drivers/tty/", 12)) {
			rbuf_addf(files, "%s%s", files->len ? "," : "", f->path);
			n++;
		} else {
			rbuf_addf(others, "%s%s", others->len ? " " : "", f->path);
		}
	}
	return n;
}

const struct dm_file *ps_file(const struct dm_diff *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].path, path))
			return &d->v[i];
	return NULL;
}

bool ps_touches(const struct dm_file *f, int l1, int l2)
{
	for (size_t h = 0; h < f->nhunks; h++) {
		const struct dm_hunk *k = &f->hunks[h];
		if (k->nc > 0 && l1 < k->ns + k->nc && l2 >= k->ns)
			return true;
	}
	return false;
}

void ps_select(const struct dm_diff *d, const struct gmut *v, size_t n,
	       const char *(*file_text)(const void *ctx, const char *file),
	       const void *ctx, unsigned char *pick, struct ps_counts *k)
{
	for (size_t i = 0; i < n;) {
		/* one file at a time (gen_finish sorts by file) */
		const char *file = v[i].m.file;
		size_t j = i;
		while (j < n && !strcmp(v[j].m.file, file))
			j++;
		const struct dm_file *f = ps_file(d, file);
		const char *text = file_text(ctx, file);
		if (f && text) {
			struct arid a;
			arid_scan(text, &a);
			for (size_t x = i; x < j; x++) {
				const struct mutant *m = &v[x].m;
				if (!ps_touches(f, m->line, m->end_line))
					continue;
				k->touched++;
				if (v[x].constant)
					k->constant++;
				else if (arid_span(&a, m->line, m->end_line))
					k->arid++;
				else {
					pick[x] = 1;
					k->picked++;
				}
			}
			arid_free(&a);
		}
		i = j;
	}
	/* The changed lines, every file's, arid or not. */
	for (size_t i = 0; i < d->n; i++) {
		const struct dm_file *f = &d->v[i];
		const char *text = file_text(ctx, f->path);
		if (!text)
			continue;
		struct arid a;
		arid_scan(text, &a);
		for (size_t h = 0; h < f->nhunks; h++)
			for (int l = f->hunks[h].ns; l < f->hunks[h].ns + f->hunks[h].nc; l++) {
				k->lines++;
				k->arid_lines += arid_why(&a, l) != NULL;
			}
		arid_free(&a);
	}
}

int ps_fn_programs(const struct cover_map *m, const char *file, const char *func,
		   struct rbuf *out)
{
	const struct cover_fn *f = func[0] ? cover_fn_named(m, file, func) : NULL;
	if (!f)
		return -1;
	int n = 0;
	char *buf = xrealloc(NULL, 65536);
	for (int l = f->first; l <= f->last; l++) {
		if (!cover_programs(m, file, l, buf, 65536))
			continue;
		char *save = NULL;
		for (char *p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
			size_t pl = strlen(p);
			bool have = false;
			for (const char *q = out->len ? out->s : ""; *q && !have;) {
				size_t ql = strcspn(q, " ");
				have = ql == pl && !strncmp(q, p, pl);
				q += ql + (q[ql] == ' ');
			}
			if (!have) {
				rbuf_addf(out, "%s%s", out->len ? " " : "", p);
				n++;
			}
		}
	}
	free(buf);
	return n;
}
