// SPDX-License-Identifier: GPL-2.0-only
/* t_rcache: the result cache with real guest runs of Debian's current
 * linux-image-amd64.  A run keeps its column; `ttypot ci` then reads the
 * baseline from the cache (not run; its heading says from which run), ci
 * --fresh runs it again, and after a case binary changes `matrix --reuse`
 * misses and runs.  The suite is a copy with a file of this test's own in
 * fixtures/, so its key is new: the first run is always a miss. */
#include <atf-c.h>

#include "e2e.h"
#include "kutil.h"
#include "rbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KERNEL "deb:linux-image-amd64"
#define CASES "pty/t_echo"
#define NCASES 8
/* Download, unpack, initramfs, boot and run under TCG on a loaded machine. */
#define RUN_DEADLINE_S 600

static char dir[64], suite[128], ttypot[1024];

static void setup(const atf_tc_t *tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	snprintf(ttypot, sizeof ttypot, "%s/../ttypot", src);
	ATF_REQUIRE_MSG(access(ttypot, X_OK) == 0, "%s not built", ttypot);
	snprintf(dir, sizeof dir, "/tmp/ttypot-rcache.XXXXXX");
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	snprintf(suite, sizeof suite, "%s/suite", dir);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "mkdir %s && cp -a %s/../../Kyuafile %s/../../cases "
		 "%s/../../fixtures %s/", suite, src, src, src, suite);
	ATF_REQUIRE_MSG(system(cmd) == 0, "cannot copy the suite: %s", cmd);
	/* This run's own suite: a key no earlier run has. */
	char nonce[160], text[64], p[192];
	snprintf(nonce, sizeof nonce, "%s/fixtures/rcache-test-nonce", suite);
	snprintf(text, sizeof text, "%ld %ld\n", (long)getpid(), (long)time(NULL));
	ATF_REQUIRE(ku_write_file(nonce, text, strlen(text)) == 0);
	snprintf(p, sizeof p, "%s/tree", dir); /* not a kernel tree: ci's tree fails fast */
	ATF_REQUIRE(ku_mkdir_p(p, 0755) == 0);
}

/* ttypot with argv words after the command; its log is DIR/name.log, and
 * goes to stderr too: a failed run shows in Kyua's report after DIR is gone. */
static int run(const char *name, char *const words[])
{
	char *argv[32], log[128];
	size_t n = 0;
	argv[n++] = ttypot;
	for (size_t i = 0; words[i] && n < 31; i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	snprintf(log, sizeof log, "%s/%s.log", dir, name);
	return e2e_run_logged(argv, RUN_DEADLINE_S, log, name);
}

static char *slurp(const char *name)
{
	char p[160];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	char *t = ku_read_file(p, NULL);
	ATF_REQUIRE_MSG(t != NULL, "%s: %s", p, strerror(errno));
	return t;
}

/* matrix.csv of run name without its header: the cells. */
static char *cells(const char *name)
{
	char p[160];
	snprintf(p, sizeof p, "%s/matrix.csv", name);
	char *t = slurp(p);
	char *body = strchr(t, '\n');
	char *out = xstrdup(body ? body + 1 : "");
	free(t);
	return out;
}

/* The log of name says the column ran (booted) or was read from the cache. */
static void check_ran(const char *name, bool cached)
{
	char p[64];
	snprintf(p, sizeof p, "%s.log", name);
	char *log = slurp(p);
	snprintf(p, sizeof p, "%s/matrix.json", name);
	char *json = slurp(p);
	if (cached) {
		ATF_CHECK_MSG(strstr(log, "not run: cached from the run of") != NULL,
			      "%s: no 'not run: cached' line", name);
		ATF_CHECK_MSG(strstr(log, "booting") == NULL, "%s: a guest booted", name);
		ATF_CHECK_MSG(strstr(json, "\"cached\": \"cached from the run of") != NULL,
			      "%s: matrix.json has no cached column", name);
	} else {
		ATF_CHECK_MSG(strstr(log, "booting") != NULL, "%s: no guest booted", name);
		ATF_CHECK_MSG(strstr(log, "not run: cached") == NULL, "%s: read from the cache",
			      name);
		ATF_CHECK_MSG(strstr(json, "\"cached\"") == NULL, "%s: a cached column", name);
	}
	free(log);
	free(json);
}

ATF_TC(hit_fresh_and_miss);
ATF_TC_HEAD(hit_fresh_and_miss, tc)
{
	atf_tc_set_md_var(tc, "descr", "a finished guest column is kept; ci reads its baseline "
			  "from the cache (same cells, heading naming the run it came from); ci "
			  "--fresh boots it again; a changed case binary is a miss that boots");
	atf_tc_set_md_var(tc, "timeout", "2400");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
}
ATF_TC_BODY(hit_fresh_and_miss, tc)
{
	setup(tc);
	char o1[96], o2[96], o3[96], o4[96], tree[96];
	snprintf(o1, sizeof o1, "%s/first", dir);
	snprintf(o2, sizeof o2, "%s/hit", dir);
	snprintf(o3, sizeof o3, "%s/fresh", dir);
	snprintf(o4, sizeof o4, "%s/changed", dir);
	snprintf(tree, sizeof tree, "%s/tree", dir);

	/* 1: a plain matrix runs the column and keeps it. */
	char *m1[] = { "matrix", "--suite", suite, "-o", o1, "--cases", CASES, KERNEL, NULL };
	ATF_REQUIRE_EQ_MSG(run("first", m1), 0, "ttypot matrix failed; see %s/first.log", dir);
	check_ran("first", false);

	/* 2: ci reads that baseline from the cache (its tree does not build:
	 * exit 3, and the baseline column is there all the same). */
	char *c2[] = { "ci", "--tree", tree, "--baseline", KERNEL, "--suite", suite, "-o", o2,
		       "--cases", CASES, NULL };
	ATF_CHECK_EQ(run("hit", c2), 3);
	check_ran("hit", true);
	char *j2 = slurp("hit/matrix.json");
	ATF_CHECK_MSG(strstr(j2, o1) != NULL, "the cached heading does not name %s", o1);
	free(j2);
	char *a = cells("first"), *b = cells("hit");
	/* the hit's rows carry one more column (the tree's): compare the baseline's */
	for (char *l = a, *k = b; *l; ) {
		size_t n = strcspn(l, "\r\n");
		ATF_CHECK_MSG(strncmp(l, k, n) == 0 && k[n] == ',',
			      "cell rows differ: '%.*s' vs '%.*s'", (int)n, l,
			      (int)strcspn(k, "\r\n"), k);
		l += n;
		l += strspn(l, "\r\n");
		k += strcspn(k, "\r\n");
		k += strspn(k, "\r\n");
	}
	ATF_CHECK_MSG(strlen(a) > 0 && strstr(a, ":") != NULL, "no cells in first/matrix.csv");
	free(a);
	free(b);

	/* 3: ci --fresh boots the baseline again. */
	char *c3[] = { "ci", "--fresh", "--tree", tree, "--baseline", KERNEL, "--suite", suite,
		       "-o", o3, "--cases", CASES, NULL };
	ATF_CHECK_EQ(run("fresh", c3), 3);
	check_ran("fresh", false);

	/* 4: a changed case binary (bytes appended: it still runs) misses. */
	char bin[160], cmd[256];
	snprintf(bin, sizeof bin, "%s/cases/%s", suite, CASES);
	snprintf(cmd, sizeof cmd, "printf 'ttypot rcache test' >> %s", bin);
	ATF_REQUIRE(system(cmd) == 0);
	char *m4[] = { "matrix", "--reuse", "--suite", suite, "-o", o4, "--cases", CASES, KERNEL,
		       NULL };
	ATF_CHECK_EQ_MSG(run("changed", m4), 0, "see %s/changed.log", dir);
	check_ran("changed", false);
	char *log = slurp("changed.log");
	ATF_CHECK_MSG(strstr(log, "not in the result cache") != NULL,
		      "changed.log: no miss reported");
	free(log);

	/* The entries this suite made go with it. */
	char cache[1024], rm[2400];
	ku_default_cache(cache, sizeof cache);
	snprintf(rm, sizeof rm, "grep -l -F '%s/suite' %s/results/*/*/key 2>/dev/null | "
		 "xargs -r -n1 dirname | xargs -r rm -rf", dir, cache);
	ATF_CHECK(system(rm) == 0);
	if (!atf_tc_get_config_var_as_bool_wd(tc, "keep_e2e", false))
		ku_rm_rf(dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hit_fresh_and_miss);
	return atf_no_error();
}
