/* t_extproc.c: EXTPROC on the slave: TIOCPKT_IOCTL status, no editing, no echo. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
set_pkt(int master, int on)
{
	if (ioctl(master, TIOCPKT, &on) != 0)
		atf_tc_fail("ioctl(master, TIOCPKT, %d): %s", on, strerror(errno));
}

/* A pty pair with packet mode on; the master is non-blocking so that a read
 * after poll can never hang. */
static void
pkt_open(struct tp_pty *p, enum tp_mode mode)
{
	tp_pty_open(p, mode);
	set_pkt(p->master, 1);
	tp_set_nonblock(p->master, true);
}

/* Status changes are posted synchronously by the ioctl that causes them:
 * "no status" is checked at once, without a window. */
static void
expect_not_readable(int fd, const char *what)
{
	short rev = tp_poll1(fd, POLLIN, 0);
	if (rev & POLLIN)
		atf_tc_fail("%s: fd %d is readable (revents 0x%x)", what, fd,
			    (unsigned)rev);
}

/* A status change is reported by one read returning exactly one byte. */
static void
expect_status(int master, unsigned char want, const char *what)
{
	unsigned char buf[64];

	tp_wait_poll(master, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if (n != 1 || buf[0] != want)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x; want the "
			    "single status byte 0x%02x",
			    what, n, n > 0 ? buf[0] : 0, want);
}

static int
fionread(int fd)
{
	int n = -1;
	if (ioctl(fd, FIONREAD, &n) != 0)
		atf_tc_fail("FIONREAD(%d): %s", fd, strerror(errno));
	return n;
}

/* Canonical slave, ECHO as asked, then EXTPROC; the TIOCPKT_IOCTL status
 * of the EXTPROC change is consumed.  The slave is non-blocking. */
static void
extproc_open(struct tp_pty *p, bool echo)
{
	pkt_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON | (echo ? ECHO : 0), echo ? 0 : ECHO);
	tp_lflag(p->slave, EXTPROC, 0);
	expect_status(p->master, TIOCPKT_IOCTL, "status after setting EXTPROC");
	tp_set_nonblock(p->slave, true);
}

TP_CASE(extproc_set_reports_ioctl, TP_LINUX,
	"Setting EXTPROC on the slave reports TIOCPKT_IOCTL (0x40) alone on the "
	"packet-mode master")
{
	struct tp_pty p;

	pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, EXTPROC, 0);
	expect_status(p.master, TIOCPKT_IOCTL, "status after setting EXTPROC");
	expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(extproc_any_change_reports_ioctl, TP_LINUX,
	"While EXTPROC is set, any termios change (here ECHO) reports "
	"TIOCPKT_IOCTL, and so does clearing EXTPROC")
{
	struct tp_pty p;

	extproc_open(&p, false);
	tp_lflag(p.slave, ECHO, 0);
	expect_status(p.master, TIOCPKT_IOCTL, "status after setting ECHO");
	tp_lflag(p.slave, 0, EXTPROC);
	expect_status(p.master, TIOCPKT_IOCTL, "status after clearing EXTPROC");
	tp_lflag(p.slave, 0, ECHO);
	expect_not_readable(p.master, "no status once EXTPROC is clear");
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
	ATF_CHECK_EQ_MSG(fionread(p.slave), 0, "FIONREAD after the zero read");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, extproc_set_reports_ioctl);
	ATF_TP_ADD_TC(tp, extproc_any_change_reports_ioctl);
	ATF_TP_ADD_TC(tp, extproc_canon_input_unedited);
	ATF_TP_ADD_TC(tp, extproc_suppresses_echo);
	ATF_TP_ADD_TC(tp, extproc_lone_eof_reads_zero);
	return atf_no_error();
}
