// SPDX-License-Identifier: GPL-2.0-only
/* t_extproc.c: EXTPROC on the slave: TIOCPKT_IOCTL status, no editing, no echo. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Canonical slave, ECHO as asked, then EXTPROC; the TIOCPKT_IOCTL status
 * of the EXTPROC change is consumed.  The slave is non-blocking. */
static void
extproc_open(struct tp_pty *p, bool echo)
{
	tp_pkt_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON | (echo ? ECHO : 0), echo ? 0 : ECHO);
	tp_lflag(p->slave, EXTPROC, 0);
	tp_pkt_expect_status(p->master, TIOCPKT_IOCTL, "status after setting EXTPROC");
	tp_set_nonblock(p->slave, true);
}

TP_CASE(extproc_set_reports_ioctl, TP_LINUX,
	"Setting EXTPROC on the slave reports TIOCPKT_IOCTL (0x40) alone on the "
	"packet-mode master")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, EXTPROC, 0);
	tp_pkt_expect_status(p.master, TIOCPKT_IOCTL, "status after setting EXTPROC");
	tp_expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(extproc_any_change_reports_ioctl, TP_LINUX,
	"While EXTPROC is set, any termios change (here ECHO) reports "
	"TIOCPKT_IOCTL, and so does clearing EXTPROC")
{
	struct tp_pty p;

	extproc_open(&p, false);
	tp_lflag(p.slave, ECHO, 0);
	tp_pkt_expect_status(p.master, TIOCPKT_IOCTL, "status after setting ECHO");
	tp_lflag(p.slave, 0, EXTPROC);
	tp_pkt_expect_status(p.master, TIOCPKT_IOCTL, "status after clearing EXTPROC");
	tp_lflag(p.slave, 0, ECHO);
	tp_expect_not_readable(p.master, "no status once EXTPROC is clear");
	tp_pty_close(&p);
}

TP_CASE(extproc_canon_input_unedited, TP_LINUX,
	"With EXTPROC and ICANON the slave's line discipline does no editing: "
	"\"ab\\177c\\n\" reaches the slave byte for byte")
{
	struct tp_pty p;
	char buf[16];

	extproc_open(&p, false);
	tp_write_all(p.master, "ab\177c\n", 5, "master write of ab DEL c NL");
	tp_wait_fionread(p.slave, 5, TP_WAIT_MS, "5 bytes on the slave");
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 5 && memcmp(buf, "ab\177c\n", 5) == 0,
		      "slave read %zd bytes, want the 5 unedited bytes", n);
	tp_pty_close(&p);
}

TP_CASE(extproc_canon_read_takes_all_queued_bytes, TP_LINUX,
	"With EXTPROC and ICANON input is not split into lines: with 100 "
	"bytes of 10 lines queued, one read of 256 returns all 100 byte for "
	"byte (past the 64 bytes the tty layer copies at a time) and leaves "
	"nothing queued")
{
	struct tp_pty p;
	char sent[100], buf[256];

	for (size_t i = 0; i < sizeof(sent); i++)
		sent[i] = i % 10 == 9 ? '\n' : (char)('a' + i / 10);
	extproc_open(&p, false);
	tp_write_all(p.master, sent, sizeof(sent), "master write of 10 lines");
	tp_wait_fionread(p.slave, 100, TP_WAIT_MS, "100 bytes on the slave");
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 100 && memcmp(buf, sent, 100) == 0,
		      "slave read %zd bytes (%s), want the 100 queued", n,
		      n < 0 ? strerror(errno) : tp_esc(buf, n > 0 ? (size_t)n : 0));
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD %d after the read",
			 tp_fionread(p.slave));
	tp_pty_close(&p);
}

TP_CASE(extproc_suppresses_echo, TP_LINUX,
	"With EXTPROC set, ECHO produces no echo: input reaches the slave and "
	"nothing comes back on the master")
{
	struct tp_pty p;

	extproc_open(&p, true);
	tp_write_str(p.master, "ab\n", "master write of ab NL");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "ab NL on the slave");
	tp_expect_quiet(p.master, "echo with EXTPROC set");
	tp_pty_close(&p);
}

TP_CASE(extproc_lone_eof_reads_zero, TP_LINUX,
	"With EXTPROC and ICANON, a VEOF byte alone in the input queue is "
	"counted by FIONREAD but read() turns it into a zero-length read")
{
	struct tp_pty p;
	char buf[16];

	extproc_open(&p, false);
	tp_write_str(p.master, "\004", "master write of ^D");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "^D on the slave");
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 0, "read returned %zd (%s), want 0", n,
		      n < 0 ? strerror(errno) : "data");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD after the zero read");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, extproc_set_reports_ioctl);
	ATF_TP_ADD_TC(tp, extproc_any_change_reports_ioctl);
	ATF_TP_ADD_TC(tp, extproc_canon_input_unedited);
	ATF_TP_ADD_TC(tp, extproc_canon_read_takes_all_queued_bytes);
	ATF_TP_ADD_TC(tp, extproc_suppresses_echo);
	ATF_TP_ADD_TC(tp, extproc_lone_eof_reads_zero);
	return atf_no_error();
}
