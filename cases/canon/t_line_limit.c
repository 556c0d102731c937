// SPDX-License-Identifier: GPL-2.0-only
/* t_line_limit.c: how canonical lines are returned by read(): size limit, one line per read. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* n_tty's read buffer: a canonical line holds at most this many bytes,
 * the line terminator included. */
#define CANON_LINE_MAX 4096

TP_CASE(line_limit_4096, TP_LINUX,
	"Regression catalogue #8: a canonical line longer than 4095 characters "
	"is truncated to 4095 plus its newline: 5000 'x' + NL gives FIONREAD "
	"4096 and one read of 4096 bytes ending in NL; the next line is intact")
{
	static char in[5001], out[2 * CANON_LINE_MAX];
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	memset(in, 'x', 5000);
	in[5000] = '\n';
	tp_write_all(p.master, in, sizeof(in), "master write of 5000 x + NL");
	tp_wait_fionread(p.slave, CANON_LINE_MAX, TP_WAIT_MS, "truncated line");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), CANON_LINE_MAX, "FIONREAD of the long line");
	ssize_t n = read(p.slave, out, sizeof(out));
	ATF_REQUIRE_EQ_MSG(n, CANON_LINE_MAX, "read returned %zd", n);
	ATF_CHECK_MSG(out[CANON_LINE_MAX - 1] == '\n', "last byte 0x%02x, want NL",
		      (unsigned char)out[CANON_LINE_MAX - 1]);
	for (int i = 0; i < CANON_LINE_MAX - 1; i++)
		if (out[i] != 'x')
			atf_tc_fail("byte %d is 0x%02x, want 'x'", i, (unsigned char)out[i]);
	tp_write_str(p.master, "ok\n", "master write of ok NL");
	TP_EXPECT_LINE(p.slave, "ok\n", "line after the truncated one");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(line_of_65_in_one_read, TP_LINUX, "3b830a9c34d5", "359303076163",
	"Regression (#13): a 65-byte line (64 'a' + NL) comes back whole from "
	"one large read, then the next line; 5.11 split it after 64 bytes "
	"(broke 3b830a9c34d5, fixed 359303076163)")
{
	char in[65], out[CANON_LINE_MAX];
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	memset(in, 'a', 64);
	in[64] = '\n';
	tp_write_all(p.master, in, sizeof(in), "master write of 64 a + NL");
	tp_write_str(p.master, "bb\n", "master write of bb NL");
	tp_wait_fionread(p.slave, 68, TP_WAIT_MS, "both lines on the slave");
	ssize_t n = read(p.slave, out, sizeof(out));
	ATF_REQUIRE_MSG(n == 65 && memcmp(out, in, 65) == 0,
			"first read returned %zd bytes, want the 65-byte line", n);
	TP_EXPECT_LINE(p.slave, "bb\n", "second line");
	tp_pty_close(&p);
}

TP_CASE(one_line_per_read, TP_POSIX,
	"A canonical read returns at most one line even when more are queued "
	"and the buffer has room")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_write_str(p.master, "ab\ncd\n", "master write of two lines");
	tp_wait_fionread(p.slave, 6, TP_WAIT_MS, "both lines on the slave");
	TP_EXPECT_LINE(p.slave, "ab\n", "first line alone");
	TP_EXPECT_LINE(p.slave, "cd\n", "second line");
	tp_pty_close(&p);
}

TP_CASE(short_read_keeps_rest_of_line, TP_POSIX,
	"A read shorter than the line returns the first bytes; the rest of the "
	"line is returned by the next read")
{
	struct tp_pty p;
	char buf[4];

	tp_canon_open(&p, 0, 0);
	tp_write_str(p.master, "abcd\n", "master write of abcd NL");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "line on the slave");
	ssize_t n = read(p.slave, buf, 2);
	ATF_REQUIRE_MSG(n == 2 && memcmp(buf, "ab", 2) == 0, "read(2) returned %zd", n);
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD after reading 2 of 5");
	TP_EXPECT_LINE(p.slave, "cd\n", "rest of the line");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, line_limit_4096);
	ATF_TP_ADD_TC(tp, line_of_65_in_one_read);
	ATF_TP_ADD_TC(tp, one_line_per_read);
	ATF_TP_ADD_TC(tp, short_read_keeps_rest_of_line);
	return atf_no_error();
}
