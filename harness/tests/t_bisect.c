// SPDX-License-Identifier: GPL-2.0-only
/* t_bisect: the exit-code mappings of bisect-run and ci, and the mutant
 * header parsing (pure functions; no kernel is built). */
#include <atf-c.h>

#include <string.h>

#include "bisect.h"
#include "ci.h"
#include "mutants.h"

static struct bisect_obs ran(long first_bad, int reruns, long confirmed)
{
	struct bisect_obs o = {0};
	o.begun = true;
	o.first_bad = first_bad;
	o.reruns_done = reruns;
	o.confirmed = confirmed;
	return o;
}

ATF_TC(bisect_good_bad);
ATF_TC_HEAD(bisect_good_bad, tc)
{
	atf_tc_set_md_var(tc, "descr", "bisect-run: no failure is good; a failure seen again "
			  "in a re-run is bad");
}
ATF_TC_BODY(bisect_good_bad, tc)
{
	struct bisect_obs o = ran(0, 0, 0);
	ATF_CHECK_EQ(bisect_exit_code(&o), 0);
	o = ran(1, 1, 1);
	ATF_CHECK_EQ(bisect_exit_code(&o), 1);
	o = ran(3, 2, 1);
	ATF_CHECK_EQ(bisect_exit_code(&o), 1);
}

ATF_TC(bisect_flaky_is_good);
ATF_TC_HEAD(bisect_flaky_is_good, tc)
{
	atf_tc_set_md_var(tc, "descr", "bisect-run: a failure no re-run repeats does not make "
			  "the commit bad");
}
ATF_TC_BODY(bisect_flaky_is_good, tc)
{
	struct bisect_obs o = ran(2, 2, 0);
	ATF_CHECK_EQ(bisect_exit_code(&o), 0);
}

ATF_TC(bisect_skip);
ATF_TC_HEAD(bisect_skip, tc)
{
	atf_tc_set_md_var(tc, "descr", "bisect-run: build failures, boots that never reach the "
			  "suite, usage errors and unconfirmable failures are 125");
}
ATF_TC_BODY(bisect_skip, tc)
{
	struct bisect_obs o = {0};
	o.usage_error = true;
	ATF_CHECK_EQ(bisect_exit_code(&o), 125);
	o = ran(0, 0, 0);
	o.build_failed = true;
	ATF_CHECK_EQ(bisect_exit_code(&o), 125);
	o = ran(0, 0, 0);
	o.run_error = true;
	ATF_CHECK_EQ(bisect_exit_code(&o), 125);
	o = ran(0, 0, 0);
	o.begun = false; /* panic or hang during boot */
	ATF_CHECK_EQ(bisect_exit_code(&o), 125);
	/* failures, but every re-run failed to boot: no verdict */
	o = ran(4, 0, 0);
	ATF_CHECK_EQ(bisect_exit_code(&o), 125);
}

ATF_TC(bisect_never_above_127);
ATF_TC_HEAD(bisect_never_above_127, tc)
{
	atf_tc_set_md_var(tc, "descr", "bisect-run: every combination of observations maps to "
			  "0, 1 or 125 (git bisect run aborts above 127)");
}
ATF_TC_BODY(bisect_never_above_127, tc)
{
	for (int bits = 0; bits < 16; bits++)
		for (long fb = 0; fb < 3; fb++)
			for (int rr = 0; rr < 3; rr++)
				for (long cf = 0; cf <= fb; cf++) {
					struct bisect_obs o = ran(fb, rr, cf);
					o.usage_error = bits & 1;
					o.build_failed = bits & 2;
					o.run_error = bits & 4;
					o.begun = bits & 8;
					int rc = bisect_exit_code(&o);
					ATF_CHECK_MSG(rc == 0 || rc == 1 || rc == 125,
						      "bits %d fb %ld rr %d cf %ld -> %d",
						      bits, fb, rr, cf, rc);
					if (o.usage_error || o.build_failed || !o.begun)
						ATF_CHECK_EQ(rc, 125);
				}
}

ATF_TC(ci_codes);
ATF_TC_HEAD(ci_codes, tc)
{
	atf_tc_set_md_var(tc, "descr", "ci: 0 clean, 1 regressions (or --mutants survivors), "
			  "2 usage, no baseline or a --mutants run that could not finish, "
			  "3 tree does not build");
}
ATF_TC_BODY(ci_codes, tc)
{
	struct ci_obs o = { .tree_built = true, .baseline_ran = true };
	ATF_CHECK_EQ(ci_exit_code(&o), 0);
	o.matrix_rc = 1;
	o.regressions = 2;
	ATF_CHECK_EQ(ci_exit_code(&o), 1);
	o.tree_built = false;
	ATF_CHECK_EQ(ci_exit_code(&o), 3);
	o.usage_error = true;
	ATF_CHECK_EQ(ci_exit_code(&o), 2);
	struct ci_obs nb = { .tree_built = true, .baseline_ran = false, .regressions = 0 };
	ATF_CHECK_EQ(ci_exit_code(&nb), 2);
	/* a render/input error of the matrix run without regressions */
	struct ci_obs re = { .tree_built = true, .baseline_ran = true, .matrix_rc = 2 };
	ATF_CHECK_EQ(ci_exit_code(&re), 2);
	/* regressions win over a late report error: the verdict is known */
	re.regressions = 1;
	ATF_CHECK_EQ(ci_exit_code(&re), 1);
	/* --mutants: a survivor is a regression, a run that could not finish an error */
	struct ci_obs mu = { .tree_built = true, .baseline_ran = true, .survivors = true };
	ATF_CHECK_EQ(ci_exit_code(&mu), 1);
	mu.mutants_error = true;
	ATF_CHECK_EQ(ci_exit_code(&mu), 2);
	mu.regressions = 1;
	ATF_CHECK_EQ(ci_exit_code(&mu), 1);
}

ATF_TC(mutant_header);
ATF_TC_HEAD(mutant_header, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutants: the patch header gives the name, bug, commits "
			  "and expected killers; the expected programs are derived from it");
}
ATF_TC_BODY(mutant_header, tc)
{
	const char *p = "ttypot mutant 02-close-race-poll\n\nBug:     poll misses data\n"
			"Commits: f8747d4a466a broke\n"
			"Killed by (expected): close/t_sigchld_data:*poll*, close/t_close_race:*poll*, "
			"close/t_sigchld_data:*x*\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n";
	struct mutant_header h;
	ATF_REQUIRE_EQ(mutant_parse_header(p, "fallback", &h), 0);
	ATF_CHECK_STREQ(h.name, "02-close-race-poll");
	ATF_CHECK_STREQ(h.bug, "poll misses data");
	ATF_CHECK_STREQ(h.commits, "f8747d4a466a broke");
	ATF_CHECK(h.race);
	char progs[256];
	mutant_expected_programs(h.expected, progs, sizeof progs);
	ATF_CHECK_STREQ(progs, "close/t_sigchld_data close/t_close_race");
	ATF_CHECK(mutant_expected_match(h.expected, "close/t_close_race:master_poll_sees_data"));
	ATF_CHECK(!mutant_expected_match(h.expected, "close/t_close_race:read_sees_data"));
	ATF_CHECK_EQ(mutant_parse_header("just text\n", "f", &h), -1);
	ATF_CHECK_STREQ(h.name, "f");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, bisect_good_bad);
	ATF_TP_ADD_TC(tp, bisect_flaky_is_good);
	ATF_TP_ADD_TC(tp, bisect_skip);
	ATF_TP_ADD_TC(tp, bisect_never_above_127);
	ATF_TP_ADD_TC(tp, ci_codes);
	ATF_TP_ADD_TC(tp, mutant_header);
	return atf_no_error();
}
