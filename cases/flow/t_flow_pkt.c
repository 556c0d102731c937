// SPDX-License-Identifier: GPL-2.0-only
/* t_flow_pkt.c: the packet-mode status a master sees for each way output
 * flow changes (pty.c pty_start/pty_stop/pty_set_termios): every stop and
 * restart reports exactly once, and changes that are no change report
 * nothing. */
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* A packet-mode pair with a raw slave and IXON (^S/^Q): the setup's own
 * DOSTOP status has been read. */
static void
open_pkt_ixon(struct tp_pty *p)
{
	tp_pkt_open(p, TP_RAW);
	tp_iflag(p->slave, IXON, 0);
	tp_pkt_expect_status(p->master, TIOCPKT_DOSTOP, "DOSTOP of the setup");
}

TP_CASE(pkt_ixany_restart_reports_start, TP_LINUX,
	"With IXON|IXANY, output stopped by ^S and restarted by an ordinary "
	"byte reports TIOCPKT_STOP then TIOCPKT_START")
{
	struct tp_pty p;

	open_pkt_ixon(&p);
	tp_iflag(p.slave, IXANY, 0);
	tp_write_str(p.master, "\023", "^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_write_str(p.master, "k", "ordinary byte");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after IXANY");
	tp_pty_close(&p);
}

TP_CASE(pkt_ixon_clear_while_stopped, TP_LINUX,
	"Clearing IXON while output is stopped by ^S reports NOSTOP and "
	"START together in one status byte (0x18)")
{
	struct tp_pty p;

	open_pkt_ixon(&p);
	tp_write_str(p.master, "\023", "^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_iflag(p.slave, 0, IXON);
	tp_pkt_expect_status(p.master, TIOCPKT_NOSTOP | TIOCPKT_START,
			     "status after clearing IXON");
	tp_pty_close(&p);
}

TP_CASE(pkt_repeated_stop_start_report_once, TP_LINUX,
	"A second ^S on stopped output and a ^Q (or TCOON) on running output "
	"report no status")
{
	struct tp_pty p;

	open_pkt_ixon(&p);
	tp_tcflow(p.slave, TCOON, "TCOON on running output");
	tp_flow_input(&p, "\021", "^Q on running output");
	tp_expect_not_readable(p.master, "status for TCOON or ^Q");
	tp_write_str(p.master, "\023", "^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_flow_input(&p, "\023", "second ^S");
	tp_expect_not_readable(p.master, "status for a second ^S");
	tp_pty_close(&p);
}

TP_CASE(pkt_vintr_restart_reports_start, TP_LINUX,
	"With IXON and ISIG, a VINTR byte restarting output stopped by ^S "
	"reports TIOCPKT_START and clears STOP (the flush bits of its input "
	"flush may come in the same byte or before)")
{
	struct tp_pty p;
	unsigned char st[4];

	open_pkt_ixon(&p);
	tp_lflag(p.slave, ISIG, 0);
	tp_write_str(p.master, "\023", "^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_write_str(p.master, "\003", "^C");
	/* The flush of the input and the restart may be read as one byte
	 * or two: collect the bits until START is seen. */
	unsigned bits = 0;
	long long end = tp_now_ms() + TP_WAIT_MS;
	while (!(bits & TIOCPKT_START) && tp_now_ms() < end) {
		tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "status after ^C");
		ssize_t n = read(p.master, st, sizeof(st));
		ATF_REQUIRE_MSG(n == 1, "read %zd bytes, want one status byte",
				n);
		bits |= st[0];
	}
	ATF_CHECK_MSG(bits & TIOCPKT_START, "no TIOCPKT_START after ^C");
	ATF_CHECK_MSG(!(bits & TIOCPKT_STOP), "status 0x%02x reports STOP",
		      bits);
	tp_pty_close(&p);
}

TP_CASE(pkt_vstart_change_nostop, TP_LINUX,
	"With IXON, changing VSTART away from ^Q reports TIOCPKT_NOSTOP; "
	"restoring it reports TIOCPKT_DOSTOP")
{
	struct tp_pty p;

	open_pkt_ixon(&p);
	tp_set_cc(p.slave, VSTART, 031);
	tp_pkt_expect_status(p.master, TIOCPKT_NOSTOP, "after VSTART = ^Y");
	tp_set_cc(p.slave, VSTART, 021);
	tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "after VSTART = ^Q");
	tp_pty_close(&p);
}

TP_CASE(pkt_master_tcooff_no_status, TP_LINUX,
	"tcflow(master, TCOOFF/TCOON) suspends the master's own output and "
	"reports no status to the packet-mode master")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_tcflow(p.master, TCOOFF, "TCOOFF on the master");
	tp_tcflow(p.master, TCOON, "TCOON on the master");
	tp_expect_not_readable(p.master, "status for master flow control");
	tp_pty_close(&p);
}

TP_CASE(pkt_tcioff_while_stopped_keeps_stop, TP_LINUX,
	"TCIOFF on a slave stopped by ^S sends VSTOP as data and leaves the "
	"output stopped: the master reads STOP (restated), then the data")
{
	struct tp_pty p;
	unsigned char st[4];

	open_pkt_ixon(&p);
	tp_write_str(p.master, "\023", "^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_tcflow(p.slave, TCIOFF, "TCIOFF while stopped");
	/* tty_send_xchar restarts, writes, stops: the status left is STOP,
	 * reported before the data. */
	tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "status after TCIOFF");
	ssize_t n = read(p.master, st, sizeof(st));
	ATF_REQUIRE(n >= 1);
	ATF_CHECK_MSG(n == 1 && st[0] == TIOCPKT_STOP, "first read: %zd bytes,"
		      " 0x%02x; want the status STOP", n, st[0]);
	tp_pkt_expect_data(p.master, "\023", 1, "VSTOP as data");
	ATF_CHECK(!tp_can_write(p.slave));
	tp_pty_close(&p);
}

TP_CASE(pkt_flush_while_stopped_keeps_stop, TP_LINUX,
	"tcflush(slave, TCIOFLUSH) while output is suspended by TCOOFF "
	"reports FLUSHREAD|FLUSHWRITE (0x03) without START, and output stays "
	"suspended until TCOON reports START")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after TCOOFF");
	ATF_REQUIRE(tcflush(p.slave, TCIOFLUSH) == 0);
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHREAD | TIOCPKT_FLUSHWRITE,
			     "status after TCIOFLUSH");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "flush resumed output");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after TCOON");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_ixany_restart_reports_start);
	ATF_TP_ADD_TC(tp, pkt_ixon_clear_while_stopped);
	ATF_TP_ADD_TC(tp, pkt_repeated_stop_start_report_once);
	ATF_TP_ADD_TC(tp, pkt_vintr_restart_reports_start);
	ATF_TP_ADD_TC(tp, pkt_vstart_change_nostop);
	ATF_TP_ADD_TC(tp, pkt_master_tcooff_no_status);
	ATF_TP_ADD_TC(tp, pkt_tcioff_while_stopped_keeps_stop);
	ATF_TP_ADD_TC(tp, pkt_flush_while_stopped_keeps_stop);
	return atf_no_error();
}
