// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_isig.c: the echo of the signal characters (VINTR, VQUIT, VSUSP):
 * ^X after the flush they cause, the whole line's echo kept with NOFLSH,
 * and stopped output restarted by them.  The pty has no session here, so
 * no process is signalled: only the echo and the flush are observed. */
#include <poll.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

#define ISIG_L (ICANON | ISIG | ECHO | ECHOCTL)

TP_CASE(isig_chars_echo_as_caret_with_noflsh, TP_LINUX,
	"With ISIG, NOFLSH, ECHO and ECHOCTL, VINTR, VQUIT and VSUSP echo as "
	"^C, ^\\ and ^Z in place, and the echo of the text around them is kept")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ISIG_L | NOFLSH);
	TP_ECHO(p.master, "a\003b\034c\032z", "a^Cb^\\c^Zz",
		"echo of a ^C b ^\\ c ^Z z");
	tp_pty_close(&p);
}

TP_CASE(isig_char_flush_discards_pending_echo, TP_LINUX,
	"With ISIG and NOFLSH clear, VINTR flushes: the echo of \"ab\" typed "
	"just before it (not yet read by the master) is discarded with the "
	"line, and only ^C and what follows are echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ISIG_L);
	TP_ECHO(p.master, "ab\003z\n", "^Cz\r\n", "echo of ab ^C z NL");
	TP_EXPECT_LINE(p.slave, "z\n", "line after the flush");
	tp_pty_close(&p);
}

TP_CASE(isig_char_restarts_output_stopped_by_vstop, TP_LINUX,
	"With IXON (no IXANY) and NOFLSH, output stopped by VSTOP is "
	"restarted by VINTR: the held echo of \"ab\" comes out, then ^C")
{
	struct tp_pty p;

	/* Non-canonical, so that FIONREAD shows "ab" was taken in. */
	tp_echo_open(&p, IXON, OPOST | ONLCR, ISIG | ECHO | ECHOCTL | NOFLSH);
	tp_write_str(p.master, "\023ab", "master write of ^S ab");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "ab on the slave");
	tp_expect_quiet(p.master, "echo of ab while stopped");
	TP_ECHO(p.master, "\003z", "ab^Cz", "echo after ^C z");
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLOUT, 0) & POLLOUT,
		      "slave not writable after ^C restarted output");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, isig_chars_echo_as_caret_with_noflsh);
	ATF_TP_ADD_TC(tp, isig_char_flush_discards_pending_echo);
	ATF_TP_ADD_TC(tp, isig_char_restarts_output_stopped_by_vstop);
	return atf_no_error();
}
