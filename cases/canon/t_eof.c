/* t_eof.c: VEOF in canonical mode: end-of-file reads and partial-line pushes. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Bytes as printable text for failure messages. */
static const char *
esc(const void *buf, size_t len)
{
	static char out[4][512];
	static int slot;
	char *o = out[slot++ % 4];
	const unsigned char *p = buf;
	size_t j = 0;

	for (size_t i = 0; i < len && j < sizeof(out[0]) - 8; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			o[j++] = (char)p[i];
		else
			j += (size_t)snprintf(o + j, 8, "\\x%02x", p[i]);
	}
	o[j] = '\0';
	return o;
}

/* A canonical slave, ECHO off unless lset sets it, non-blocking so that
 * a read after poll can never hang. */
static void
canon_open(struct tp_pty *p, tcflag_t lset, tcflag_t lclear)
{
	tp_pty_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON | lset, (ECHO & ~lset) | lclear);
	tp_set_nonblock(p->slave, true);
}

static void
set_cc(int fd, int idx, cc_t val)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_cc[idx] = val;
	tp_tc_set(fd, &t);
}

/* In canonical mode one read() returns at most one line: wait for a line,
 * read once with room to spare and compare the whole result. */
static void
expect_read(int fd, const char *want, size_t len, const char *what)
{
	char buf[512];

	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len || memcmp(buf, want, len) != 0)
		atf_tc_fail("%s: read \"%s\" (%zd bytes), want \"%s\" (%zu)",
			    what, esc(buf, (size_t)n), n, esc(want, len), len);
}

/* Nothing readable right now: for states already settled (all input the
 * case wrote has been seen to be processed), no window is needed. */
static void
expect_not_readable(int fd, const char *what)
{
	short rev = tp_poll1(fd, POLLIN, 0);
	if (rev & POLLIN)
		atf_tc_fail("%s: fd %d is readable (revents 0x%x)", what, fd,
			    (unsigned)rev);
}

#define EXPECT_LINE(fd, lit, what) expect_read((fd), (lit), sizeof(lit) - 1, (what))

static int
fionread(int fd)
{
	int n = -1;
	if (ioctl(fd, FIONREAD, &n) != 0)
		atf_tc_fail("FIONREAD(%d): %s", fd, strerror(errno));
	return n;
}

TP_CASE(eof_at_line_start_reads_zero, TP_POSIX,
	"VEOF at the start of a line makes one read() return 0; the input "
	"after it is read normally")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "\004xy\n", "master write of ^D xy NL");
	expect_read(p.slave, "", 0, "end-of-file read");
	EXPECT_LINE(p.slave, "xy\n", "line after the end-of-file");
	expect_not_readable(p.slave, "a single end-of-file");
	tp_pty_close(&p);
}

TP_CASE(eof_alone_not_counted, TP_LINUX,
	"A lone VEOF makes the slave readable (poll POLLIN) while FIONREAD "
	"reports 0 bytes: the EOF character itself is never data")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "\004", "master write of ^D");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "slave readable after ^D");
	ATF_CHECK_EQ_MSG(fionread(p.slave), 0, "FIONREAD counted the EOF char");
	expect_read(p.slave, "", 0, "end-of-file read");
	expect_not_readable(p.slave, "end-of-file consumed by one read");
	tp_pty_close(&p);
}

TP_CASE(eof_mid_line_pushes_partial, TP_POSIX,
	"VEOF after some input makes the partial line readable without the "
	"EOF character: \"ab^D\" reads as \"ab\"")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "ab\004", "master write of ab ^D");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "slave readable after ab ^D");
	ATF_CHECK_EQ_MSG(fionread(p.slave), 2, "FIONREAD after ab ^D");
	EXPECT_LINE(p.slave, "ab", "pushed partial line");
	expect_not_readable(p.slave, "no zero-length read left behind");
	tp_write_str(p.master, "cd\n", "master write of cd NL");
	EXPECT_LINE(p.slave, "cd\n", "next line");
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

	canon_open(&p, 0, 0);
	set_cc(p.slave, VEOF, 004);
	tp_write_str(p.master, "abcd\004", "master write of abcd ^D");
	tp_write_str(p.master, "xy\n", "master write of xy NL");
	/* abcd + xy NL; the EOF character is not counted. */
	tp_wait_fionread(p.slave, 7, TP_WAIT_MS, "both lines on the slave");
	ssize_t n = read(p.slave, buf, 4);
	ATF_REQUIRE_MSG(n == 4 && memcmp(buf, "abcd", 4) == 0,
			"first read(4) returned %zd \"%s\"", n,
			esc(buf, n > 0 ? (size_t)n : 0));
	n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 3 && memcmp(buf, "xy\n", 3) == 0,
		      "second read returned %zd \"%s\", want 3 \"xy\\n\"", n,
		      esc(buf, n > 0 ? (size_t)n : 0));
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
