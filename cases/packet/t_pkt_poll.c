// SPDX-License-Identifier: GPL-2.0-only
/* t_pkt_poll.c: poll() on a packet-mode master: POLLPRI for status, and the
 * wake-up of a poller already asleep when a status comes. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* A poller child's own timeout, and the time under which its return counts
 * as a wake-up by the event rather than that timeout. */
#define POLLER_TIMEOUT_MS 2000
#define WOKEN_MS 1500

struct poller {
	struct tp_child child;
	int fd;
	short events;
	int pipe[2];
};

struct poll_result {
	int r;
	int err;
	short revents;
	long long ms;
};

static int
poller_main(void *arg)
{
	struct poller *pl = arg;
	struct pollfd pfd = {.fd = pl->fd, .events = pl->events};
	struct poll_result res = {0};

	long long t0 = tp_now_ms();
	res.r = poll(&pfd, 1, POLLER_TIMEOUT_MS);
	res.err = res.r < 0 ? errno : 0;
	res.ms = tp_now_ms() - t0;
	res.revents = pfd.revents;
	if (write(pl->pipe[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
		return tp_child_fail("poller report: %s", strerror(errno));
	return 0;
}

static void
poller_start(struct poller *pl, int fd, short events)
{
	pl->fd = fd;
	pl->events = events;
	if (pipe2(pl->pipe, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	tp_child_start(&pl->child, poller_main, pl);
	close(pl->pipe[1]);
	tp_wait_blocked_poll(pl->child.pid, "poller blocked on the master");
}

static void
poller_result(struct poller *pl, struct poll_result *res)
{
	tp_wait_poll(pl->pipe[0], POLLIN, TP_WAIT_MS, "poller report");
	if (read(pl->pipe[0], res, sizeof(*res)) != (ssize_t)sizeof(*res))
		atf_tc_fail("short poller report");
	close(pl->pipe[0]);
	tp_child_join(&pl->child, TP_WAIT_MS, "poller");
	if (res->r < 0)
		atf_tc_fail("poller: poll: %s", strerror(res->err));
}

/* The poller's result is a wake-up by the event: poll returned one
 * descriptor with `want` among its events before the poller's timeout. */
static void
expect_woken(const struct poll_result *res, short want, const char *what)
{
	ATF_CHECK_MSG(res->r == 1 && (res->revents & want), "%s: poll returned "
		      "%d, revents 0x%x", what, res->r, (unsigned)res->revents);
	ATF_CHECK_MSG(res->ms < WOKEN_MS, "%s: poller returned after %lld ms: "
		      "not woken by the status, only by its %d ms timeout",
		      what, res->ms, POLLER_TIMEOUT_MS);
}

static short
poll_now(int fd, short events)
{
	return tp_poll1(fd, events, 0);
}

TP_CASE(pkt_poll_status_sets_pri, TP_LINUX,
	"A pending packet-mode status makes poll on the master report exactly "
	"POLLIN | POLLRDNORM | POLLPRI; reading it clears all three")
{
	struct tp_pty p;
	const short ev = POLLIN | POLLRDNORM | POLLPRI;

	tp_pkt_open(&p, TP_RAW);
	ATF_CHECK_EQ_MSG(poll_now(p.master, ev), 0, "revents with nothing pending");
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	short rev = tp_wait_poll(p.master, ev, TP_WAIT_MS, "status readiness");
	ATF_CHECK_EQ_MSG(rev, ev, "revents 0x%x with a status pending, want 0x%x",
			 (unsigned)rev, (unsigned)ev);
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "stop status");
	ATF_CHECK_EQ_MSG(poll_now(p.master, ev), 0, "revents after reading the status");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_data_no_pri, TP_LINUX,
	"Slave output alone makes poll on a packet-mode master report POLLIN | "
	"POLLRDNORM without POLLPRI")
{
	struct tp_pty p;
	const short ev = POLLIN | POLLRDNORM | POLLPRI;

	tp_pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "x", "slave write of x");
	tp_wait_fionread(p.master, 1, TP_WAIT_MS, "x on the master");
	short rev = poll_now(p.master, ev);
	ATF_CHECK_EQ_MSG(rev, POLLIN | POLLRDNORM, "revents 0x%x with data only",
			 (unsigned)rev);
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_pri_woken_by_flush, TP_LINUX,
	"A process blocked in poll(master, POLLPRI) is woken when tcflush on "
	"the slave posts a status, and sees POLLPRI")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLPRI);
	if (tcflush(p.slave, TCIFLUSH) != 0)
		atf_tc_fail("tcflush(slave, TCIFLUSH): %s", strerror(errno));
	poller_result(&pl, &res);
	expect_woken(&res, POLLPRI, "poller after TCIFLUSH");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_in_woken_by_stop, TP_LINUX,
	"A process blocked in poll(master, POLLIN) is woken when tcflow(slave, "
	"TCOOFF) posts TIOCPKT_STOP")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLIN);
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	poller_result(&pl, &res);
	expect_woken(&res, POLLIN, "poller after TCOOFF");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_pri_woken_by_stop, TP_LINUX,
	"A process blocked in poll(master, POLLPRI) only should be woken by "
	"tcflow(slave, TCOOFF); pty_stop()/pty_start() wake the master with the "
	"key EPOLLIN alone, so such a poller sleeps to its timeout (expected "
	"failure, seen on 6.18)")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLPRI);
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	poller_result(&pl, &res);
	ATF_CHECK_MSG(res.r == 1 && (res.revents & POLLPRI),
		      "poll returned %d, revents 0x%x", res.r, (unsigned)res.revents);
	atf_tc_expect_fail("pty_stop() wakes read_wait with EPOLLIN only, which "
			   "poll's key filter hides from a POLLPRI-only waiter");
	ATF_CHECK_MSG(res.ms < WOKEN_MS, "poller returned after %lld ms: not woken "
		      "by the status, only by its %d ms timeout", res.ms,
		      POLLER_TIMEOUT_MS);
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_pri_woken_by_flushwrite, TP_LINUX,
	"A process blocked in poll(master, POLLPRI) is woken when "
	"tcflush(slave, TCOFLUSH) posts TIOCPKT_FLUSHWRITE, and sees POLLPRI")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLPRI);
	if (tcflush(p.slave, TCOFLUSH) != 0)
		atf_tc_fail("tcflush(slave, TCOFLUSH): %s", strerror(errno));
	poller_result(&pl, &res);
	expect_woken(&res, POLLPRI, "poller after TCOFLUSH");
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHWRITE, "status after TCOFLUSH");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_in_woken_by_tcoon, TP_LINUX,
	"With output suspended by tcflow(slave, TCOOFF) and its STOP status "
	"read, a process blocked in poll(master, POLLIN) is woken by TCOON "
	"posting TIOCPKT_START")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after TCOOFF");
	poller_start(&pl, p.master, POLLIN);
	tp_tcflow(p.slave, TCOON, "TCOON");
	poller_result(&pl, &res);
	expect_woken(&res, POLLIN, "poller after TCOON");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after TCOON");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_in_woken_by_vstart, TP_LINUX,
	"With IXON on the slave, output stopped by ^S and its STOP status "
	"read, a process blocked in poll(master, POLLIN) is woken by the ^Q "
	"the master sends, posting TIOCPKT_START")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	tp_pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_write_str(p.master, "\023", "master write of ^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	poller_start(&pl, p.master, POLLIN);
	tp_write_str(p.master, "\021", "master write of ^Q");
	poller_result(&pl, &res);
	expect_woken(&res, POLLIN, "poller after ^Q");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after ^Q");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_poll_status_sets_pri);
	ATF_TP_ADD_TC(tp, pkt_poll_data_no_pri);
	ATF_TP_ADD_TC(tp, pkt_poll_pri_woken_by_flush);
	ATF_TP_ADD_TC(tp, pkt_poll_in_woken_by_stop);
	ATF_TP_ADD_TC(tp, pkt_poll_pri_woken_by_stop);
	ATF_TP_ADD_TC(tp, pkt_poll_pri_woken_by_flushwrite);
	ATF_TP_ADD_TC(tp, pkt_poll_in_woken_by_tcoon);
	ATF_TP_ADD_TC(tp, pkt_poll_in_woken_by_vstart);
	return atf_no_error();
}
