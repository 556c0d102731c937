// SPDX-License-Identifier: GPL-2.0-only
/* t_vtime.c: non-canonical read timers (VTIME), alone and as inter-byte timer. */
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

/* Timing bounds for VTIME=5 (0.5 s): the lower bound allows a jiffy of
 * rounding, the upper one 3.5 s of scheduling delay in a TCG guest on a
 * loaded machine (1 s was exceeded at load 15), while a timer ten times too
 * long (5 s, the HZ * VTIME mistake) still fails. */
#define VTIME_DS 5
#define VTIME_MIN_MS 450
#define VTIME_MAX_MS 4000

TP_CASE(vtime_read_timeout_when_empty, TP_POSIX,
	"VMIN=0 VTIME=5 with no input: read returns 0 after about 0.5 s "
	"(accepted: 0.45 s to 4 s; a 10x timer takes 5 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, VTIME_DS);
	tp_timed_read(p.slave, 16, &res, "read timing out on an empty slave");
	tp_rd_check(&res, "", 0, "VMIN=0 VTIME=5 read");
	ATF_CHECK_MSG(res.ms >= VTIME_MIN_MS && res.ms < VTIME_MAX_MS,
		      "read returned after %lld ms, want %d..%d", res.ms,
		      VTIME_MIN_MS, VTIME_MAX_MS);
	tp_pty_close(&p);
}

TP_CASE(vtime_returns_when_data_arrives, TP_POSIX,
	"VMIN=0 VTIME=50: a reader blocked on an empty slave returns the byte "
	"that arrives, well before the 5 s timeout")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 50);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave, "reader blocked in read(slave)");
	tp_write_str(p.master, "x", "master write of x");
	tp_reader_result(&r, &res, "reader with VTIME=50");
	tp_rd_check(&res, "x", 1, "VMIN=0 VTIME=50 read");
	ATF_CHECK_MSG(res.ms < 4000, "read took %lld ms: it waited for the timeout",
		      res.ms);
	tp_pty_close(&p);
}

TP_CASE(vtime_interbyte_timer, TP_POSIX,
	"VMIN=2 VTIME=5 with one byte queued: the inter-byte timer expires and "
	"read returns that byte after about 0.5 s (accepted: 0.45 s to 4 s; a "
	"10x timer takes 5 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 2, VTIME_DS);
	tp_write_str(p.master, "a", "master write of a");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "1 byte on the slave");
	tp_timed_read(p.slave, 16, &res, "read with VMIN=2 VTIME=5");
	tp_rd_check(&res, "a", 1, "VMIN=2 VTIME=5 read");
	ATF_CHECK_MSG(res.ms >= VTIME_MIN_MS && res.ms < VTIME_MAX_MS,
		      "read returned after %lld ms, want %d..%d", res.ms,
		      VTIME_MIN_MS, VTIME_MAX_MS);
	tp_pty_close(&p);
}

TP_CASE(vtime_interbyte_timer_waits_for_first_byte, TP_POSIX,
	"VMIN=2 VTIME=1 on an empty slave: the timer only starts with the first "
	"byte, so the reader stays blocked past VTIME; 2 bytes then end the read")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 2, 1);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave, "reader blocked in read(slave)");
	/* The quiet window (200 ms) is twice VTIME. */
	tp_expect_quiet(r.pipe[0], "reader timing out before any byte arrived");
	tp_write_str(p.master, "ab", "master write of ab");
	tp_reader_result(&r, &res, "reader with VMIN=2 VTIME=1");
	tp_rd_check(&res, "ab", 2, "VMIN=2 VTIME=1 read");
	tp_pty_close(&p);
}

/* A reader child that reports when, on the shared monotonic clock, its one
 * read() returned: the case compares it with when it wrote each byte. */
struct stamped_read {
	ssize_t n;
	int err;
	long long end_ms;
	char data[16];
};
struct stamped_reader {
	struct tp_child child;
	int fd;
	int pipe[2];
};

static int
stamped_reader_main(void *arg)
{
	struct stamped_reader *r = arg;
	struct stamped_read res;

	memset(&res, 0, sizeof(res));
	res.n = read(r->fd, res.data, sizeof(res.data));
	res.err = res.n < 0 ? errno : 0;
	res.end_ms = tp_now_ms();
	if (write(r->pipe[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
		return tp_child_fail("reader report: %s", strerror(errno));
	return 0;
}

static void
stamped_reader_start(struct stamped_reader *r, int fd)
{
	r->fd = fd;
	ATF_REQUIRE(pipe2(r->pipe, O_CLOEXEC) == 0);
	tp_child_start(&r->child, stamped_reader_main, r);
	close(r->pipe[1]);
	tp_wait_blocked_fd(r->child.pid, SYS_read, fd,
			   "reader blocked in read(slave)");
}

static void
stamped_reader_result(struct stamped_reader *r, struct stamped_read *res,
		      const char *what)
{
	tp_wait_poll(r->pipe[0], POLLIN, TP_WAIT_MS, what);
	ATF_REQUIRE(read(r->pipe[0], res, sizeof(*res)) == (ssize_t)sizeof(*res));
	close(r->pipe[0]);
	tp_child_join(&r->child, TP_WAIT_MS, what);
}

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* VTIME=5 (0.5 s) restarted by bytes 0.2 s apart: if the timer ran from
 * the first byte, the read would end after the third byte.  The spacing
 * is made by sleeping (the point of the case is elapsed time); an attempt
 * whose measured gaps came too close to VTIME is not evidence either way
 * and is repeated, at most RESTART_ATTEMPTS times. */
#define RESTART_VTIME_DS 5
#define RESTART_GAP_MS 200
#define RESTART_MAX_GAP_MS 400
#define RESTART_ATTEMPTS 3

TP_CASE(vtime_interbyte_timer_restarts_per_byte, TP_POSIX,
	"VMIN=9 VTIME=5: bytes arriving 0.2 s apart each restart the 0.5 s "
	"inter-byte timer, so one read returns all 4 of them, no sooner than "
	"0.5 s after the last (at most 4 s after: a 10x timer fails)")
{
	for (int attempt = 1; attempt <= RESTART_ATTEMPTS; attempt++) {
		struct tp_pty p;
		struct stamped_reader r;
		struct stamped_read res;
		long long t_last = 0, gap_max = 0, t_prev = 0;

		tp_noncanon_open(&p, 9, RESTART_VTIME_DS);
		stamped_reader_start(&r, p.slave);
		for (int i = 0; i < 4; i++) {
			if (i > 0)
				sleep_ms(RESTART_GAP_MS);
			tp_write_all(p.master, "wxyz" + i, 1, "master write of a byte");
			t_last = tp_now_ms();
			if (i > 0 && t_last - t_prev > gap_max)
				gap_max = t_last - t_prev;
			t_prev = t_last;
		}
		stamped_reader_result(&r, &res, "reader with VMIN=9 VTIME=5");
		tp_pty_close(&p);
		if (gap_max >= RESTART_MAX_GAP_MS && attempt < RESTART_ATTEMPTS) {
			fprintf(stderr, "attempt %d: bytes %lld ms apart, retrying\n",
				attempt, gap_max);
			continue;
		}
		if (gap_max >= RESTART_MAX_GAP_MS)
			atf_tc_skip("this machine never wrote 4 bytes less than "
				    "%d ms apart in %d attempts (last: %lld ms)",
				    RESTART_MAX_GAP_MS, RESTART_ATTEMPTS, gap_max);
		ATF_CHECK_MSG(res.n == 4 && memcmp(res.data, "wxyz", 4) == 0,
			      "read returned %zd bytes \"%s\", want \"wxyz\" "
			      "(the timer did not restart per byte)",
			      res.n, res.n > 0 ? tp_esc(res.data, (size_t)res.n) : "");
		ATF_CHECK_MSG(res.end_ms - t_last >= RESTART_VTIME_DS * 100 - 10,
			      "read ended %lld ms after the last byte, want >= "
			      "%d", res.end_ms - t_last, RESTART_VTIME_DS * 100 - 10);
		ATF_CHECK_MSG(res.end_ms - t_last < 4000,
			      "read ended %lld ms after the last byte, want < 4000",
			      res.end_ms - t_last);
		return;
	}
}

TP_CASE(vtime_interbyte_read_returns_at_vmin_without_timer, TP_POSIX,
	"VMIN=2 VTIME=100 (10 s): a blocked reader returns as soon as 2 bytes "
	"are there, without waiting for the inter-byte timer (bound 4 s)")
{
	struct tp_pty p;
	struct stamped_reader r;
	struct stamped_read res;
	long long t_write;

	tp_noncanon_open(&p, 2, 100);
	stamped_reader_start(&r, p.slave);
	tp_write_str(p.master, "a", "master write of a");
	tp_write_str(p.master, "b", "master write of b");
	t_write = tp_now_ms();
	stamped_reader_result(&r, &res, "reader with VMIN=2 VTIME=100");
	ATF_CHECK_MSG(res.n == 2 && memcmp(res.data, "ab", 2) == 0,
		      "read returned %zd", res.n);
	ATF_CHECK_MSG(res.end_ms - t_write < 4000,
		      "read ended %lld ms after the second byte, want < 4000",
		      res.end_ms - t_write);
	tp_pty_close(&p);
}

/* An early end is measured against the clock while the kernel counts
 * jiffies: a guest whose virtual CPU was starved can arm the timer with
 * jiffies lagging its clock, and the read then ends early once.  A timer
 * that is really short is early every time, so an early attempt is
 * repeated, at most EARLY_ATTEMPTS times, and only all of them early
 * fails. */
#define EARLY_ATTEMPTS 3
_Static_assert(EARLY_ATTEMPTS == 3, "the failure message names three attempts");

TP_CASE(vtime_read_timeout_lower_bound_exact, TP_POSIX,
	"VMIN=0 VTIME=5, nothing arrives: read returns 0 no sooner than 0.5 s "
	"(less one 10 ms jiffy; early in each of 3 attempts fails) and "
	"within 4 s (a 10x timer fails)")
{
	long long took[EARLY_ATTEMPTS];

	for (int attempt = 0; attempt < EARLY_ATTEMPTS; attempt++) {
		struct tp_pty p;
		struct stamped_reader r;
		struct stamped_read res;
		long long t0;

		tp_noncanon_open(&p, 0, 5);
		t0 = tp_now_ms();
		r.fd = p.slave;
		ATF_REQUIRE(pipe2(r.pipe, O_CLOEXEC) == 0);
		tp_child_start(&r.child, stamped_reader_main, &r);
		close(r.pipe[1]);
		stamped_reader_result(&r, &res, "reader with VMIN=0 VTIME=5");
		tp_pty_close(&p);
		/* t0 is before the read started: end - t0 only overstates it. */
		took[attempt] = res.end_ms - t0;
		ATF_REQUIRE_MSG(res.n == 0, "read returned %zd, want 0", res.n);
		ATF_REQUIRE_MSG(took[attempt] < 4000, "read ended after %lld ms, "
				"want < 4000", took[attempt]);
		if (took[attempt] >= 490)
			return;
		fprintf(stderr, "attempt %d: read ended after %lld ms, want >= "
			"490\n", attempt + 1, took[attempt]);
	}
	atf_tc_fail("read ended early in all %d attempts: after %lld, %lld and "
		    "%lld ms, want >= 490", EARLY_ATTEMPTS, took[0], took[1],
		    took[2]);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vtime_read_timeout_when_empty);
	ATF_TP_ADD_TC(tp, vtime_returns_when_data_arrives);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer_waits_for_first_byte);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer_restarts_per_byte);
	ATF_TP_ADD_TC(tp, vtime_interbyte_read_returns_at_vmin_without_timer);
	ATF_TP_ADD_TC(tp, vtime_read_timeout_lower_bound_exact);
	return atf_no_error();
}
