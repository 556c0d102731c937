// SPDX-License-Identifier: GPL-2.0-only
/* t_pkt_flush.c: packet-mode FLUSHREAD/FLUSHWRITE status from tcflush on the
 * slave, and the wake-up of a master reader already asleep when it comes. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
flush(int fd, int queue, const char *name)
{
	if (tcflush(fd, queue) != 0)
		atf_tc_fail("tcflush(slave, %s): %s", name, strerror(errno));
}

TP_CASE(pkt_flushread, TP_LINUX,
	"tcflush(slave, TCIFLUSH) reports TIOCPKT_FLUSHREAD (0x01) on the "
	"packet-mode master")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	flush(p.slave, TCIFLUSH, "TCIFLUSH");
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHREAD, "status after TCIFLUSH");
	tp_expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flushwrite, TP_LINUX,
	"tcflush(slave, TCOFLUSH) reports TIOCPKT_FLUSHWRITE (0x02) on the "
	"packet-mode master")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	flush(p.slave, TCOFLUSH, "TCOFLUSH");
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHWRITE, "status after TCOFLUSH");
	tp_expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flush_both, TP_LINUX,
	"tcflush(slave, TCIOFLUSH) reports both bits in one status byte: "
	"FLUSHREAD | FLUSHWRITE (0x03)")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	flush(p.slave, TCIOFLUSH, "TCIOFLUSH");
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHREAD | TIOCPKT_FLUSHWRITE,
		      "status after TCIOFLUSH");
	tp_expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flushwrite_keeps_delivered_output, TP_LINUX,
	"tcflush(slave, TCOFLUSH) only drops output still in the pty's flip "
	"buffer: bytes the master's line discipline already holds are read "
	"after the FLUSHWRITE status, as a data packet")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "sent", "slave write of sent");
	/* FIONREAD counts only what the master's ldisc has received. */
	tp_wait_fionread(p.master, 4, TP_WAIT_MS, "output delivered to the master");
	flush(p.slave, TCOFLUSH, "TCOFLUSH");
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHWRITE, "status after TCOFLUSH");
	tp_pkt_expect_data(p.master, "sent", 4, "output delivered before the flush");
	tp_expect_not_readable(p.master, "nothing after the data");
	tp_pty_close(&p);
}

TP_CASE(pkt_master_flush_no_status, TP_LINUX,
	"tcflush on the packet-mode master itself (TCIFLUSH, TCOFLUSH, "
	"TCIOFLUSH) posts no status: the flush statuses report the slave's "
	"flushes only")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	if (tcflush(p.master, TCIFLUSH) != 0 || tcflush(p.master, TCOFLUSH) != 0 ||
	    tcflush(p.master, TCIOFLUSH) != 0)
		atf_tc_fail("tcflush on the master: %s", strerror(errno));
	tp_expect_not_readable(p.master, "status for the master's own flush");
	tp_pty_close(&p);
}

TP_CASE(pkt_flushes_wake_blocked_reader, TP_LINUX,
	"A process already asleep in read() on the packet-mode master is "
	"woken by tcflush(slave, TCIFLUSH) and reads TIOCPKT_FLUSHREAD alone; "
	"one asleep again is woken by tcflush(slave, TCOFLUSH) and reads "
	"TIOCPKT_FLUSHWRITE alone")
{
	struct tp_pty p;
	struct tp_reader r;

	tp_pkt_open(&p, TP_RAW);
	tp_pkt_reader_start(&r, p.master);
	flush(p.slave, TCIFLUSH, "TCIFLUSH");
	tp_pkt_reader_expect(&r, TIOCPKT_FLUSHREAD, "reader woken by TCIFLUSH");
	tp_pkt_reader_start(&r, p.master);
	flush(p.slave, TCOFLUSH, "TCOFLUSH");
	tp_pkt_reader_expect(&r, TIOCPKT_FLUSHWRITE, "reader woken by TCOFLUSH");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_flushread);
	ATF_TP_ADD_TC(tp, pkt_flushwrite);
	ATF_TP_ADD_TC(tp, pkt_flush_both);
	ATF_TP_ADD_TC(tp, pkt_flushwrite_keeps_delivered_output);
	ATF_TP_ADD_TC(tp, pkt_master_flush_no_status);
	ATF_TP_ADD_TC(tp, pkt_flushes_wake_blocked_reader);
	return atf_no_error();
}
