/* t_pkt_poll.c: poll() on a packet-mode master: POLLPRI for status, and wake-ups. */
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

static void
set_pkt(int master, int on)
{
	if (ioctl(master, TIOCPKT, &on) != 0)
		atf_tc_fail("ioctl(master, TIOCPKT, %d): %s", on, strerror(errno));
}

/* A pty pair with packet mode on; the master is non-blocking so that a read
 * after poll can never hang. */
static void
pkt_open(struct tp_pty *p, enum tp_mode mode)
{
	tp_pty_open(p, mode);
	set_pkt(p->master, 1);
	tp_set_nonblock(p->master, true);
}

/* A status change is reported by one read returning exactly one byte. */
static void
expect_status(int master, unsigned char want, const char *what)
{
	unsigned char buf[64];

	tp_wait_poll(master, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if (n != 1 || buf[0] != want)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x; want the "
			    "single status byte 0x%02x",
			    what, n, n > 0 ? buf[0] : 0, want);
}

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

/* Wait until pid sleeps in poll() or ppoll(), seen in /proc/PID/syscall:
 * the state to reach before making the event happen. */
static void
wait_blocked_in_poll(pid_t pid, const char *what)
{
	char path[64], line[256] = "";
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	tp_waiting_for(what);
	for (;;) {
		FILE *f = fopen(path, "r");
		if (f == NULL)
			atf_tc_skip("needs %s (CONFIG_HAVE_ARCH_TRACEHOOK): %s",
				    path, strerror(errno));
		long nr = -1;
		if (fgets(line, sizeof(line), f) == NULL || sscanf(line, "%ld", &nr) != 1)
			nr = -1;
		fclose(f);
		if (nr == SYS_poll || nr == SYS_ppoll)
			return;
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: pid %d not blocked in poll after %d ms; "
				    "/proc syscall says: %s",
				    what, (int)pid, TP_WAIT_MS, line);
		tp_backoff(&step);
	}
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
	wait_blocked_in_poll(pl->child.pid, "poller blocked on the master");
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

	pkt_open(&p, TP_RAW);
	ATF_CHECK_EQ_MSG(poll_now(p.master, ev), 0, "revents with nothing pending");
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	short rev = tp_wait_poll(p.master, ev, TP_WAIT_MS, "status readiness");
	ATF_CHECK_EQ_MSG(rev, ev, "revents 0x%x with a status pending, want 0x%x",
			 (unsigned)rev, (unsigned)ev);
	expect_status(p.master, TIOCPKT_STOP, "stop status");
	ATF_CHECK_EQ_MSG(poll_now(p.master, ev), 0, "revents after reading the status");
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_data_no_pri, TP_LINUX,
	"Slave output alone makes poll on a packet-mode master report POLLIN | "
	"POLLRDNORM without POLLPRI")
{
	struct tp_pty p;
	const short ev = POLLIN | POLLRDNORM | POLLPRI;

	pkt_open(&p, TP_RAW);
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

	pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLPRI);
	if (tcflush(p.slave, TCIFLUSH) != 0)
		atf_tc_fail("tcflush(slave, TCIFLUSH): %s", strerror(errno));
	poller_result(&pl, &res);
	ATF_CHECK_MSG(res.r == 1 && (res.revents & POLLPRI),
		      "poll returned %d, revents 0x%x", res.r, (unsigned)res.revents);
	ATF_CHECK_MSG(res.ms < WOKEN_MS, "poller returned after %lld ms: not woken "
		      "by the status, only by its %d ms timeout", res.ms,
		      POLLER_TIMEOUT_MS);
	tp_pty_close(&p);
}

TP_CASE(pkt_poll_in_woken_by_stop, TP_LINUX,
	"A process blocked in poll(master, POLLIN) is woken when tcflow(slave, "
	"TCOOFF) posts TIOCPKT_STOP")
{
	struct tp_pty p;
	struct poller pl;
	struct poll_result res;

	pkt_open(&p, TP_RAW);
	poller_start(&pl, p.master, POLLIN);
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	poller_result(&pl, &res);
	ATF_CHECK_MSG(res.r == 1 && (res.revents & POLLIN),
		      "poll returned %d, revents 0x%x", res.r, (unsigned)res.revents);
	ATF_CHECK_MSG(res.ms < WOKEN_MS, "poller returned after %lld ms: not woken "
		      "by the status, only by its %d ms timeout", res.ms,
		      POLLER_TIMEOUT_MS);
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

	pkt_open(&p, TP_RAW);
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

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_poll_status_sets_pri);
	ATF_TP_ADD_TC(tp, pkt_poll_data_no_pri);
	ATF_TP_ADD_TC(tp, pkt_poll_pri_woken_by_flush);
	ATF_TP_ADD_TC(tp, pkt_poll_in_woken_by_stop);
	ATF_TP_ADD_TC(tp, pkt_poll_pri_woken_by_stop);
	return atf_no_error();
}
