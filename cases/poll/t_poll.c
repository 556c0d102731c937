// SPDX-License-Identifier: GPL-2.0-only
/* t_poll.c: readiness of pty ends through poll, select and epoll, and the
 * wakeups of pollers already asleep when input arrives.  Regression #7:
 * 57087d515441 (3.18) made input wake only POLLIN waiters, so a poll for
 * POLLRDNORM alone slept through it; fixed by c816b2e65b0e (5.17). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

/* The raw poll system call, so the case knows which call to see the
 * poller asleep in (glibc's poll() might use ppoll).  Architectures without
 * poll(2) (arm64) have ppoll only; a relative timeout means the same. */
#ifdef SYS_poll
#define POLL_NR SYS_poll
#define raw_poll(pfd, n, ms) syscall(SYS_poll, (pfd), (n), (ms))
#else
#define POLL_NR SYS_ppoll
#define raw_poll(pfd, n, ms)                                                 \
	syscall(SYS_ppoll, (pfd), (n),                                       \
		&(struct timespec){.tv_sec = (ms) / 1000,                    \
				   .tv_nsec = (ms) % 1000 * 1000000L},       \
		NULL, 0)
#endif

static int
rdnorm_poller(void *arg)
{
	struct tp_pty *p = arg;
	struct pollfd pfd = {.fd = p->slave, .events = POLLRDNORM};
	long long start = tp_now_ms();
	long r = raw_poll(&pfd, 1, TP_WAIT_MS);
	long long took = tp_now_ms() - start;
	/* poll() re-checks readiness when its timeout ends, so a poller that
	 * was never woken still returns 1 then: the time tells them apart. */
	if (r == 0 || took >= TP_WAIT_MS / 2)
		return tp_child_fail("poll(POLLRDNORM) slept through the input: "
				     "returned %ld after %lld ms (timeout %d ms)",
				     r, took, TP_WAIT_MS);
	if (r != 1 || !(pfd.revents & POLLRDNORM))
		return tp_child_fail("poll returned %ld, revents 0x%x", r,
				     (unsigned)pfd.revents);
	return 0;
}

TP_CASE_COMMITS(pollrdnorm_wakes_sleeping_poller, TP_LINUX, "57087d515441",
		"c816b2e65b0e",
		"A process asleep in poll(slave, POLLRDNORM) is woken when the "
		"master writes a line, with POLLRDNORM in revents")
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON, ECHO);
	tp_child_start(&c, rdnorm_poller, &p);
	tp_wait_blocked(c.pid, POLL_NR, "poller asleep in poll(2)");
	tp_write_str(p.master, "hello\n", "line for the poller");
	tp_child_join(&c, TP_WAIT_MS, "POLLRDNORM poller");
	tp_pty_close(&p);
}

TP_CASE(pollout_on_empty_pty, TP_POSIX,
	"An idle pty is writable and not readable from both ends: POLLOUT and "
	"POLLWRNORM set, POLLIN, POLLHUP and POLLERR clear")
{
	struct tp_pty p;
	short want = POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM;

	tp_pty_open(&p, TP_COOKED);
	int fds[2] = {p.master, p.slave};
	for (int i = 0; i < 2; i++) {
		short rev = tp_poll1(fds[i], want, 0);
		ATF_CHECK_MSG(rev == (POLLOUT | POLLWRNORM),
			      "%s revents 0x%x, expected POLLOUT|POLLWRNORM",
			      i ? "slave" : "master", (unsigned)rev);
	}
	tp_pty_close(&p);
}

static bool
select_readable(int fd, int timeout_ms)
{
	fd_set rd;
	struct timeval tv = {.tv_sec = timeout_ms / 1000,
			     .tv_usec = (timeout_ms % 1000) * 1000};
	int r;
	do {
		FD_ZERO(&rd);
		FD_SET(fd, &rd);
		r = select(fd + 1, &rd, NULL, NULL, &tv);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		atf_tc_fail("select: %s", strerror(errno));
	return r == 1 && FD_ISSET(fd, &rd);
}

TP_CASE(select_canonical_needs_complete_line, TP_POSIX,
	"select() reports a canonical slave readable only once a line is "
	"complete: not after \"ab\" (already echoed, so taken in), yes after "
	"the newline")
{
	struct tp_pty p;
	char echo[4];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "ab", "partial line");
	tp_read_exact(p.master, echo, 2, sizeof(echo), "echo of ab");
	ATF_CHECK_MSG(!select_readable(p.slave, 0),
		      "readable with a partial line");
	tp_write_str(p.master, "\n", "end of line");
	tp_waiting_for("select readable after the newline");
	ATF_CHECK_MSG(select_readable(p.slave, TP_WAIT_MS),
		      "not readable within %d ms after the newline",
		      TP_WAIT_MS);
	tp_pty_close(&p);
}

static int
epoll_wait1(int ep, int timeout_ms)
{
	struct epoll_event ev;
	int r;
	do
		r = epoll_wait(ep, &ev, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		atf_tc_fail("epoll_wait: %s", strerror(errno));
	if (r == 1 && !(ev.events & EPOLLIN))
		atf_tc_fail("epoll event 0x%x without EPOLLIN",
			    (unsigned)ev.events);
	return r;
}

TP_CASE(epoll_edge_triggered_per_line, TP_LINUX,
	"An edge-triggered epoll on a canonical slave reports one event per "
	"new line, even while earlier lines stay unread, and none in between")
{
	struct tp_pty p;
	char got[6];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON, ECHO);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	ATF_REQUIRE(ep >= 0);
	struct epoll_event ev = {.events = EPOLLIN | EPOLLET};
	ATF_REQUIRE(epoll_ctl(ep, EPOLL_CTL_ADD, p.slave, &ev) == 0);
	ATF_CHECK_EQ_MSG(epoll_wait1(ep, 0), 0, "event before any input");
	tp_write_str(p.master, "l1\n", "first line");
	tp_waiting_for("epoll event for the first line");
	ATF_CHECK_EQ_MSG(epoll_wait1(ep, TP_WAIT_MS), 1,
			 "no event for the first line");
	/* Edge-triggered: no new input, no new event. */
	ATF_CHECK_EQ_MSG(epoll_wait1(ep, 0), 0, "second event, no new input");
	tp_write_str(p.master, "l2\n", "second line");
	tp_waiting_for("epoll event for the second line");
	ATF_CHECK_EQ_MSG(epoll_wait1(ep, TP_WAIT_MS), 1,
			 "no event for the second line");
	tp_read_exact(p.slave, got, 3, 3, "first line");
	tp_read_exact(p.slave, got + 3, 3, 3, "second line");
	ATF_CHECK(memcmp(got, "l1\nl2\n", 6) == 0);
	close(ep);
	tp_pty_close(&p);
}

TP_CASE(master_poll_sees_slave_output, TP_POSIX,
	"poll on the master reports POLLIN|POLLRDNORM once the slave writes, "
	"and FIONREAD on the master counts the bytes")
{
	struct tp_pty p;
	int n = -1;

	tp_pty_open(&p, TP_RAW);
	ATF_CHECK_EQ(tp_poll1(p.master, POLLIN, 0), 0);
	tp_write_str(p.slave, "abc", "slave output");
	short rev = tp_wait_poll(p.master, POLLIN | POLLRDNORM, TP_WAIT_MS,
				 "master readable");
	ATF_CHECK_MSG((rev & (POLLIN | POLLRDNORM)) == (POLLIN | POLLRDNORM),
		      "master revents 0x%x", (unsigned)rev);
	ATF_REQUIRE(ioctl(p.master, FIONREAD, &n) == 0);
	ATF_CHECK_EQ(n, 3);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pollrdnorm_wakes_sleeping_poller);
	ATF_TP_ADD_TC(tp, pollout_on_empty_pty);
	ATF_TP_ADD_TC(tp, select_canonical_needs_complete_line);
	ATF_TP_ADD_TC(tp, epoll_edge_triggered_per_line);
	ATF_TP_ADD_TC(tp, master_poll_sees_slave_output);
	return atf_no_error();
}
