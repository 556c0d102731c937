// SPDX-License-Identifier: GPL-2.0-only
/* t_eol.c: the extra line terminators VEOL and VEOL2 in canonical mode. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(veol_terminates_line, TP_POSIX,
	"VEOL ends a line like NL and is kept as the line's last byte")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VEOL, '@');
	tp_write_str(p.master, "ab@cd\n", "master write of ab@cd NL");
	TP_EXPECT_LINE(p.slave, "ab@", "line ended by VEOL");
	TP_EXPECT_LINE(p.slave, "cd\n", "line ended by NL");
	tp_pty_close(&p);
}

TP_CASE(veol2_terminates_line, TP_LINUX,
	"With IEXTEN, VEOL2 ends a line and is kept as the line's last byte")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VEOL2, '#');
	tp_write_str(p.master, "ab#cd\n", "master write of ab#cd NL");
	TP_EXPECT_LINE(p.slave, "ab#", "line ended by VEOL2");
	TP_EXPECT_LINE(p.slave, "cd\n", "line ended by NL");
	tp_pty_close(&p);
}

TP_CASE(veol2_needs_iexten, TP_LINUX,
	"With IEXTEN clear, the VEOL2 character is ordinary data")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, IEXTEN);
	tp_set_cc(p.slave, VEOL2, '#');
	tp_write_str(p.master, "ab#cd\n", "master write of ab#cd NL");
	TP_EXPECT_LINE(p.slave, "ab#cd\n", "one line, # kept as data");
	tp_pty_close(&p);
}

TP_CASE(veol_disabled_nul_is_data, TP_LINUX,
	"VEOL = 0 (_POSIX_VDISABLE on Linux) disables it: a NUL byte in the "
	"input is data and does not end the line")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VEOL, 0);
	tp_set_cc(p.slave, VEOL2, 0);
	tp_write_all(p.master, "a\0b\n", 4, "master write of a NUL b NL");
	tp_expect_read(p.slave, "a\0b\n", 4, "one line holding a NUL");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, veol_terminates_line);
	ATF_TP_ADD_TC(tp, veol2_terminates_line);
	ATF_TP_ADD_TC(tp, veol2_needs_iexten);
	ATF_TP_ADD_TC(tp, veol_disabled_nul_is_data);
	return atf_no_error();
}
