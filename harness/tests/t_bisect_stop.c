// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_bisect_stop: the runs of one bisect-run step on a built kernel
 * (bisect_judge, bisect.h), on Debian's linux-image-amd64 under QEMU with a
 * suite of two guest programs (harness/tests/guest/t_bisect_first,
 * t_bisect_flaky).  The first run stops at the first failing case (one that
 * does not fail on the baseline, when there is one) and the re-runs confirm
 * it; --all runs every case; a first failure no re-run repeats makes every
 * case run before the commit may be called good.
 */
#include <atf-c.h>

#include "bisect.h"
#include "e2e.h"
#include "ingest.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KERNEL "deb:linux-image-amd64"
#define FIRST "t_bisect_first"
#define FLAKY "t_bisect_flaky"
/* Per boot; a boot of this suite takes seconds. */
#define BOOT_DEADLINE_S 300

static void copy_or_fail(const char *from, const char *to, bool tree)
{
	char *cp[] = { "cp", tree ? "-r" : "-p", (char *)from, (char *)to, NULL };
	struct rbuf out = {0};
	char err[512];
	int rc = capture_run(cp, NULL, 120, &out, &out, err, sizeof err);
	ATF_REQUIRE_MSG(rc == 0, "cp %s %s: %s %s", from, to, err, rbuf_str(&out));
	rbuf_free(&out);
}

/* A suite of its own in dir: the real fixtures (guest init, reporter) and
 * the two programs, exclusive so that Kyua runs their cases in order. */
static void make_suite(const atf_tc_t *tc, char *dir, size_t len)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char p[PATH_MAX], q[PATH_MAX + 64];
	snprintf(dir, len, "/tmp/ttypot-bisect-stop.XXXXXX");
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	snprintf(p, sizeof p, "%s/../../fixtures", src);
	snprintf(q, sizeof q, "%s/fixtures", dir);
	copy_or_fail(p, q, true);
	snprintf(q, sizeof q, "%s/cases", dir);
	ATF_REQUIRE(mkdir(q, 0755) == 0);
	const char *progs[] = { FIRST, FLAKY };
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/guest/%s", src, progs[i]);
		ATF_REQUIRE_MSG(access(p, X_OK) == 0, "%s not built", p);
		snprintf(q, sizeof q, "%s/cases/%s", dir, progs[i]);
		copy_or_fail(p, q, false);
	}
	static const char kyuafile[] =
		"syntax(2)\ntest_suite(\"ttypot\")\n"
		"atf_test_program{name=\"" FIRST "\", is_exclusive=true}\n"
		"atf_test_program{name=\"" FLAKY "\", is_exclusive=true}\n";
	snprintf(q, sizeof q, "%s/cases/Kyuafile", dir);
	ATF_REQUIRE(ku_write_file(q, kyuafile, strlen(kyuafile)) == 0);
}

struct step {
	char dir[64];
	struct bisect_obs obs;
	struct bisect_found f;
	struct column *first; /* the first run's results as the guest sent them */
	int rc;
};

/* One step's runs of filter on KERNEL, as bisect-run makes them. */
static void judge(const atf_tc_t *tc, const char *filter, const struct column *base,
		  int reruns, bool all, struct step *s)
{
	memset(s, 0, sizeof *s);
	make_suite(tc, s->dir, sizeof s->dir);
	/* the user's kernel cache: Kyua gives each case a fresh HOME */
	char cache[PATH_MAX + 32], work[128], err[1024];
	e2e_user_env("TTYPOT_CACHE", ".cache/ttypot", cache, sizeof cache);
	snprintf(work, sizeof work, "%s/work", s->dir);
	struct kr_env e;
	ATF_REQUIRE_MSG(kr_env_init(&e, s->dir, "ttypot", cache + strlen("TTYPOT_CACHE="), work,
				    BOOT_DEADLINE_S, err, sizeof err) == 0, "%s", err);
	struct kernel_info ki;
	ATF_REQUIRE_MSG(kr_resolve(&e, KERNEL, &ki, NULL, err, sizeof err) == 0, "%s: %s",
			KERNEL, err);
	bisect_judge(&e, &ki, filter, base, reruns, all, &s->obs, &s->f);
	kr_env_free(&e);
	s->rc = bisect_exit_code(&s->obs);
	s->first = col_new("first");
	char p[256];
	snprintf(p, sizeof p, "%s/first.results", work);
	ATF_REQUIRE_MSG(ingest_file(s->first, p, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_MSG(s->obs.begun, "the guest did not reach the suite (see %s)", work);
}

static void done(struct step *s)
{
	col_free(s->first);
	bisect_found_free(&s->f);
	ku_rm_rf(s->dir);
}

/* Index of id in the step's counted failures, -1 absent. */
static long found_at(const struct step *s, const char *id)
{
	for (long i = 0; i < s->f.n; i++)
		if (strcmp(s->f.ids[i], id) == 0)
			return i;
	return -1;
}

#define GUEST_HEAD(tc, what)                                                          \
	do {                                                                          \
		atf_tc_set_md_var(tc, "descr", what);                                 \
		atf_tc_set_md_var(tc, "timeout", "900");                              \
		atf_tc_set_md_var(tc, "require.progs",                               \
				  "qemu-system-x86_64 apt-get dpkg-deb cpio kyua");  \
	} while (0)

ATF_TC(stops_at_the_first_failure);
ATF_TC_HEAD(stops_at_the_first_failure, tc)
{
	GUEST_HEAD(tc, "bisect-run's first run ends at the first failing case (the later "
		   "failing case never runs), and a re-run confirming it makes the step bad");
}
ATF_TC_BODY(stops_at_the_first_failure, tc)
{
	struct step s;
	judge(tc, FIRST, NULL, 2, false, &s);
	ATF_CHECK(s.f.stopped);
	ATF_CHECK_EQ(s.rc, BISECT_BAD);
	ATF_CHECK_EQ(s.f.n, 1);
	long a = found_at(&s, FIRST ":a_fails");
	ATF_CHECK_MSG(a == 0 && s.f.again[0], "a_fails counted and confirmed: at %ld", a);
	ATF_CHECK_MSG(col_find(s.first, FIRST ":c_fails_late") == NULL,
		      "the first run went on to c_fails_late");
	ATF_CHECK_EQ(s.obs.confirmed, 1);
	done(&s);
}

ATF_TC(all_runs_every_case);
ATF_TC_HEAD(all_runs_every_case, tc)
{
	GUEST_HEAD(tc, "bisect-run --all: the first run does not stop, both failing cases "
		   "are found and confirmed");
}
ATF_TC_BODY(all_runs_every_case, tc)
{
	struct step s;
	judge(tc, FIRST, NULL, 2, true, &s);
	ATF_CHECK(!s.f.stopped);
	ATF_CHECK_EQ(s.rc, BISECT_BAD);
	ATF_CHECK_EQ(s.f.n, 2);
	ATF_CHECK(found_at(&s, FIRST ":a_fails") >= 0);
	ATF_CHECK(found_at(&s, FIRST ":c_fails_late") >= 0);
	const struct case_result *c = col_find(s.first, FIRST ":c_fails_late");
	ATF_CHECK_MSG(c != NULL && c->st == ST_FAIL, "c_fails_late in the first run: %s",
		      c ? status_name(c->st) : "absent");
	done(&s);
}

ATF_TC(baseline_failures_do_not_stop_it);
ATF_TC_HEAD(baseline_failures_do_not_stop_it, tc)
{
	GUEST_HEAD(tc, "bisect-run --baseline: a case failing on the baseline too neither "
		   "counts nor stops the run; the first one that passes there does");
}
ATF_TC_BODY(baseline_failures_do_not_stop_it, tc)
{
	struct column *base = col_new("baseline");
	col_put(base, FIRST ":a_fails", ST_FAIL, 0.1, "bad on the baseline too");
	col_put(base, FIRST ":b_passes", ST_PASS, 0.1, "");
	col_put(base, FIRST ":c_fails_late", ST_PASS, 10.0, "");
	struct step s;
	judge(tc, FIRST, base, 2, false, &s);
	ATF_CHECK(s.f.stopped);
	ATF_CHECK_EQ(s.rc, BISECT_BAD);
	ATF_CHECK_EQ(s.f.n, 1);
	ATF_CHECK_MSG(found_at(&s, FIRST ":c_fails_late") == 0,
		      "the counted failure is c_fails_late");
	ATF_CHECK_MSG(col_find(s.first, FIRST ":c_fails_late") != NULL,
		      "the first run stopped before c_fails_late");
	col_free(base);
	done(&s);
}

ATF_TC(unconfirmed_first_failure_runs_the_rest);
ATF_TC_HEAD(unconfirmed_first_failure_runs_the_rest, tc)
{
	GUEST_HEAD(tc, "bisect-run: when no re-run repeats the failure the first run stopped "
		   "at, every case runs before a verdict; the later real failure makes it bad");
}
ATF_TC_BODY(unconfirmed_first_failure_runs_the_rest, tc)
{
	struct step s;
	judge(tc, FLAKY, NULL, 1, false, &s);
	ATF_CHECK_MSG(col_find(s.first, FLAKY ":b_fails_late") == NULL,
		      "the first run did not stop at a_fails_unless_named");
	ATF_CHECK(s.f.widened);
	ATF_CHECK_EQ(s.rc, BISECT_BAD);
	long a = found_at(&s, FLAKY ":a_fails_unless_named");
	long b = found_at(&s, FLAKY ":b_fails_late");
	ATF_CHECK_MSG(a >= 0 && !s.f.again[a], "the flake: counted, not confirmed (at %ld)", a);
	ATF_CHECK_MSG(b >= 0 && s.f.again[b], "b_fails_late: counted and confirmed (at %ld)", b);
	done(&s);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, stops_at_the_first_failure);
	ATF_TP_ADD_TC(tp, all_runs_every_case);
	ATF_TP_ADD_TC(tp, baseline_failures_do_not_stop_it);
	ATF_TP_ADD_TC(tp, unconfirmed_first_failure_runs_the_rest);
	return atf_no_error();
}
