// SPDX-License-Identifier: GPL-2.0-only
/* t_echoprt.c: ECHOPRT, the hardcopy erase display: erased characters are
 * printed backwards between '\' and '/'. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

#define PRT (ICANON | IEXTEN | ECHO | ECHOE | ECHOCTL | ECHOPRT)

TP_CASE(echoprt_erase_prints_erased_chars_after_backslash, TP_LINUX,
	"With ECHOPRT, two erases print '\\' and the erased characters in "
	"reverse; the next ordinary character closes the display with '/'")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, PRT);
	TP_ECHO(p.master, "abc\177\177d\n", "abc\\cb/d\r\n",
		"echo of abc DEL DEL d NL");
	TP_EXPECT_LINE(p.slave, "ad\n", "edited line");
	tp_pty_close(&p);
}

TP_CASE(echoprt_erase_to_line_start_closes_slash_at_once, TP_LINUX,
	"With ECHOPRT, erasing the last character of the line prints the "
	"closing '/' right away, before any further input")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, PRT);
	TP_ECHO(p.master, "ab\177\177", "ab\\ba/", "echo of ab DEL DEL");
	TP_ECHO(p.master, "z", "z", "echo of the next character");
	tp_pty_close(&p);
}

TP_CASE(echoprt_kill_prints_line_backwards, TP_LINUX,
	"With ECHOPRT, ECHOK, ECHOKE and ECHOE, VKILL prints the whole line "
	"backwards between '\\' and '/'")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, PRT | ECHOK | ECHOKE);
	TP_ECHO(p.master, "abc\025z", "abc\\cba/z", "echo of abc ^U z");
	tp_pty_close(&p);
}

TP_CASE(echoprt_werase_prints_the_word_backwards, TP_LINUX,
	"With ECHOPRT, VWERASE prints the erased word backwards after '\\'")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, PRT);
	TP_ECHO(p.master, "ab cd\027z", "ab cd\\dc/z", "echo of ab cd ^W z");
	tp_pty_close(&p);
}

TP_CASE(echoprt_control_char_printed_as_caret, TP_LINUX,
	"With ECHOPRT and ECHOCTL, an erased ^A is printed as ^A after '\\'")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, PRT);
	TP_ECHO(p.master, "a\001\177z", "a^A\\^A/z", "echo of a ^A DEL z");
	tp_pty_close(&p);
}

TP_CASE(echoprt_utf8_char_printed_whole, TP_LINUX,
	"With ECHOPRT and IUTF8, an erased 2-byte UTF-8 character is printed "
	"whole (both bytes) after '\\'")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | ONLCR, PRT);
	TP_ECHO(p.master, "a\303\251\177z", "a\303\251\\\303\251/z",
		"echo of a e-acute DEL z");
	tp_pty_close(&p);
}

TP_CASE(echoprt_utf8_erase_keeps_output_column, TP_LINUX,
	"With ECHOPRT, IUTF8 and OPOST|TAB3, erasing a 2-byte UTF-8 character "
	"shows it, '\\', it again and '/' (4 cells); a tab typed next "
	"expands to the next tab stop of the cells shown, 4 spaces (as after "
	"erasing an ASCII character)")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | ONLCR | TAB3, PRT);
	TP_ECHO(p.master, "x\177\t\n", "x\\x/    \r\n",
		"echo of x DEL TAB NL");
	TP_ECHO(p.master, "\303\251\177\t", "\303\251\\\303\251/    ",
		"echo of e-acute DEL TAB");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echoprt_erase_prints_erased_chars_after_backslash);
	ATF_TP_ADD_TC(tp, echoprt_erase_to_line_start_closes_slash_at_once);
	ATF_TP_ADD_TC(tp, echoprt_kill_prints_line_backwards);
	ATF_TP_ADD_TC(tp, echoprt_werase_prints_the_word_backwards);
	ATF_TP_ADD_TC(tp, echoprt_control_char_printed_as_caret);
	ATF_TP_ADD_TC(tp, echoprt_utf8_char_printed_whole);
	ATF_TP_ADD_TC(tp, echoprt_utf8_erase_keeps_output_column);
	return atf_no_error();
}
