// SPDX-License-Identifier: GPL-2.0-only
/* t_eof.c: VEOF in canonical mode: end-of-file reads and partial-line pushes. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(eof_at_line_start_reads_zero, TP_POSIX,
	"VEOF at the start of a line makes one read() return 0; the input "
	"after it is read normally")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "\004xy\n", "master write of ^D xy NL");
	tp_expect_read(p.slave, "", 0, "end-of-file read");
	TP_EXPECT_LINE(p.slave, "xy\n", "line after the end-of-file");
	tp_expect_not_readable(p.slave, "a single end-of-file");
	tp_pty_close(&p);
}

TP_CASE(eof_alone_not_counted, TP_LINUX,
	"A lone VEOF makes the slave readable (poll POLLIN) while FIONREAD "
	"reports 0 bytes: the EOF character itself is never data")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "\004", "master write of ^D");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "slave readable after ^D");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD counted the EOF char");
	tp_expect_read(p.slave, "", 0, "end-of-file read");
	tp_expect_not_readable(p.slave, "end-of-file consumed by one read");
	tp_pty_close(&p);
}

TP_CASE(eof_mid_line_pushes_partial, TP_POSIX,
	"VEOF after some input makes the partial line readable without the "
	"EOF character: \"ab^D\" reads as \"ab\"")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "ab\004", "master write of ab ^D");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "slave readable after ab ^D");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 2, "FIONREAD after ab ^D");
	TP_EXPECT_LINE(p.slave, "ab", "pushed partial line");
	tp_expect_not_readable(p.slave, "no zero-length read left behind");
	tp_write_str(p.master, "cd\n", "master write of cd NL");
	TP_EXPECT_LINE(p.slave, "cd\n", "next line");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(eof_push_exact_fill, TP_LINUX,
	"40d5e0905a03 359303076163", "ac8f3bf8832a 65a8b287023d",
	"Regression (#5, #14): after \"abcd^D\" and \"xy\\n\", read(4) returns "
	"abcd and the next read returns xy NL, not a spurious 0 (EOF push "
	"filling the buffer exactly; broke 40d5e0905a03 (3.12) fixed "
	"ac8f3bf8832a, broke again 359303076163 (5.17) fixed 65a8b287023d)")
{
	struct tp_pty p;
	char buf[16];

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "abcd\004", "master write of abcd ^D");
	tp_write_str(p.master, "xy\n", "master write of xy NL");
	/* abcd + xy NL; the EOF character is not counted. */
	tp_wait_fionread(p.slave, 7, TP_WAIT_MS, "both lines on the slave");
	ssize_t n = read(p.slave, buf, 4);
	ATF_REQUIRE_MSG(n == 4 && memcmp(buf, "abcd", 4) == 0,
			"first read(4) returned %zd \"%s\"", n,
			tp_esc(buf, n > 0 ? (size_t)n : 0));
	n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 3 && memcmp(buf, "xy\n", 3) == 0,
		      "second read returned %zd \"%s\", want 3 \"xy\\n\"", n,
		      tp_esc(buf, n > 0 ? (size_t)n : 0));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, eof_at_line_start_reads_zero);
	ATF_TP_ADD_TC(tp, eof_alone_not_counted);
	ATF_TP_ADD_TC(tp, eof_mid_line_pushes_partial);
	ATF_TP_ADD_TC(tp, eof_push_exact_fill);
	return atf_no_error();
}
