// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_stopped.c: echo of input that arrives while output is stopped is
 * held, and released when output starts again. */
#include <poll.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* Input reached the slave (non-canonical: FIONREAD counts it), so its echo
 * was generated; it must not have reached the master. */
static void
expect_echo_held(struct tp_pty *p, int queued, const char *what)
{
	tp_wait_fionread(p->slave, queued, TP_WAIT_MS, what);
	tp_expect_quiet(p->master, what);
}

TP_CASE(echo_held_by_vstop_released_by_vstart, TP_POSIX,
	"With IXON, after VSTOP the echo of further input is held (the "
	"input itself reaches the slave); VSTART releases it, in order, and "
	"neither STOP nor START is echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023abc", "master write of ^S abc");
	expect_echo_held(&p, 3, "echo of abc while stopped");
	TP_ECHO(p.master, "\021z", "abcz", "echo after ^Q z");
	tp_pty_close(&p);
}

/* Output stopped: the slave stops being writable (the pty has no room). */
static void
wait_slave_stopped(struct tp_pty *p, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for(what);
	while (tp_poll1(p->slave, POLLOUT, 0) & POLLOUT) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: slave still writable after %d ms", what,
				    TP_WAIT_MS);
		tp_backoff(&step);
	}
}

TP_CASE(ixany_char_after_vstop_restarts_and_is_echoed, TP_POSIX,
	"With IXON|IXANY, once VSTOP has stopped output (the slave is no "
	"longer writable) any input character restarts it: the slave is "
	"writable again and the character is echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON | IXANY, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023", "master write of ^S");
	wait_slave_stopped(&p, "output stopped by ^S");
	TP_ECHO(p.master, "x", "x", "echo of x, which restarts output");
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLOUT, TP_WAIT_MS) & POLLOUT,
		      "slave not writable after the IXANY restart");
	tp_pty_close(&p);
}

TP_CASE(echo_held_by_tcooff_not_released_by_vstart, TP_POSIX,
	"After tcflow(TCOOFF) echo is held, and neither VSTART nor an IXANY "
	"character restarts output; after tcflow(TCOON) the next input "
	"flushes the held echo in order")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON | IXANY, OPOST | ONLCR, ECHO | ECHOCTL);
	ATF_REQUIRE(tcflow(p.slave, TCOOFF) == 0);
	tp_write_str(p.master, "ab\021c", "master write of ab ^Q c");
	expect_echo_held(&p, 3, "echo held: ^Q and c do not undo TCOOFF");
	ATF_REQUIRE(tcflow(p.slave, TCOON) == 0);
	TP_ECHO(p.master, "z", "abcz", "echo after TCOON and z");
	tp_pty_close(&p);
}

TP_CASE(echo_held_in_canonical_mode_released_by_vstart, TP_POSIX,
	"Canonical mode: the echo of a line typed while stopped (VSTOP) is "
	"held while the line is already readable, and VSTART releases it")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	tp_write_str(p.master, "\023hi\n", "master write of ^S hi NL");
	expect_echo_held(&p, 3, "echo of hi NL while stopped");
	TP_ECHO(p.master, "\021", "hi\r\n", "echo after ^Q");
	TP_EXPECT_LINE(p.slave, "hi\n", "the line");
	tp_pty_close(&p);
}

TP_CASE(clearing_ixon_restarts_output_stopped_by_vstop, TP_LINUX,
	"Output stopped by VSTOP is restarted when IXON is cleared: the held "
	"echo comes out at once and the slave is writable again; after "
	"TCOOFF, clearing IXON restarts nothing")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023ab", "master write of ^S ab");
	expect_echo_held(&p, 2, "echo of ab while stopped");
	tp_iflag(p.slave, 0, IXON);
	tp_echo_expect_out(p.master, "ab", 2, "echo released by clearing IXON");
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLOUT, TP_WAIT_MS) & POLLOUT,
		      "slave not writable after IXON was cleared");
	tp_iflag(p.slave, IXON, 0);
	ATF_REQUIRE(tcflow(p.slave, TCOOFF) == 0);
	tp_iflag(p.slave, 0, IXON);
	ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLOUT, 0) & POLLOUT),
		      "clearing IXON undid TCOOFF");
	ATF_REQUIRE(tcflow(p.slave, TCOON) == 0);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_held_by_vstop_released_by_vstart);
	ATF_TP_ADD_TC(tp, ixany_char_after_vstop_restarts_and_is_echoed);
	ATF_TP_ADD_TC(tp, echo_held_by_tcooff_not_released_by_vstart);
	ATF_TP_ADD_TC(tp, echo_held_in_canonical_mode_released_by_vstart);
	ATF_TP_ADD_TC(tp, clearing_ixon_restarts_output_stopped_by_vstop);
	return atf_no_error();
}
