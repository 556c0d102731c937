// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_kill.c: what VKILL echoes under ECHOK and ECHOKE, and what ECHONL
 * echoes with and without ECHO. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

#define CANON (ICANON | IEXTEN | ECHO | ECHOCTL)

TP_CASE(kill_with_echok_echoes_kill_char_and_newline, TP_POSIX,
	"With ECHOK but not ECHOKE, VKILL echoes itself (^U) followed by a "
	"newline (CR NL under ONLCR), and the line is discarded")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON | ECHOE | ECHOK);
	TP_ECHO(p.master, "ab\025z\n", "ab^U\r\nz\r\n", "echo of ab ^U z NL");
	TP_EXPECT_LINE(p.slave, "z\n", "line after the kill");
	tp_pty_close(&p);
}

TP_CASE(kill_without_echok_echoes_only_kill_char, TP_POSIX,
	"With ECHOK and ECHOKE clear, VKILL echoes itself (^U) and no "
	"newline")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON | ECHOE);
	TP_ECHO(p.master, "ab\025z\n", "ab^Uz\r\n", "echo of ab ^U z NL");
	TP_EXPECT_LINE(p.slave, "z\n", "line after the kill");
	tp_pty_close(&p);
}

TP_CASE(echoke_kill_erases_each_char_visually, TP_LINUX,
	"With ECHOKE, ECHOK and ECHOE, VKILL echoes \"\\b \\b\" for each "
	"character of the line, twice for a ^A shown as two columns, and "
	"does not reach into the previous line")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR,
		     CANON | ECHOE | ECHOK | ECHOKE);
	TP_ECHO(p.master, "x\nab\001\025z",
		"x\r\nab^A\b \b\b \b\b \b\b \bz", "echo of x NL ab ^A ^U z");
	TP_EXPECT_LINE(p.slave, "x\n", "previous line intact");
	tp_pty_close(&p);
}

TP_CASE(echoke_needs_echok_and_echoe, TP_LINUX,
	"ECHOKE alone does not erase visually: without ECHOE the kill echoes "
	"^U and a newline (ECHOK set); without ECHOK it echoes ^U only")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON | ECHOK | ECHOKE);
	TP_ECHO(p.master, "ab\025z", "ab^U\r\nz", "ECHOKE|ECHOK, no ECHOE");
	tp_lflag(p.slave, ECHOE, ECHOK);
	TP_ECHO(p.master, "\025y", "^Uy", "ECHOKE|ECHOE, no ECHOK");
	tp_pty_close(&p);
}

TP_CASE(kill_on_empty_line_echoes_nothing, TP_POSIX,
	"VKILL on an empty line echoes nothing, neither ^U nor a newline nor "
	"erasures (with ECHOK, and with ECHOKE)")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON | ECHOE | ECHOK);
	TP_ECHO(p.master, "\025z", "z", "ECHOK kill on an empty line");
	TP_ECHO(p.master, "\n\025y", "\r\ny", "ECHOK kill after a newline");
	tp_lflag(p.slave, ECHOKE, 0);
	TP_ECHO(p.master, "\n\025x", "\r\nx", "ECHOKE kill after a newline");
	tp_pty_close(&p);
}

TP_CASE(kill_with_echo_off_echoes_nothing, TP_POSIX,
	"With ECHO clear and ECHONL set, VKILL (ECHOK|ECHOKE set) echoes "
	"nothing and the line is still killed; only the newline is echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR,
		     ICANON | ECHONL | ECHOE | ECHOK | ECHOKE | ECHOCTL);
	TP_ECHO(p.master, "ab\025c\n", "\r\n", "echo of ab ^U c NL");
	TP_EXPECT_LINE(p.slave, "c\n", "line after the kill");
	tp_pty_close(&p);
}

TP_CASE(echonl_with_echo_echoes_newline_once, TP_POSIX,
	"With ECHO and ECHONL both set, a newline is echoed once, not twice")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO | ECHONL);
	TP_ECHO(p.master, "a\nz\n", "a\r\nz\r\n", "echo of a NL z NL");
	tp_pty_close(&p);
}

TP_CASE(echonl_is_ignored_without_icanon, TP_POSIX,
	"ECHONL only applies in canonical mode: non-canonical with ECHO "
	"clear and ECHONL set, a newline is not echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ECHONL);
	tp_write_str(p.master, "a\n", "master write of a NL");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "a NL on the slave");
	tp_expect_quiet(p.master, "echo of NL without ICANON");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, kill_with_echok_echoes_kill_char_and_newline);
	ATF_TP_ADD_TC(tp, kill_without_echok_echoes_only_kill_char);
	ATF_TP_ADD_TC(tp, echoke_kill_erases_each_char_visually);
	ATF_TP_ADD_TC(tp, echoke_needs_echok_and_echoe);
	ATF_TP_ADD_TC(tp, kill_on_empty_line_echoes_nothing);
	ATF_TP_ADD_TC(tp, kill_with_echo_off_echoes_nothing);
	ATF_TP_ADD_TC(tp, echonl_with_echo_echoes_newline_once);
	ATF_TP_ADD_TC(tp, echonl_is_ignored_without_icanon);
	return atf_no_error();
}
