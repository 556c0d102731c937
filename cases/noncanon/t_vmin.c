// SPDX-License-Identifier: GPL-2.0-only
/* t_vmin.c: non-canonical reads and VMIN (with VTIME=0). */
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

TP_CASE(vmin_waits_for_count, TP_POSIX,
	"VMIN=5 VTIME=0: a blocked reader is not woken by 3 bytes; it returns "
	"once, with all 5 bytes, after 2 more arrive")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;
	char echo[8];

	tp_noncanon_open(&p, 5, 0);
	/* The echo on the master shows when the ldisc has taken the input. */
	tp_lflag(p.slave, ECHO, 0);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave, "reader blocked in read(slave)");
	tp_write_str(p.master, "abc", "master write of abc");
	tp_read_exact(p.master, echo, 3, sizeof(echo), "echo of abc");
	tp_expect_quiet(r.pipe[0], "reader returning with fewer than VMIN bytes");
	tp_write_str(p.master, "de", "master write of de");
	tp_reader_result(&r, &res, "reader with VMIN=5");
	tp_rd_check(&res, "abcde", 5, "VMIN=5 read");
	tp_pty_close(&p);
}

TP_CASE(vmin_returns_all_available, TP_POSIX,
	"VMIN=3 VTIME=0 with 6 bytes queued: one read returns all 6, VMIN is "
	"a minimum, not a size")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 3, 0);
	tp_write_str(p.master, "abcdef", "master write of abcdef");
	tp_wait_fionread(p.slave, 6, TP_WAIT_MS, "6 bytes on the slave");
	tp_timed_read(p.slave, 16, &res, "read with VMIN=3");
	tp_rd_check(&res, "abcdef", 6, "VMIN=3 read");
	tp_pty_close(&p);
}

TP_CASE(vmin_larger_than_request, TP_POSIX,
	"VMIN=5 VTIME=0 with 2 bytes queued: read(2) returns 2 at once, the "
	"request is satisfied before VMIN")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 5, 0);
	tp_write_str(p.master, "ab", "master write of ab");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "2 bytes on the slave");
	tp_timed_read(p.slave, 2, &res, "read(2) with VMIN=5");
	tp_rd_check(&res, "ab", 2, "read(2) with VMIN=5");
	tp_pty_close(&p);
}

TP_CASE(vmin0_vtime0_empty_returns_zero, TP_POSIX,
	"VMIN=0 VTIME=0 with nothing queued: read returns 0 at once (bound "
	"1 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 0);
	tp_timed_read(p.slave, 16, &res, "polling read on an empty slave");
	tp_rd_check(&res, "", 0, "VMIN=0 VTIME=0 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

TP_CASE(vmin0_vtime0_returns_available, TP_POSIX,
	"VMIN=0 VTIME=0 with 3 bytes queued: read returns those 3 bytes")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 0);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "3 bytes on the slave");
	tp_timed_read(p.slave, 16, &res, "polling read");
	tp_rd_check(&res, "abc", 3, "VMIN=0 VTIME=0 read");
	tp_pty_close(&p);
}

TP_CASE(vmin_read_collects_bytes_written_in_pieces, TP_POSIX,
	"VMIN=3 VTIME=0: a reader asleep in read() while 3 single bytes "
	"arrive one write at a time returns once, with all 3, in order")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;
	char echo[4];

	tp_noncanon_open(&p, 3, 0);
	tp_lflag(p.slave, ECHO, 0);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave,
			   "reader blocked in read(slave)");
	for (int i = 0; i < 2; i++) {
		tp_write_all(p.master, "xy" + i, 1, "master write of one byte");
		tp_read_exact(p.master, echo, 1, sizeof(echo), "echo: byte taken");
		tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave,
				   "reader asleep again with fewer than VMIN");
	}
	tp_expect_quiet(r.pipe[0], "reader returning with 2 of VMIN=3 bytes");
	tp_write_str(p.master, "z", "master write of the third byte");
	tp_reader_result(&r, &res, "reader with VMIN=3");
	tp_rd_check(&res, "xyz", 3, "VMIN=3 read of three pieces");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vmin_waits_for_count);
	ATF_TP_ADD_TC(tp, vmin_read_collects_bytes_written_in_pieces);
	ATF_TP_ADD_TC(tp, vmin_returns_all_available);
	ATF_TP_ADD_TC(tp, vmin_larger_than_request);
	ATF_TP_ADD_TC(tp, vmin0_vtime0_empty_returns_zero);
	ATF_TP_ADD_TC(tp, vmin0_vtime0_returns_available);
	return atf_no_error();
}
