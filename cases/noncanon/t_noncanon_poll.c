// SPDX-License-Identifier: GPL-2.0-only
/* t_noncanon_poll.c: poll() readiness agrees with what read() would do in
 * each VMIN/VTIME regime, checked with a poller already asleep when the
 * input arrives. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* A child asleep in poll(fd, POLLIN); it reports revents through a pipe. */
struct poller {
	struct tp_child child;
	int fd;
	int pipe[2];
};

static int
poller_main(void *arg)
{
	struct poller *pl = arg;
	struct pollfd pfd = { .fd = pl->fd, .events = POLLIN };
	short rev;

	if (poll(&pfd, 1, TP_WAIT_MS) < 0)
		return tp_child_fail("poll: %s", strerror(errno));
	rev = pfd.revents;
	if (write(pl->pipe[1], &rev, sizeof(rev)) != (ssize_t)sizeof(rev))
		return tp_child_fail("poller report: %s", strerror(errno));
	return 0;
}

static void
poller_start(struct poller *pl, int fd)
{
	pl->fd = fd;
	ATF_REQUIRE(pipe2(pl->pipe, O_CLOEXEC) == 0);
	tp_child_start(&pl->child, poller_main, pl);
	close(pl->pipe[1]);
	tp_wait_blocked_poll(pl->child.pid, "poller asleep in poll(slave)");
}

static void
poller_expect_pollin(struct poller *pl, const char *what)
{
	short rev = 0;

	tp_wait_poll(pl->pipe[0], POLLIN, TP_WAIT_MS, what);
	ATF_REQUIRE(read(pl->pipe[0], &rev, sizeof(rev)) == (ssize_t)sizeof(rev));
	ATF_CHECK_MSG(rev & POLLIN, "%s: poll returned revents 0x%x without "
		      "POLLIN (it timed out)", what, rev);
	close(pl->pipe[0]);
	tp_child_join(&pl->child, TP_WAIT_MS, what);
}

/* Write to the master and wait until the slave's ldisc holds n bytes. */
static void
feed(struct tp_pty *p, const char *s, int n, const char *what)
{
	tp_write_str(p->master, s, what);
	tp_wait_fionread(p->slave, n, TP_WAIT_MS, what);
}

TP_CASE(poll_vmin_without_vtime_waits_for_vmin_bytes, TP_LINUX,
	"VMIN=3 VTIME=0, where read would block until 3 bytes: an asleep "
	"poller is not woken as ready by 2 bytes, and is by the third")
{
	struct tp_pty p;
	struct poller pl;

	tp_noncanon_open(&p, 3, 0);
	poller_start(&pl, p.slave);
	feed(&p, "ab", 2, "2 bytes on the slave");
	tp_expect_quiet(pl.pipe[0], "poller ready with 2 of VMIN=3 bytes");
	tp_write_str(p.master, "c", "master write of the third byte");
	poller_expect_pollin(&pl, "poller after the third byte");
	tp_pty_close(&p);
}

TP_CASE(poll_vmin_with_vtime_ready_on_first_byte, TP_LINUX,
	"VMIN=3 VTIME=1, where read returns after the inter-byte timer even "
	"with 1 byte: an asleep poller is woken as ready by the first byte")
{
	struct tp_pty p;
	struct poller pl;

	tp_noncanon_open(&p, 3, 1);
	poller_start(&pl, p.slave);
	tp_write_str(p.master, "a", "master write of one byte");
	poller_expect_pollin(&pl, "poller after one byte");
	tp_pty_close(&p);
}

TP_CASE(poll_vmin0_not_ready_when_empty, TP_POSIX,
	"VMIN=0 (VTIME 0 and 1): with nothing queued the slave is not "
	"readable (read would return 0, which is not data); an asleep poller "
	"is woken by the first byte")
{
	struct tp_pty p;
	struct poller pl;

	for (int vtime = 0; vtime <= 1; vtime++) {
		tp_noncanon_open(&p, 0, vtime);
		ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLIN, 0) & POLLIN),
			      "VTIME=%d: empty slave polls readable", vtime);
		poller_start(&pl, p.slave);
		tp_write_str(p.master, "a", "master write of one byte");
		poller_expect_pollin(&pl, "poller after one byte, VMIN=0");
		tp_pty_close(&p);
	}
}

TP_CASE(poll_right_after_write_sees_the_bytes, TP_LINUX,
	"VMIN=1 VTIME=0: poll with a zero timeout made as soon as write() to "
	"the master returns reports POLLIN, in 200 rounds of 200; under "
	"VMIN=5 it reports POLLIN right after the write that brings the "
	"queue to 5 bytes and not after the one that brings it to 2: before "
	"it reports no input, n_tty pushes through what is still on its way")
{
	struct tp_pty p;
	struct pollfd pfd;

	tp_noncanon_open(&p, 1, 0);
	tp_set_nonblock(p.slave, true);
	pfd = (struct pollfd){ .fd = p.slave, .events = POLLIN };
	for (int i = 0; i < 200; i++) {
		tp_write_str(p.master, "ab", "master write of ab");
		int r = poll(&pfd, 1, 0);
		if (r != 1 || !(pfd.revents & POLLIN))
			atf_tc_fail("round %d: poll right after the write returned "
				    "%d, revents 0x%x, want POLLIN", i, r,
				    (unsigned)pfd.revents);
		TP_EXPECT_BYTES(p.slave, "ab", "the 2 bytes after the poll");
	}
	tp_set_cc(p.slave, VMIN, 5);
	tp_write_str(p.master, "ab", "master write of ab under VMIN=5");
	ATF_CHECK_EQ_MSG(poll(&pfd, 1, 0), 0, "poll with 2 of VMIN=5 bytes "
			 "queued: revents 0x%x, want none", (unsigned)pfd.revents);
	tp_write_str(p.master, "cde", "master write of cde under VMIN=5");
	ATF_CHECK_MSG(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN),
		      "poll right after the write that makes 5 bytes: revents "
		      "0x%x, want POLLIN", (unsigned)pfd.revents);
	tp_pty_close(&p);
}

TP_CASE(poll_readiness_follows_vmin_change, TP_LINUX,
	"With 2 bytes queued, the slave polls not-ready under VMIN=3 VTIME=0 "
	"and ready once VMIN is lowered to 2 (or VTIME set), with no new input")
{
	struct tp_pty p;
	struct termios t;

	tp_noncanon_open(&p, 3, 0);
	feed(&p, "ab", 2, "2 bytes on the slave");
	ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLIN, 0) & POLLIN),
		      "2 bytes with VMIN=3 VTIME=0 poll readable");
	tp_tc_get(p.slave, &t);
	t.c_cc[VMIN] = 2;
	tp_tc_set(p.slave, &t);
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLIN, 0) & POLLIN,
		      "2 bytes with VMIN=2 poll not readable");
	t.c_cc[VMIN] = 3;
	t.c_cc[VTIME] = 1;
	tp_tc_set(p.slave, &t);
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLIN, 0) & POLLIN,
		      "2 bytes with VMIN=3 VTIME=1 poll not readable");
	tp_pty_close(&p);
}

TP_CASE(vmin_is_fixed_when_the_read_starts, TP_LINUX,
	"Linux takes VMIN when read() starts: a reader asleep with VMIN=3 "
	"VTIME=0 holding 2 bytes is woken by tcsetattr lowering VMIN to 2 but "
	"sleeps on, and returns all 3 bytes once a third arrives")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;
	struct termios t;
	char echo[4];

	tp_noncanon_open(&p, 3, 0);
	tp_lflag(p.slave, ECHO, 0);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave,
			   "reader blocked in read(slave)");
	tp_write_str(p.master, "ab", "master write of ab");
	tp_read_exact(p.master, echo, 2, sizeof(echo), "echo: ab was taken");
	tp_expect_quiet(r.pipe[0], "reader returning with 2 of VMIN=3 bytes");
	tp_tc_get(p.slave, &t);
	t.c_cc[VMIN] = 2;
	tp_tc_set(p.slave, &t);
	tp_expect_quiet(r.pipe[0], "reader returning after VMIN lowered to 2");
	tp_write_str(p.master, "c", "master write of c");
	tp_reader_result(&r, &res, "reader after the third byte");
	tp_rd_check(&res, "abc", 3, "read started with VMIN=3");
	tp_pty_close(&p);
}

TP_CASE(vmin_change_wakes_asleep_poller, TP_LINUX,
	"A poller asleep on a slave holding 2 bytes under VMIN=3 VTIME=0 is "
	"woken as ready by tcsetattr lowering VMIN to 2, with no new input")
{
	struct tp_pty p;
	struct poller pl;
	struct termios t;

	tp_noncanon_open(&p, 3, 0);
	feed(&p, "ab", 2, "2 bytes on the slave");
	poller_start(&pl, p.slave);
	tp_tc_get(p.slave, &t);
	t.c_cc[VMIN] = 2;
	tp_tc_set(p.slave, &t);
	poller_expect_pollin(&pl, "poller after VMIN lowered to 2");
	tp_pty_close(&p);
}

TP_CASE(icanon_clear_wakes_poller_on_partial_line, TP_LINUX,
	"A poller asleep on a canonical slave holding the partial line \"ab\" "
	"is woken as ready when ICANON is cleared")
{
	struct tp_pty p;
	struct poller pl;
	char echo[4];

	/* The echo shows the ldisc took "ab" before the poller sleeps. */
	tp_canon_open(&p, ECHO, 0);
	tp_write_str(p.master, "ab", "master write of ab");
	tp_read_exact(p.master, echo, 2, sizeof(echo), "echo of ab");
	ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLIN, 0) & POLLIN),
		      "partial canonical line polls readable");
	poller_start(&pl, p.slave);
	tp_lflag(p.slave, 0, ICANON);
	poller_expect_pollin(&pl, "poller after ICANON cleared");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, poll_vmin_without_vtime_waits_for_vmin_bytes);
	ATF_TP_ADD_TC(tp, poll_vmin_with_vtime_ready_on_first_byte);
	ATF_TP_ADD_TC(tp, poll_vmin0_not_ready_when_empty);
	ATF_TP_ADD_TC(tp, poll_right_after_write_sees_the_bytes);
	ATF_TP_ADD_TC(tp, poll_readiness_follows_vmin_change);
	ATF_TP_ADD_TC(tp, vmin_is_fixed_when_the_read_starts);
	ATF_TP_ADD_TC(tp, vmin_change_wakes_asleep_poller);
	ATF_TP_ADD_TC(tp, icanon_clear_wakes_poller_on_partial_line);
	return atf_no_error();
}
