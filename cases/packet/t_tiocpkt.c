// SPDX-License-Identifier: GPL-2.0-only
/* t_tiocpkt.c: pty packet mode basics: data packets, status order, TIOCGPKT, mode off. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(pkt_data_prefixed, TP_LINUX,
	"In packet mode each read of slave output on the master starts with "
	"TIOCPKT_DATA (0): \"hi\" reads as 0x00 h i")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "hi", "slave write of hi");
	tp_pkt_expect_data(p.master, "hi", 2, "packet of hi");
	tp_pty_close(&p);
}

TP_CASE(pkt_status_read_before_data, TP_LINUX,
	"A pending status is returned alone by the next read, before slave "
	"output that arrived earlier; the data follows in its own packet")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "hi", "slave write of hi");
	tp_wait_fionread(p.master, 2, TP_WAIT_MS, "hi queued on the master");
	if (tcflush(p.slave, TCIFLUSH) != 0)
		atf_tc_fail("tcflush(slave, TCIFLUSH): %s", strerror(errno));
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHREAD, "status before the data");
	tp_pkt_expect_data(p.master, "hi", 2, "data after the status");
	tp_pty_close(&p);
}

TP_CASE(pkt_mode_off_plain_data, TP_LINUX,
	"Turning packet mode off again (TIOCPKT 0) makes master reads return "
	"plain data without the leading 0")
{
	struct tp_pty p;
	char buf[8];

	tp_pkt_open(&p, TP_RAW);
	tp_pkt_set(p.master, 0);
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
	tp_pkt_set(p.master, 1);
	ATF_REQUIRE_EQ(ioctl(p.master, TIOCGPKT, &mode), 0);
	ATF_CHECK_EQ_MSG(mode, 1, "packet mode after TIOCPKT 1");
	tp_pkt_set(p.master, 0);
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
	tp_expect_not_readable(p.master, "status bytes without packet mode");
	tp_pty_close(&p);
}

TP_CASE(pkt_enable_discards_old_status, TP_LINUX,
	"Switching packet mode on discards a status left from an earlier "
	"packet-mode period: TIOCPKT 1, TCOOFF, TIOCPKT 0, TIOCPKT 1 leaves "
	"nothing to read")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	if (tcflow(p.slave, TCOOFF) != 0)
		atf_tc_fail("tcflow(slave, TCOOFF): %s", strerror(errno));
	tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "stop status pending");
	tp_pkt_set(p.master, 0);
	tp_pkt_set(p.master, 1);
	tp_expect_not_readable(p.master, "stale stop status");
	if (tcflow(p.slave, TCOON) != 0)
		atf_tc_fail("tcflow(slave, TCOON): %s", strerror(errno));
	tp_pkt_expect_status(p.master, TIOCPKT_START, "new start status");
	tp_pty_close(&p);
}

TP_CASE(pkt_reenable_keeps_pending_status, TP_LINUX,
	"TIOCPKT 1 on a master already in packet mode changes nothing: a "
	"status not yet read (TIOCPKT_STOP) is still read after it")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "stop status pending");
	tp_pkt_set(p.master, 1);
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after TIOCPKT 1 again");
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
	ATF_TP_ADD_TC(tp, pkt_reenable_keeps_pending_status);
	return atf_no_error();
}
