/*
 * t_bisect_first: a guest program for harness/tests/t_bisect_stop only (no
 * Kyuafile of the suite lists it).  Run exclusive, so in order: a case that
 * fails at once (a regression found early), one that passes, and one that
 * fails only after LATE_MS (the rest of a long run).  A bisect-run step that
 * stops at its first failure never sees the third case; one that runs every
 * case (--all) does.
 */
#include <atf-c.h>

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

/* Long enough that a runner polling every 250 ms, which kills the guest at
 * the first failure, cannot see this case end. */
#define LATE_MS 10000

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

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
	/* Take LATE_MS: poll a pipe nobody writes to, so the time passes in
	 * the kernel whatever signals arrive. */
	int p[2];
	ATF_REQUIRE(pipe(p) == 0);
	struct pollfd pfd = { .fd = p[0], .events = POLLIN };
	long long end = now_ms() + LATE_MS;
	for (long long left; (left = end - now_ms()) > 0;) {
		int n = poll(&pfd, 1, (int)left);
		ATF_REQUIRE_MSG(n == 0 || (n < 0 && errno == EINTR), "poll on an idle pipe: %d", n);
	}
	close(p[0]);
	close(p[1]);
	atf_tc_fail("fails after %d ms, as a regression found late in a long run would",
		    LATE_MS);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, a_fails);
	ATF_TP_ADD_TC(tp, b_passes);
	ATF_TP_ADD_TC(tp, c_fails_late);
	return atf_no_error();
}
