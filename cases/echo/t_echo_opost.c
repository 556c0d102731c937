// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_opost.c: echoes go through output processing (OPOST and its
 * flags) exactly like program output, except the ^X pairs of ECHOCTL. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

TP_CASE(echo_nl_follows_onlcr, TP_POSIX,
	"Canonical echo of \"a\\n\": CR NL with OPOST|ONLCR, a bare NL with "
	"OPOST and ONLCR clear, a bare NL with ONLCR set but OPOST clear")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO);
	TP_ECHO(p.master, "a\n", "a\r\n", "echo with OPOST|ONLCR");
	tp_oflag(p.slave, 0, ONLCR);
	TP_ECHO(p.master, "b\n", "b\n", "echo with OPOST, no ONLCR");
	tp_oflag(p.slave, ONLCR, OPOST);
	TP_ECHO(p.master, "c\n", "c\n", "echo with ONLCR, no OPOST");
	tp_pty_close(&p);
}

TP_CASE(echo_goes_through_olcuc_and_ocrnl, TP_LINUX,
	"Non-canonical echo under OPOST|OLCUC|OCRNL|ONLCR: letters are "
	"upper-cased, CR is echoed as a bare NL (OCRNL's NL is not mapped "
	"again by ONLCR); with OPOST clear the same input echoes verbatim")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | OLCUC | OCRNL | ONLCR, ECHO);
	TP_ECHO(p.master, "ab\rz", "AB\nZ", "echo of ab CR z");
	tp_oflag(p.slave, 0, OPOST);
	TP_ECHO(p.master, "ab\rz", "ab\rz", "echo of ab CR z, OPOST clear");
	tp_pty_close(&p);
}

TP_CASE(echo_without_opost_ignores_output_flags, TP_POSIX,
	"With OPOST clear, OLCUC, TAB3, OCRNL and ONLCR do nothing to the "
	"echo: \"a\\tb\\r\" echoes verbatim")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OLCUC | TAB3 | OCRNL | ONLCR, ECHO);
	TP_ECHO(p.master, "a\tb\rz", "a\tb\rz", "echo of a TAB b CR z");
	tp_pty_close(&p);
}

TP_CASE(echo_tab3_expands_to_next_stop, TP_LINUX,
	"Non-canonical echo of a tab under OPOST|TAB3 expands to spaces up "
	"to the next multiple of 8, counting the columns already echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR | TAB3, ECHO);
	TP_ECHO(p.master, "abc\tz", "abc     z", "echo of abc TAB z");
	TP_ECHO(p.master, "\tx", "       x", "echo of TAB x at column 9");
	tp_pty_close(&p);
}

TP_CASE(echo_backspace_moves_tab_column, TP_LINUX,
	"An echoed backspace moves the output column back one, never below "
	"0, so a tab echoed after it under OPOST|TAB3 expands from there: "
	"\"a\\b\\t\" and \"\\r\\b\\t\" both give 8 spaces")
{
	struct tp_pty p;

	/* ECHO without ECHOCTL: the backspace is echoed as itself. */
	tp_echo_open(&p, 0, OPOST | ONLCR | TAB3, ECHO);
	TP_ECHO(p.master, "a\b\tz", "a\b        z", "echo of a BS TAB z");
	TP_ECHO(p.master, "\r\b\tx", "\r\b        x", "echo of CR BS TAB x");
	tp_pty_close(&p);
}

TP_CASE(erase_tab_column_counts_prompt_only_with_opost, TP_LINUX,
	"The column of a prompt is tracked only through OPOST: with OPOST "
	"clear, a 4-column prompt is not counted, so erasing \"ab\\t\" "
	"echoes 6 backspaces (with OPOST it would be 2)")
{
	struct tp_pty p;
	char prompt[4];

	tp_echo_open(&p, 0, 0, ICANON | IEXTEN | ECHO | ECHOE | ECHOCTL);
	tp_write_str(p.slave, "$$$ ", "slave write of the prompt");
	tp_read_exact(p.master, prompt, 4, sizeof(prompt), "the prompt");
	TP_ECHO(p.master, "ab\t\177z", "ab\t\b\b\b\b\b\bz",
		"echo of ab TAB DEL z after the prompt, OPOST clear");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_nl_follows_onlcr);
	ATF_TP_ADD_TC(tp, echo_goes_through_olcuc_and_ocrnl);
	ATF_TP_ADD_TC(tp, echo_without_opost_ignores_output_flags);
	ATF_TP_ADD_TC(tp, echo_backspace_moves_tab_column);
	ATF_TP_ADD_TC(tp, echo_tab3_expands_to_next_stop);
	ATF_TP_ADD_TC(tp, erase_tab_column_counts_prompt_only_with_opost);
	return atf_no_error();
}
