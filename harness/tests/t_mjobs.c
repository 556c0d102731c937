// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_mjobs.c: mutants decided side by side (mjobs.h).  Stand-in jobs in
 * place of guest boots: each child decides its mutant after a short,
 * known time, so the order, the limit and what a dead child leaves are
 * seen without a kernel.  The real boots are `mutants --generate -j 2`'s.
 */
#include <atf-c.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mjobs.h"
#include "proc.h"

/* A job: after m->line tenths of a second, killed with reason "by job
 * N"; line 0: the child dies without a word; line -1: it waits for a
 * signal (at most 30 s). */
static void job(void *ctx, struct mutant *m)
{
	(void)ctx;
	if (m->line == 0)
		_exit(3);
	if (m->line < 0) {
		signal(SIGTERM, SIG_DFL);
		for (int i = 0; i < 300; i++) /* bounded: SIGTERM ends it */
			usleep(100000);
	}
	struct timespec ts = { m->line / 10, (m->line % 10) * 100000000L };
	nanosleep(&ts, NULL);
	m->status = MS_KILLED;
	snprintf(m->reason, sizeof m->reason, "by job %u", m->id);
	m->secs = m->line / 10.0;
}

static void mk(struct mutant *m, unsigned id, int tenths)
{
	memset(m, 0, sizeof *m);
	m->id = id;
	m->line = tenths;
	m->status = MS_PENDING;
	snprintf(m->key, sizeof m->key, "drivers/tty/x.c:%u:ror:1", id);
}

ATF_TC(two_at_once_in_end_order);
ATF_TC_HEAD(two_at_once_in_end_order, tc)
{
	atf_tc_set_md_var(tc, "descr", "with two slots, two jobs run at once (two of 1 s end "
			  "in about 1 s, not 2), each returns its own mutant decided as its "
			  "child decided it, the first to end first; a third job waits for a "
			  "free slot; a child that dies without a word leaves its mutant "
			  "pending");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(two_at_once_in_end_order, tc)
{
	struct mutant a, b, c, d;
	mk(&a, 1, 10);
	mk(&b, 2, 3);
	mk(&c, 3, 0);
	mk(&d, 4, 10);
	struct mjobs j;
	mjobs_init(&j, 2);
	double t0 = proc_now();
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &a), 0);
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &b), 0);
	ATF_CHECK_EQ(mjobs_start(&j, job, NULL, &c), -1); /* no free slot */
	struct mutant *first = mjobs_wait(&j, NULL);
	ATF_CHECK_EQ(first, &b);
	ATF_CHECK_EQ(b.status, MS_KILLED);
	ATF_CHECK_STREQ(b.reason, "by job 2");
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &c), 0);
	ATF_REQUIRE_EQ(j.n, 2);
	struct mutant *next = mjobs_wait(&j, NULL);
	ATF_CHECK_EQ(next, &c); /* died at once */
	ATF_CHECK_EQ(c.status, MS_PENDING);
	ATF_CHECK_STREQ(c.reason, "");
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &d), 0);
	ATF_CHECK_EQ(mjobs_wait(&j, NULL), &a);
	ATF_CHECK_STREQ(a.reason, "by job 1");
	ATF_CHECK_EQ(mjobs_wait(&j, NULL), &d);
	ATF_CHECK_STREQ(d.reason, "by job 4");
	double took = proc_now() - t0;
	/* a (1 s) beside b then c then d (1 s from 0.3 s): 1.3 s, where one
	 * at a time is 2.3 s */
	ATF_CHECK_MSG(took < 2.0, "took %.1f s: not side by side", took);
	ATF_CHECK_EQ(mjobs_wait(&j, NULL), NULL);
	mjobs_free(&j);
}

ATF_TC(stop_passes_sigterm_on);
ATF_TC_HEAD(stop_passes_sigterm_on, tc)
{
	atf_tc_set_md_var(tc, "descr", "once the stop flag is set, mjobs_wait sends the "
			  "children SIGTERM and returns their mutants as they end, pending, "
			  "within a second or two instead of their 30 s");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(stop_passes_sigterm_on, tc)
{
	struct mutant a, b;
	mk(&a, 1, -1);
	mk(&b, 2, -1);
	struct mjobs j;
	mjobs_init(&j, 2);
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &a), 0);
	ATF_REQUIRE_EQ(mjobs_start(&j, job, NULL, &b), 0);
	volatile sig_atomic_t stop = 1;
	double t0 = proc_now();
	ATF_CHECK(mjobs_wait(&j, &stop) != NULL);
	ATF_CHECK(mjobs_wait(&j, &stop) != NULL);
	ATF_CHECK_MSG(proc_now() - t0 < 5, "stopped after %.1f s", proc_now() - t0);
	ATF_CHECK_EQ(a.status, MS_PENDING);
	ATF_CHECK_EQ(b.status, MS_PENDING);
	ATF_CHECK_EQ(mjobs_wait(&j, &stop), NULL);
	mjobs_free(&j);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, two_at_once_in_end_order);
	ATF_TP_ADD_TC(tp, stop_passes_sigterm_on);
	return atf_no_error();
}
