// SPDX-License-Identifier: GPL-2.0-only
/* rstore.c: entries of the result cache (rcache.h): CACHE/results/XX/KEY/
 * holds results (the results-channel file), meta (when, which run, the
 * outcome, the results' checksum) and key (the inputs, for people). */
#include "rcache.h"
#include "kutil.h"
#include "rbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

static void entry_dir(const char *cache_dir, const struct rcache_key *k, char *out,
		      size_t outlen)
{
	char def[PATH_MAX];
	if (!cache_dir || !*cache_dir) {
		ku_default_cache(def, sizeof def);
		cache_dir = def;
	}
	snprintf(out, outlen, "%s/results/%.2s/%s", cache_dir, k->hex, k->hex);
}

/* The value of "name value" in meta, or "" (a pointer into a static copy). */
static const char *meta_get(const char *meta, const char *name, char *out, size_t outlen)
{
	size_t nl = strlen(name);
	out[0] = '\0';
	for (const char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, name, nl) && l[nl] == ' ') {
			size_t n = strcspn(l + nl + 1, "\n");
			snprintf(out, outlen, "%.*s", (int)n, l + nl + 1);
			break;
		}
	return out;
}

void rcache_hit_note(const struct rcache_hit *h, char *out, size_t outlen)
{
	snprintf(out, outlen, "cached from the run of %s into %s", h->stored, h->run);
}

int rcache_fetch(const char *cache_dir, const struct rcache_key *k,
		 const char *results_path, struct rcache_hit *hit, char *err,
		 size_t errlen)
{
	char dir[PATH_MAX], p[PATH_MAX + 16], v[1024];
	memset(hit, 0, sizeof *hit);
	entry_dir(cache_dir, k, dir, sizeof dir);
	snprintf(p, sizeof p, "%s/meta", dir);
	char *meta = ku_read_file(p, NULL);
	if (!meta)
		return 0;
	snprintf(p, sizeof p, "%s/results", dir);
	char sum[65];
	int rc = 0;
	/* An entry whose results are not what was stored is no entry. */
	if (ku_sha256_file(p, sum) < 0 ||
	    strcmp(sum, meta_get(meta, "sha256", v, sizeof v)) != 0 ||
	    strcmp(meta_get(meta, "end", v, sizeof v), "done") != 0)
		goto out;
	if (ku_copy_file(p, results_path) < 0) {
		snprintf(err, errlen, "cannot copy %s to %s: %s", p, results_path,
			 strerror(errno));
		rc = -1;
		goto out;
	}
	hit->out.end = RUN_DONE;
	snprintf(hit->out.accel, sizeof hit->out.accel, "%s", meta_get(meta, "accel", v, sizeof v));
	hit->out.boot_s = atof(meta_get(meta, "boot_s", v, sizeof v));
	hit->out.suite_s = atof(meta_get(meta, "suite_s", v, sizeof v));
	snprintf(hit->stored, sizeof hit->stored, "%s", meta_get(meta, "stored", v, sizeof v));
	snprintf(hit->run, sizeof hit->run, "%s", meta_get(meta, "run", v, sizeof v));
	rc = 1;
out:
	free(meta);
	return rc;
}

/* One line of meta: no newline may hide in a value. */
static void meta_put(struct rbuf *b, const char *name, const char *value)
{
	rbuf_addf(b, "%s ", name);
	for (const char *c = value; *c; c++)
		rbuf_addc(b, *c == '\n' || *c == '\r' ? ' ' : *c);
	rbuf_addc(b, '\n');
}

int rcache_store(const char *cache_dir, const struct rcache_key *k,
		 const char *results_path, const struct run_outcome *out,
		 const char *run, char *err, size_t errlen)
{
	if (out->end != RUN_DONE) {
		snprintf(err, errlen, "only a finished run is kept");
		return -1;
	}
	char dir[PATH_MAX], tmp[PATH_MAX + 32], p[PATH_MAX + 48], sum[65];
	entry_dir(cache_dir, k, dir, sizeof dir);
	if (ku_tmpdir_beside(dir, tmp, sizeof tmp) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	snprintf(p, sizeof p, "%s/results", tmp);
	if (ku_copy_file(results_path, p) < 0 || ku_sha256_file(p, sum) < 0) {
		snprintf(err, errlen, "cannot copy %s: %s", results_path, strerror(errno));
		ku_rm_rf(tmp);
		return -1;
	}
	char when[32], num[64];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	struct rbuf m = {0};
	meta_put(&m, "stored", when);
	meta_put(&m, "run", run && *run ? run : "?");
	meta_put(&m, "end", "done");
	meta_put(&m, "accel", out->accel);
	snprintf(num, sizeof num, "%.3f", out->boot_s);
	meta_put(&m, "boot_s", num);
	snprintf(num, sizeof num, "%.3f", out->suite_s);
	meta_put(&m, "suite_s", num);
	meta_put(&m, "sha256", sum);
	int rc = 0;
	snprintf(p, sizeof p, "%s/key", tmp);
	if (ku_write_file(p, k->text, strlen(k->text)) < 0)
		rc = -1;
	snprintf(p, sizeof p, "%s/meta", tmp);
	if (rc == 0 && ku_write_file(p, rbuf_str(&m), m.len) < 0)
		rc = -1;
	rbuf_free(&m);
	/* The entry appears whole: the old one (if any) goes, the new one is
	 * renamed into place.  Another run storing the same key at once may
	 * win the rename: its entry is as good as ours. */
	if (rc == 0) {
		ku_rm_rf(dir);
		if (rename(tmp, dir) < 0 && !ku_is_dir(dir))
			rc = -1;
	}
	if (rc < 0)
		snprintf(err, errlen, "cannot write the entry %s: %s", dir, strerror(errno));
	ku_rm_rf(tmp);
	return rc;
}
