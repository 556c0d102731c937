// SPDX-License-Identifier: GPL-2.0-only
/* t_pkt_flow.c: packet-mode STOP/START and NOSTOP/DOSTOP status from slave
 * flow control, and the wake-up of a master reader already asleep when a
 * status comes. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
flow(int fd, int action, const char *name)
{
	if (tcflow(fd, action) != 0)
		atf_tc_fail("tcflow(slave, %s): %s", name, strerror(errno));
}

TP_CASE(pkt_stop_start, TP_LINUX,
	"tcflow(slave, TCOOFF) reports TIOCPKT_STOP (0x04), TCOON then "
	"reports TIOCPKT_START (0x08)")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	flow(p.slave, TCOOFF, "TCOOFF");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after TCOOFF");
	flow(p.slave, TCOON, "TCOON");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after TCOON");
	tp_expect_not_readable(p.master, "one status per change");
	tp_pty_close(&p);
}

TP_CASE(pkt_start_replaces_unread_stop, TP_LINUX,
	"TCOOFF then TCOON before the master reads leaves one status byte, "
	"TIOCPKT_START alone: START clears the unread STOP bit")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_RAW);
	flow(p.slave, TCOOFF, "TCOOFF");
	flow(p.slave, TCOON, "TCOON");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "merged status");
	tp_expect_not_readable(p.master, "a single merged status");
	tp_pty_close(&p);
}

TP_CASE(pkt_stop_char_input, TP_LINUX,
	"With IXON on the slave, ^S and ^Q arriving from the master stop and "
	"restart slave output and report TIOCPKT_STOP then TIOCPKT_START")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_write_str(p.master, "\023", "master write of ^S");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "status after ^S");
	tp_write_str(p.master, "\021", "master write of ^Q");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "status after ^Q");
	tp_pty_close(&p);
}

TP_CASE(pkt_ixon_nostop_dostop, TP_LINUX,
	"Clearing IXON (with VSTOP ^S, VSTART ^Q) reports TIOCPKT_NOSTOP "
	"(0x10); setting it again reports TIOCPKT_DOSTOP (0x20)")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_COOKED);
	tp_set_cc(p.slave, VSTOP, 023);
	tp_set_cc(p.slave, VSTART, 021);
	tp_iflag(p.slave, IXON, 0);
	/* Whatever the setup produced is not under test. */
	while (tp_poll1(p.master, POLLIN, 0) & POLLIN)
		tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "status of the setup");
	tp_iflag(p.slave, 0, IXON);
	tp_pkt_expect_status(p.master, TIOCPKT_NOSTOP, "status after clearing IXON");
	tp_iflag(p.slave, IXON, 0);
	tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "status after setting IXON");
	tp_pty_close(&p);
}

TP_CASE(pkt_vstop_change_nostop, TP_LINUX,
	"With IXON set, changing VSTOP away from ^S reports TIOCPKT_NOSTOP; "
	"restoring it reports TIOCPKT_DOSTOP")
{
	struct tp_pty p;

	tp_pkt_open(&p, TP_COOKED);
	tp_set_cc(p.slave, VSTOP, 023);
	tp_set_cc(p.slave, VSTART, 021);
	tp_iflag(p.slave, IXON, 0);
	while (tp_poll1(p.master, POLLIN, 0) & POLLIN)
		tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "status of the setup");
	tp_set_cc(p.slave, VSTOP, 030);
	tp_pkt_expect_status(p.master, TIOCPKT_NOSTOP, "status after VSTOP = ^X");
	tp_set_cc(p.slave, VSTOP, 023);
	tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "status after VSTOP = ^S");
	tp_pty_close(&p);
}

TP_CASE(pkt_other_termios_no_status, TP_LINUX,
	"Without EXTPROC, termios changes that do not affect ^S/^Q flow "
	"control (ECHO, ICANON, VMIN, OPOST) report no status")
{
	struct tp_pty p;
	struct termios t;

	tp_pkt_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &t);
	t.c_lflag ^= ECHO | ICANON;
	t.c_oflag ^= OPOST;
	t.c_cc[VMIN] = 7;
	tp_tc_set(p.slave, &t);
	tp_expect_not_readable(p.master, "status for a termios change");
	tp_pty_close(&p);
}

TP_CASE(pkt_tcooff_tcoon_wake_blocked_reader, TP_LINUX,
	"A process already asleep in read() on the packet-mode master is "
	"woken by tcflow(slave, TCOOFF) with TIOCPKT_STOP; a second sleeping "
	"reader is woken by TCOON with TIOCPKT_START")
{
	struct tp_pty p;
	struct tp_reader r;

	tp_pkt_open(&p, TP_RAW);
	tp_pkt_reader_start(&r, p.master);
	flow(p.slave, TCOOFF, "TCOOFF");
	tp_pkt_reader_expect(&r, TIOCPKT_STOP, "reader woken by TCOOFF");
	tp_pkt_reader_start(&r, p.master);
	flow(p.slave, TCOON, "TCOON");
	tp_pkt_reader_expect(&r, TIOCPKT_START, "reader woken by TCOON");
	tp_pty_close(&p);
}

TP_CASE(pkt_stop_chars_wake_blocked_reader, TP_LINUX,
	"With IXON on the slave, a process already asleep in read() on the "
	"packet-mode master is woken by the ^S it sends with TIOCPKT_STOP, "
	"and a second sleeping reader by ^Q with TIOCPKT_START")
{
	struct tp_pty p;
	struct tp_reader r;

	tp_pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_pkt_reader_start(&r, p.master);
	tp_write_str(p.master, "\023", "master write of ^S");
	tp_pkt_reader_expect(&r, TIOCPKT_STOP, "reader woken by ^S");
	tp_pkt_reader_start(&r, p.master);
	tp_write_str(p.master, "\021", "master write of ^Q");
	tp_pkt_reader_expect(&r, TIOCPKT_START, "reader woken by ^Q");
	tp_pty_close(&p);
}

TP_CASE(pkt_ixon_change_wakes_blocked_reader, TP_LINUX,
	"A process already asleep in read() on the packet-mode master is "
	"woken when the slave's termios switches ^S/^Q flow control off "
	"(TIOCPKT_NOSTOP) and, sleeping again, when it switches it on "
	"(TIOCPKT_DOSTOP)")
{
	struct tp_pty p;
	struct tp_reader r;

	tp_pkt_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_pkt_expect_status(p.master, TIOCPKT_DOSTOP, "DOSTOP of the setup");
	tp_pkt_reader_start(&r, p.master);
	tp_iflag(p.slave, 0, IXON);
	tp_pkt_reader_expect(&r, TIOCPKT_NOSTOP, "reader woken by clearing IXON");
	tp_pkt_reader_start(&r, p.master);
	tp_iflag(p.slave, IXON, 0);
	tp_pkt_reader_expect(&r, TIOCPKT_DOSTOP, "reader woken by setting IXON");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_stop_start);
	ATF_TP_ADD_TC(tp, pkt_start_replaces_unread_stop);
	ATF_TP_ADD_TC(tp, pkt_stop_char_input);
	ATF_TP_ADD_TC(tp, pkt_ixon_nostop_dostop);
	ATF_TP_ADD_TC(tp, pkt_vstop_change_nostop);
	ATF_TP_ADD_TC(tp, pkt_other_termios_no_status);
	ATF_TP_ADD_TC(tp, pkt_tcooff_tcoon_wake_blocked_reader);
	ATF_TP_ADD_TC(tp, pkt_stop_chars_wake_blocked_reader);
	ATF_TP_ADD_TC(tp, pkt_ixon_change_wakes_blocked_reader);
	return atf_no_error();
}
