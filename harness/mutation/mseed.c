// SPDX-License-Identifier: GPL-2.0-only
/* mseed.c: may a user's tree reuse the src: build's objects (mseed.h). */
#define _XOPEN_SOURCE 700
#include "mseed.h"
#include "kutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* nftw has no argument for its callback: one walk at a time. */
static struct {
	const char *pristine;
	size_t rootlen;
	struct rbuf *differ;
	char *why;
	size_t whylen;
	int verdict; /* 1 so far, 0 or -1 once decided */
} walk;

static bool read_all(int fd, char *buf, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		buf += r;
		n -= (size_t)r;
	}
	return true;
}

static bool same_bytes(const char *a, const char *b, off_t size)
{
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);
	bool same = fa >= 0 && fb >= 0;
	char ba[65536], bb[65536];
	for (off_t left = size; same && left > 0;) {
		size_t want = left < (off_t)sizeof ba ? (size_t)left : sizeof ba;
		same = read_all(fa, ba, want) && read_all(fb, bb, want) &&
		       !memcmp(ba, bb, want);
		left -= (off_t)want;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	const char *rel = path + walk.rootlen;
	while (*rel == '/')
		rel++;
	const char *base = path + f->base;
	if (type == FTW_D && !strcmp(base, ".git"))
		return FTW_SKIP_SUBTREE;
	if (type == FTW_D || type == FTW_DP)
		return FTW_CONTINUE;
	/* the unpack's and the schemata tree's own markers */
	if (!strncmp(base, ".ttypot-", 8))
		return FTW_CONTINUE;
	if (type != FTW_F && type != FTW_SL) {
		snprintf(walk.why, walk.whylen, "%s: cannot read", rel);
		walk.verdict = -1;
		return FTW_STOP;
	}
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", walk.pristine, rel);
	struct stat ps;
	if (lstat(p, &ps) < 0) {
		snprintf(walk.why, walk.whylen, "%s is not in the source", rel);
		walk.verdict = 0;
		return FTW_STOP;
	}
	if (ps.st_dev == st->st_dev && ps.st_ino == st->st_ino)
		return FTW_CONTINUE;
	bool same = S_ISREG(ps.st_mode) && S_ISREG(st->st_mode) && ps.st_size == st->st_size &&
		    same_bytes(p, path, st->st_size);
	if (S_ISLNK(ps.st_mode) && S_ISLNK(st->st_mode)) { /* a clone's own links */
		char a[PATH_MAX], b[PATH_MAX];
		ssize_t la = readlink(p, a, sizeof a), lb = readlink(path, b, sizeof b);
		same = la >= 0 && la == lb && !memcmp(a, b, (size_t)la);
	}
	if (same)
		return FTW_CONTINUE;
	size_t l = strlen(rel);
	/* tools/ and scripts/ build the build's own programs (objtool ...) */
	bool tool = !strncmp(rel, "tools/", 6) || !strncmp(rel, "scripts/", 8);
	if (l < 2 || strcmp(rel + l - 2, ".c") || !S_ISREG(st->st_mode) || tool) {
		snprintf(walk.why, walk.whylen, "%s differs from the source and is %s", rel,
			 tool ? "a build tool's" : "no C file");
		walk.verdict = 0;
		return FTW_STOP;
	}
	rbuf_addf(walk.differ, "%s\n", rel);
	return FTW_CONTINUE;
}

int mseed_check(const char *pristine, const char *tree, struct rbuf *differ, char *why,
		size_t whylen)
{
	why[0] = '\0';
	walk.pristine = pristine;
	walk.rootlen = strlen(tree);
	walk.differ = differ;
	walk.why = why;
	walk.whylen = whylen;
	walk.verdict = 1;
	if (nftw(tree, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0) {
		snprintf(why, whylen, "%s: %s", tree, strerror(errno));
		return -1;
	}
	return walk.verdict;
}

int mseed_refresh(const char *tree, const char *list, char *err, size_t errlen)
{
	for (const char *l = list; l && *l;) {
		size_t n = strcspn(l, "\n");
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%.*s", tree, (int)n, l);
		size_t len = 0;
		char *text = ku_read_file(path, &len);
		/* unlinked first: never through a hard link into the user's tree */
		if (!text || unlink(path) < 0 || ku_write_file(path, text, len) < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(text);
			return -1;
		}
		free(text);
		l += n + (l[n] == '\n');
	}
	return 0;
}
