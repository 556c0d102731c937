/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * late.h: for the guest programs of harness/tests/t_bisect_stop.  A case
 * that fails only after LATE_MS, as a regression found late in a long run
 * would: its time passes in poll() on a pipe nobody writes to, in the
 * kernel, whatever signals arrive.
 */
#ifndef TTYPOT_TESTS_GUEST_LATE_H
#define TTYPOT_TESTS_GUEST_LATE_H

#include <atf-c.h>

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

/* Long enough that a runner polling every 250 ms, which kills the guest at
 * the first failure, cannot see such a case end. */
#define LATE_MS 10000

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Wait LATE_MS, then fail with why. */
static void fail_late(const char *why)
{
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
	atf_tc_fail("fails after %d ms, %s", LATE_MS, why);
}

#endif
