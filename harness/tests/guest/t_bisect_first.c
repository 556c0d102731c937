// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_bisect_first: a guest program for harness/tests/t_bisect_stop only (no
 * Kyuafile of the suite lists it).  Run exclusive, so in order: a case that
 * fails at once (a regression found early), one that passes, and one that
 * fails only after LATE_MS (the rest of a long run).  A bisect-run step that
 * stops at its first failure never sees the third case; one that runs every
 * case (--all) does.
 */
#include <atf-c.h>

#include "late.h"

ATF_TC_WITHOUT_HEAD(a_fails);
ATF_TC_BODY(a_fails, tc)
{
	(void)tc;
	atf_tc_fail("fails at once, as a regression found by the first case would");
}

ATF_TC_WITHOUT_HEAD(b_passes);
ATF_TC_BODY(b_passes, tc)
{
	(void)tc;
}

ATF_TC_WITHOUT_HEAD(c_fails_late);
ATF_TC_BODY(c_fails_late, tc)
{
	(void)tc;
	fail_late("as a regression found late in a long run would");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, a_fails);
	ATF_TP_ADD_TC(tp, b_passes);
	ATF_TP_ADD_TC(tp, c_fails_late);
	return atf_no_error();
}
