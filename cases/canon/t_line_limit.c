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

/* A line of len bytes (a pattern, then NL) written to the master, seen
 * whole by FIONREAD on the slave. */
static void
queue_line(struct tp_pty *p, char *line, size_t len, unsigned seed, const char *what)
{
	tp_pattern(line, len - 1, seed);
	for (size_t i = 0; i < len - 1; i++)
		if (line[i] == '\n' || (unsigned char)line[i] < ' ' ||
		    (unsigned char)line[i] >= 0x7f)
			line[i] = (char)('a' + i % 26); /* no control characters */
	line[len - 1] = '\n';
	tp_write_all(p->master, line, len, what);
	tp_wait_fionread(p->slave, (int)len, TP_WAIT_MS, what);
}

/* One read of want bytes (at most len asked), which must equal line. */
static void
read_part(int fd, const char *line, size_t want, size_t len, const char *what)
{
	static char got[CANON_LINE_MAX];
	ssize_t n = read(fd, got, len);
	ATF_REQUIRE_MSG(n == (ssize_t)want, "%s: read returned %zd (%s), want %zu bytes",
			what, n, n < 0 ? strerror(errno) : "short", want);
	for (size_t i = 0; i < want; i++)
		if (got[i] != line[i])
			atf_tc_fail("%s: byte %zu is 0x%02x, want 0x%02x", what, i,
				    (unsigned char)got[i], (unsigned char)line[i]);
}

TP_CASE(line_across_the_ring_end_is_intact, TP_LINUX,
	"A canonical line stored across the end of n_tty's 4096-byte read "
	"buffer comes back whole and in order: after a 3001-byte line is "
	"read, a 2001-byte line (bytes 3001-5001 of the stream) is one read "
	"of 2001 bytes; then a 3501-byte line read as 3300 bytes and 201 "
	"bytes, its first part itself across the end")
{
	static char line1[3001], line2[2001], line3[3501];
	struct tp_pty p;

	tp_canon_open(&p, 0, ECHO);
	queue_line(&p, line1, sizeof(line1), 7, "a 3001-byte line");
	read_part(p.slave, line1, sizeof(line1), CANON_LINE_MAX, "the 3001-byte line");
	queue_line(&p, line2, sizeof(line2), 11, "a 2001-byte line across the end");
	read_part(p.slave, line2, sizeof(line2), CANON_LINE_MAX,
		  "the 2001-byte line across the end");
	queue_line(&p, line3, sizeof(line3), 13, "a 3501-byte line across the end");
	read_part(p.slave, line3, 3300, 3300, "the first 3300 bytes of the 3501-byte line");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 201, "FIONREAD after 3300 of 3501 bytes");
	read_part(p.slave, line3 + 3300, 201, CANON_LINE_MAX,
		  "the last 201 bytes of the 3501-byte line");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, line_limit_4096);
	ATF_TP_ADD_TC(tp, line_of_65_in_one_read);
	ATF_TP_ADD_TC(tp, one_line_per_read);
	ATF_TP_ADD_TC(tp, short_read_keeps_rest_of_line);
	ATF_TP_ADD_TC(tp, line_across_the_ring_end_is_intact);
	return atf_no_error();
}
