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

/* Timing bounds for VTIME=2 (0.2 s): the lower bound allows a jiffy of
 * rounding, the upper one TCG scheduling delays while still catching a
 * timer ten times too long (2 s, the HZ * VTIME mistake). */
#define VTIME_DS 2
#define VTIME_MIN_MS 150
#define VTIME_MAX_MS 1000

TP_CASE(vtime_read_timeout_when_empty, TP_POSIX,
	"VMIN=0 VTIME=2 with no input: read returns 0 after about 0.2 s "
	"(accepted: 0.15 s to 1 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, VTIME_DS);
	tp_timed_read(p.slave, 16, &res, "read timing out on an empty slave");
	tp_rd_check(&res, "", 0, "VMIN=0 VTIME=2 read");
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
	"VMIN=2 VTIME=2 with one byte queued: the inter-byte timer expires and "
	"read returns that byte after about 0.2 s (accepted: 0.15 s to 1 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 2, VTIME_DS);
	tp_write_str(p.master, "a", "master write of a");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "1 byte on the slave");
	tp_timed_read(p.slave, 16, &res, "read with VMIN=2 VTIME=2");
	tp_rd_check(&res, "a", 1, "VMIN=2 VTIME=2 read");
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

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vtime_read_timeout_when_empty);
	ATF_TP_ADD_TC(tp, vtime_returns_when_data_arrives);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer_waits_for_first_byte);
	return atf_no_error();
}
