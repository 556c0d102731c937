/* t_lnext.c: VLNEXT (literal next) in canonical mode, and its IEXTEN dependency. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
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
#define EXPECT_LINE(fd, lit, what) expect_read((fd), (lit), sizeof(lit) - 1, (what))

TP_CASE(lnext_quotes_kill, TP_LINUX,
	"With IEXTEN, VLNEXT (^V) makes the next character literal: "
	"\"a^V^Ub\\n\" reads as \"a^Ub\\n\"")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VLNEXT, 026);
	set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "a\026\025b\n", "master write of a ^V ^U b");
	EXPECT_LINE(p.slave, "a\025b\n", "line with a literal ^U");
	tp_pty_close(&p);
}

TP_CASE(lnext_quotes_erase, TP_LINUX,
	"VLNEXT before VERASE stores the erase character instead of erasing")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VLNEXT, 026);
	set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "ab\026\177\n", "master write of ab ^V DEL");
	EXPECT_LINE(p.slave, "ab\177\n", "line with a literal DEL");
	tp_pty_close(&p);
}

TP_CASE(lnext_quotes_newline, TP_LINUX,
	"A newline after VLNEXT is data, not a line end: \"a^V\\nb\\n\" is one "
	"line of 4 bytes")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VLNEXT, 026);
	tp_write_str(p.master, "a\026\nb\n", "master write of a ^V NL b NL");
	EXPECT_LINE(p.slave, "a\nb\n", "one line holding a quoted newline");
	tp_pty_close(&p);
}

TP_CASE(lnext_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^V is stored as data and quotes nothing: the "
	"following ^U still kills the line")
{
	struct tp_pty p;

	canon_open(&p, 0, IEXTEN);
	set_cc(p.slave, VLNEXT, 026);
	set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "a\026c\n", "master write of a ^V c");
	EXPECT_LINE(p.slave, "a\026c\n", "^V kept as data");
	tp_write_str(p.master, "a\026\025b\n", "master write of a ^V ^U b");
	EXPECT_LINE(p.slave, "b\n", "^U killed a ^V");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lnext_quotes_kill);
	ATF_TP_ADD_TC(tp, lnext_quotes_erase);
	ATF_TP_ADD_TC(tp, lnext_quotes_newline);
	ATF_TP_ADD_TC(tp, lnext_needs_iexten);
	return atf_no_error();
}
