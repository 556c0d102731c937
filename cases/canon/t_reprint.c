// SPDX-License-Identifier: GPL-2.0-only
/* t_reprint.c: VREPRINT (^R) echo in canonical mode and what enables it. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(reprint_echoes_current_line, TP_LINUX,
	"With ECHO and IEXTEN, VREPRINT (^R) echoes ^R, a newline and the "
	"edited partial line; the line itself is unchanged")
{
	struct tp_pty p;
	static const char want[] = "ab\b \bc^R\r\nac";
	char got[sizeof(want)];

	tp_canon_open(&p, ECHO | ECHOE | ECHOCTL | IEXTEN, ECHOPRT);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\177c\022", "master write of ab DEL c ^R");
	tp_read_exact(p.master, got, sizeof(want) - 1, sizeof(got),
		      "echo up to the reprinted line");
	ATF_CHECK_MSG(memcmp(got, want, sizeof(want) - 1) == 0,
		      "echo was \"%s\", want \"%s\"", tp_esc(got, sizeof(want) - 1),
		      tp_esc(want, sizeof(want) - 1));
	tp_expect_quiet(p.master, "nothing echoed beyond the reprint");
	tp_expect_not_readable(p.slave, "^R does not end the line");
	tp_write_str(p.master, "\n", "master write of NL");
	TP_EXPECT_LINE(p.slave, "ac\n", "line after the reprint");
	tp_pty_close(&p);
}

TP_CASE(reprint_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^R is ordinary data (echoed as ^R by ECHOCTL) "
	"and nothing is reprinted")
{
	struct tp_pty p;
	static const char want[] = "ab^R\r\n";
	char got[sizeof(want)];

	tp_canon_open(&p, ECHO | ECHOCTL, IEXTEN);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\022\n", "master write of ab ^R NL");
	TP_EXPECT_LINE(p.slave, "ab\022\n", "^R kept as data");
	tp_read_exact(p.master, got, sizeof(want) - 1, sizeof(got), "echo of ab ^R NL");
	ATF_CHECK_MSG(memcmp(got, want, sizeof(want) - 1) == 0,
		      "echo was \"%s\", want \"%s\"", tp_esc(got, sizeof(want) - 1),
		      tp_esc(want, sizeof(want) - 1));
	tp_pty_close(&p);
}

TP_CASE(reprint_needs_echo, TP_LINUX,
	"With ECHO clear, ^R is not special even with IEXTEN: it is stored "
	"as data")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\022\n", "master write of ab ^R NL");
	TP_EXPECT_LINE(p.slave, "ab\022\n", "^R kept as data");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, reprint_echoes_current_line);
	ATF_TP_ADD_TC(tp, reprint_needs_iexten);
	ATF_TP_ADD_TC(tp, reprint_needs_echo);
	return atf_no_error();
}
