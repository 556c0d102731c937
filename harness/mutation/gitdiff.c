// SPDX-License-Identifier: GPL-2.0-only
/* gitdiff.c: `git diff -U0` read into hunks, and the git calls diffmap
 * makes (diffmap.h). */
#include "diffmap.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define DM_GIT_MS 120000

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

char *dm_git(const char *tree, const char *const *args, char *err, size_t errlen)
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
	char *text = dm_git(tree, args, err, errlen);
	if (!text)
		return -1;
	int rc = dm_parse(text, d, err, errlen);
	free(text);
	return rc;
}

int dm_bisect_base(const char *tree, char *rev, size_t revlen, char *err, size_t errlen)
{
	const char *refs[] = { "for-each-ref", "--format=%(objectname)", "refs/bisect/good-*",
			       NULL };
	char *goods = dm_git(tree, refs, err, errlen);
	if (!goods)
		return -1;
	long best = -1;
	char *save = NULL;
	for (char *g = strtok_r(goods, "\n", &save); g; g = strtok_r(NULL, "\n", &save)) {
		char range[160];
		snprintf(range, sizeof range, "%s..HEAD", g);
		const char *anc[] = { "merge-base", "--is-ancestor", g, "HEAD", NULL };
		char *a = dm_git(tree, anc, err, errlen);
		if (!a)
			continue;
		free(a);
		const char *cnt[] = { "rev-list", "--count", range, NULL };
		char *c = dm_git(tree, cnt, err, errlen);
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
	char *p = dm_git(tree, parent, err, errlen);
	if (!p)
		return -1;
	p[strcspn(p, "\n")] = '\0';
	snprintf(rev, revlen, "%s", p);
	free(p);
	return 0;
}

char *dm_git_show(const char *tree, const char *rev, const char *path, char *err,
		  size_t errlen)
{
	char spec[PATH_MAX + 64];
	snprintf(spec, sizeof spec, "%s:%s", rev, path);
	const char *args[] = { "show", spec, NULL };
	return dm_git(tree, args, err, errlen);
}
