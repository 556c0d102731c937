// SPDX-License-Identifier: GPL-2.0-only
/* t_line_pending.c: a canonical line not yet terminated, and ICANON toggled around queued input. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* The ldisc has processed input once its echo reaches the master: that is
 * the state to wait for before looking at what the slave holds. */
static void
wait_echo(struct tp_pty *p, const char *want, const char *what)
{
	char got[64];
	size_t len = strlen(want);

	tp_read_exact(p->master, got, len, sizeof(got), what);
	if (memcmp(got, want, len) != 0)
		atf_tc_fail("%s: echo \"%s\", want \"%s\"", what, tp_esc(got, len),
			    tp_esc(want, len));
}

TP_CASE(partial_line_not_readable, TP_POSIX,
	"In canonical mode a partial line is not readable: poll reports no "
	"input and FIONREAD is 0 until the newline arrives")
{
	struct tp_pty p;

	tp_canon_open(&p, ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "abc", "master write of abc");
	wait_echo(&p, "abc", "echo of abc");
	tp_expect_not_readable(p.slave, "partial line abc");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD with only a partial line");
	char buf[8];
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n < 0 && errno == EAGAIN,
		      "non-blocking read of a partial line returned %zd (%s)", n,
		      n < 0 ? strerror(errno) : "data");
	tp_write_str(p.master, "\n", "master write of NL");
	TP_EXPECT_LINE(p.slave, "abc\n", "completed line");
	tp_pty_close(&p);
}

TP_CASE(fionread_counts_complete_lines, TP_LINUX,
	"FIONREAD on a canonical slave counts the bytes of completed lines "
	"only: after \"ab\\ncd\" it is 3")
{
	struct tp_pty p;

	tp_canon_open(&p, ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "ab\ncd", "master write of ab NL cd");
	wait_echo(&p, "ab\r\ncd", "echo of ab NL cd");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD with one line and a partial one");
	TP_EXPECT_LINE(p.slave, "ab\n", "completed line");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD with only the partial line left");
	tp_pty_close(&p);
}

TP_CASE(icanon_off_releases_partial_line, TP_POSIX,
	"Clearing ICANON with a partial line queued makes its bytes readable "
	"at once in non-canonical mode")
{
	struct tp_pty p;
	struct termios t;

	tp_canon_open(&p, ECHO, 0);
	tp_write_str(p.master, "abc", "master write of abc");
	wait_echo(&p, "abc", "echo of abc");
	tp_tc_get(p.slave, &t);
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	tp_tc_set(p.slave, &t);
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD after clearing ICANON");
	tp_expect_read(p.slave, "abc", 3, "bytes of the former partial line");
	tp_pty_close(&p);
}

TP_CASE(icanon_on_pushes_queued_bytes, TP_LINUX,
	"Setting ICANON with non-canonical bytes queued turns them into a "
	"readable line without a terminator (an implicit EOF push)")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, ICANON);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "abc queued in non-canonical mode");
	tp_lflag(p.slave, ICANON, 0);
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD after setting ICANON");
	tp_expect_read(p.slave, "abc", 3, "queued bytes as one line");
	tp_expect_not_readable(p.slave, "no zero-length read after the pushed line");
	tp_write_str(p.master, "de", "master write of de");
	tp_expect_quiet(p.slave, "new input is canonical again");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, partial_line_not_readable);
	ATF_TP_ADD_TC(tp, fionread_counts_complete_lines);
	ATF_TP_ADD_TC(tp, icanon_off_releases_partial_line);
	ATF_TP_ADD_TC(tp, icanon_on_pushes_queued_bytes);
	return atf_no_error();
}
