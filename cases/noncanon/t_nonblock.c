// SPDX-License-Identifier: GPL-2.0-only
/* t_nonblock.c: O_NONBLOCK against VMIN/VTIME on a non-canonical slave. */
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
check_eagain(const struct tp_rd_result *res, const char *what)
{
	ATF_CHECK_MSG(res->n == -1 && res->err == EAGAIN,
		      "%s: read returned %zd (%s), want -1 EAGAIN", what, res->n,
		      res->n < 0 ? strerror(res->err) : "data");
	ATF_CHECK_MSG(res->ms < 1000, "%s: took %lld ms", what, res->ms);
}

TP_CASE(nonblock_empty_eagain, TP_POSIX,
	"O_NONBLOCK, VMIN=1 VTIME=0, nothing queued: read fails with EAGAIN "
	"at once")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 1, 0);
	tp_set_nonblock(p.slave, true);
	tp_timed_read(p.slave, 16, &res, "non-blocking read");
	check_eagain(&res, "O_NONBLOCK VMIN=1 read");
	tp_pty_close(&p);
}

TP_CASE(nonblock_overrides_vtime, TP_POSIX,
	"O_NONBLOCK, VMIN=0 VTIME=20, nothing queued: read fails with EAGAIN "
	"at once instead of waiting 2 s")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 20);
	tp_set_nonblock(p.slave, true);
	tp_timed_read(p.slave, 16, &res, "non-blocking read with VTIME");
	check_eagain(&res, "O_NONBLOCK VTIME=20 read");
	tp_pty_close(&p);
}

TP_CASE(nonblock_overrides_vmin, TP_POSIX,
	"O_NONBLOCK, VMIN=5 VTIME=0, 3 bytes queued: read returns the 3 bytes "
	"at once instead of waiting for 5")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 5, 0);
	tp_set_nonblock(p.slave, true);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "3 bytes on the slave");
	tp_timed_read(p.slave, 16, &res, "non-blocking read with VMIN=5");
	tp_rd_check(&res, "abc", 3, "O_NONBLOCK VMIN=5 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

/* 200 rounds of: write "ab" to the master, then at once a non-blocking
 * read of the slave, which must return the 2 bytes. */
static void
read_right_after_write(struct tp_pty *p, int vmin)
{
	char buf[16];

	tp_set_cc(p->slave, VMIN, (cc_t)vmin);
	for (int i = 0; i < 200; i++) {
		tp_write_str(p->master, "ab", "master write of ab");
		ssize_t n = read(p->slave, buf, sizeof(buf));
		if (n != 2 || memcmp(buf, "ab", 2) != 0)
			atf_tc_fail("VMIN=%d, round %d: the read right after the "
				    "write returned %zd (%s), want the 2 bytes",
				    vmin, i, n, n < 0 ? strerror(errno)
						      : tp_esc(buf, (size_t)n));
	}
}

TP_CASE(nonblock_read_right_after_write_gets_the_bytes, TP_LINUX,
	"O_NONBLOCK with VMIN=1 and with VMIN=5 (VTIME=0): a read made as "
	"soon as write() to the master returns gets the 2 bytes written, in "
	"200 rounds of 200, never EAGAIN: before it reports no input, n_tty "
	"pushes through what is still on its way to it")
{
	struct tp_pty p;

	tp_noncanon_open(&p, 1, 0);
	tp_set_nonblock(p.slave, true);
	read_right_after_write(&p, 1);
	read_right_after_write(&p, 5);
	tp_pty_close(&p);
}

TP_CASE(nonblock_vmin0_vtime0_returns_zero, TP_LINUX,
	"O_NONBLOCK with VMIN=0 VTIME=0 and nothing queued: Linux returns 0, "
	"not EAGAIN (the zero timeout ends the read before the O_NONBLOCK "
	"check)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 0);
	tp_set_nonblock(p.slave, true);
	tp_timed_read(p.slave, 16, &res, "non-blocking polling read");
	tp_rd_check(&res, "", 0, "O_NONBLOCK VMIN=0 VTIME=0 read");
	tp_pty_close(&p);
}

TP_CASE(nonblock_vmin_vtime_empty_eagain, TP_POSIX,
	"O_NONBLOCK, VMIN=3 VTIME=5, nothing queued: read fails with EAGAIN "
	"at once (no wait for a first byte or the timer)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 3, 5);
	tp_set_nonblock(p.slave, true);
	tp_timed_read(p.slave, 16, &res, "non-blocking read, VMIN=3 VTIME=5");
	check_eagain(&res, "O_NONBLOCK VMIN=3 VTIME=5 on an empty slave");
	tp_pty_close(&p);
}

TP_CASE(nonblock_vmin_vtime_returns_partial_at_once, TP_POSIX,
	"O_NONBLOCK, VMIN=3 VTIME=50, 1 byte queued: read returns that byte "
	"at once instead of running the 5 s inter-byte timer (bound 1 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 3, 50);
	tp_set_nonblock(p.slave, true);
	tp_write_str(p.master, "a", "master write of a");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "1 byte on the slave");
	tp_timed_read(p.slave, 16, &res, "non-blocking read, VMIN=3 VTIME=50");
	tp_rd_check(&res, "a", 1, "O_NONBLOCK VMIN=3 VTIME=50 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

TP_CASE(nonblock_vmin0_vtime_returns_queued_bytes, TP_POSIX,
	"O_NONBLOCK, VMIN=0 VTIME=50, 2 bytes queued: read returns both at "
	"once (bound 1 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 50);
	tp_set_nonblock(p.slave, true);
	tp_write_str(p.master, "ab", "master write of ab");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "2 bytes on the slave");
	tp_timed_read(p.slave, 16, &res, "non-blocking read, VMIN=0 VTIME=50");
	tp_rd_check(&res, "ab", 2, "O_NONBLOCK VMIN=0 VTIME=50 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, nonblock_empty_eagain);
	ATF_TP_ADD_TC(tp, nonblock_overrides_vtime);
	ATF_TP_ADD_TC(tp, nonblock_overrides_vmin);
	ATF_TP_ADD_TC(tp, nonblock_read_right_after_write_gets_the_bytes);
	ATF_TP_ADD_TC(tp, nonblock_vmin0_vtime0_returns_zero);
	ATF_TP_ADD_TC(tp, nonblock_vmin_vtime_empty_eagain);
	ATF_TP_ADD_TC(tp, nonblock_vmin_vtime_returns_partial_at_once);
	ATF_TP_ADD_TC(tp, nonblock_vmin0_vtime_returns_queued_bytes);
	return atf_no_error();
}
