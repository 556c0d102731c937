/* t_eol.c: the extra line terminators VEOL and VEOL2 in canonical mode. */
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

TP_CASE(veol_terminates_line, TP_POSIX,
	"VEOL ends a line like NL and is kept as the line's last byte")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VEOL, '@');
	tp_write_str(p.master, "ab@cd\n", "master write of ab@cd NL");
	EXPECT_LINE(p.slave, "ab@", "line ended by VEOL");
	EXPECT_LINE(p.slave, "cd\n", "line ended by NL");
	tp_pty_close(&p);
}

TP_CASE(veol2_terminates_line, TP_LINUX,
	"With IEXTEN, VEOL2 ends a line and is kept as the line's last byte")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VEOL2, '#');
	tp_write_str(p.master, "ab#cd\n", "master write of ab#cd NL");
	EXPECT_LINE(p.slave, "ab#", "line ended by VEOL2");
	EXPECT_LINE(p.slave, "cd\n", "line ended by NL");
	tp_pty_close(&p);
}

TP_CASE(veol2_needs_iexten, TP_LINUX,
	"With IEXTEN clear, the VEOL2 character is ordinary data")
{
	struct tp_pty p;

	canon_open(&p, 0, IEXTEN);
	set_cc(p.slave, VEOL2, '#');
	tp_write_str(p.master, "ab#cd\n", "master write of ab#cd NL");
	EXPECT_LINE(p.slave, "ab#cd\n", "one line, # kept as data");
	tp_pty_close(&p);
}

TP_CASE(veol_disabled_nul_is_data, TP_LINUX,
	"VEOL = 0 (_POSIX_VDISABLE on Linux) disables it: a NUL byte in the "
	"input is data and does not end the line")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VEOL, 0);
	set_cc(p.slave, VEOL2, 0);
	tp_write_all(p.master, "a\0b\n", 4, "master write of a NUL b NL");
	expect_read(p.slave, "a\0b\n", 4, "one line holding a NUL");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, veol_terminates_line);
	ATF_TP_ADD_TC(tp, veol2_terminates_line);
	ATF_TP_ADD_TC(tp, veol2_needs_iexten);
	ATF_TP_ADD_TC(tp, veol_disabled_nul_is_data);
	return atf_no_error();
}
