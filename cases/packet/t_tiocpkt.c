/* t_tiocpkt.c: pty packet mode basics: data packets, status order, TIOCGPKT, mode off. */
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

/* Slave output read from a packet-mode master: one read, TIOCPKT_DATA (0)
 * first, then the bytes. */
static void
expect_data(int master, const char *want, size_t len, const char *what)
{
	char buf[64];

	tp_wait_fionread(master, (int)len, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len + 1 || buf[0] != TIOCPKT_DATA ||
	    memcmp(buf + 1, want, len) != 0)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x \"%.*s\"; "
			    "want %zu bytes: 0x00 \"%.*s\"",
			    what, n, n > 0 ? (unsigned char)buf[0] : 0,
			    n > 1 ? (int)n - 1 : 0, buf + 1, len + 1, (int)len, want);
}

TP_CASE(pkt_data_prefixed, TP_LINUX,
	"In packet mode each read of slave output on the master starts with "
	"TIOCPKT_DATA (0): \"hi\" reads as 0x00 h i")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "hi", "slave write of hi");
	expect_data(p.master, "hi", 2, "packet of hi");
	tp_pty_close(&p);
}

TP_CASE(pkt_status_read_before_data, TP_LINUX,
	"A pending status is returned alone by the next read, before slave "
	"output that arrived earlier; the data follows in its own packet")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "hi", "slave write of hi");
	tp_wait_fionread(p.master, 2, TP_WAIT_MS, "hi queued on the master");
	if (tcflush(p.slave, TCIFLUSH) != 0)
		atf_tc_fail("tcflush(slave, TCIFLUSH): %s", strerror(errno));
	expect_status(p.master, TIOCPKT_FLUSHREAD, "status before the data");
	expect_data(p.master, "hi", 2, "data after the status");
	tp_pty_close(&p);
}

TP_CASE(pkt_mode_off_plain_data, TP_LINUX,
	"Turning packet mode off again (TIOCPKT 0) makes master reads return "
	"plain data without the leading 0")
{
	struct tp_pty p;
	char buf[8];

	pkt_open(&p, TP_RAW);
	set_pkt(p.master, 0);
	tp_write_str(p.slave, "hi", "slave write of hi");
	tp_wait_fionread(p.master, 2, TP_WAIT_MS, "hi on the master");
	ssize_t n = read(p.master, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 2 && memcmp(buf, "hi", 2) == 0,
		      "read returned %zd bytes, first 0x%02x; want \"hi\"", n,
		      n > 0 ? (unsigned char)buf[0] : 0);
	tp_pty_close(&p);
}

TP_CASE(pkt_tiocgpkt_reads_mode, TP_LINUX,
	"TIOCGPKT on the master reads back the packet mode: 0, 1 after TIOCPKT "
	"1, 0 after TIOCPKT 0")
{
	struct tp_pty p;
	int mode = -1;

	tp_pty_open(&p, TP_RAW);
	if (ioctl(p.master, TIOCGPKT, &mode) != 0) {
		if (errno == EINVAL || errno == ENOTTY)
			atf_tc_skip("needs TIOCGPKT (Linux 3.8): %s", strerror(errno));
		atf_tc_fail("TIOCGPKT: %s", strerror(errno));
	}
	ATF_CHECK_EQ_MSG(mode, 0, "initial packet mode");
	set_pkt(p.master, 1);
	ATF_REQUIRE_EQ(ioctl(p.master, TIOCGPKT, &mode), 0);
	ATF_CHECK_EQ_MSG(mode, 1, "packet mode after TIOCPKT 1");
	set_pkt(p.master, 0);
	ATF_REQUIRE_EQ(ioctl(p.master, TIOCGPKT, &mode), 0);
	ATF_CHECK_EQ_MSG(mode, 0, "packet mode after TIOCPKT 0");
	tp_pty_close(&p);
}

TP_CASE(pkt_off_reports_no_status, TP_LINUX,
	"With packet mode off, flushes and flow control on the slave put "
	"nothing on the master")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	if (tcflush(p.slave, TCIOFLUSH) != 0 || tcflow(p.slave, TCOOFF) != 0 ||
	    tcflow(p.slave, TCOON) != 0)
		atf_tc_fail("tcflush/tcflow on the slave: %s", strerror(errno));
	expect_not_readable(p.master, "status bytes without packet mode");
	tp_pty_close(&p);
}

TP_CASE(pkt_enable_discards_old_status, TP_LINUX,
	"Switching packet mode on discards a status left from an earlier "
	"packet-mode period: TIOCPKT 1, TCOOFF, TIOCPKT 0, TIOCPKT 1 leaves "
	"nothing to read")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "stop status pending");
	set_pkt(p.master, 0);
	set_pkt(p.master, 1);
	expect_not_readable(p.master, "stale stop status");
	if (tcflow(p.slave, TCOON) != 0)
		atf_tc_fail("tcflow(slave, TCOON): %s", strerror(errno));
	expect_status(p.master, TIOCPKT_START, "new start status");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_data_prefixed);
	ATF_TP_ADD_TC(tp, pkt_status_read_before_data);
	ATF_TP_ADD_TC(tp, pkt_mode_off_plain_data);
	ATF_TP_ADD_TC(tp, pkt_tiocgpkt_reads_mode);
	ATF_TP_ADD_TC(tp, pkt_off_reports_no_status);
	ATF_TP_ADD_TC(tp, pkt_enable_discards_old_status);
	return atf_no_error();
}
