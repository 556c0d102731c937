// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_erase.c: what VERASE and VWERASE echo (ECHOE off and on), and the
 * column logic that erases a control character, a UTF-8 character and a
 * tab with the right number of backspaces. */
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tp_echo.h"

#define CANON_E (ICANON | IEXTEN | ECHO | ECHOE | ECHOCTL)

TP_CASE(erase_without_echoe_echoes_the_erase_char, TP_POSIX,
	"With ECHO but ECHOE clear, VERASE (DEL) still erases but echoes "
	"itself: ^? with ECHOCTL, the raw DEL byte without")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	TP_ECHO(p.master, "ab\177z", "ab^?z", "echo of ab DEL z");
	tp_lflag(p.slave, 0, ECHOCTL);
	TP_ECHO(p.master, "\177\n", "\177\r\n", "echo of DEL NL, no ECHOCTL");
	TP_EXPECT_LINE(p.slave, "a\n", "b erased, then z erased");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_of_control_char_is_two_columns, TP_LINUX,
	"With ECHOE and ECHOCTL, erasing a control character shown as ^A "
	"echoes \"\\b \\b\" twice; with ECHOCTL clear (the character took no "
	"column) it echoes nothing")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "a\001\177z", "a^A\b \b\b \bz",
		"echo of a ^A DEL z with ECHOCTL");
	tp_lflag(p.slave, 0, ECHOCTL);
	TP_ECHO(p.master, "\001\177y", "\001y",
		"echo of ^A DEL y without ECHOCTL");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	TP_EXPECT_LINE(p.slave, "azy\n", "both ^A erased");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_utf8_char_needs_iutf8, TP_LINUX,
	"With ECHOE and IUTF8, erasing a 2-byte UTF-8 character (U+00E9) "
	"echoes one \"\\b \\b\" and removes both bytes; without IUTF8 one "
	"DEL removes one byte and echoes one \"\\b \\b\"")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "a\303\251\177z", "a\303\251\b \bz",
		"echo of a e-acute DEL z with IUTF8");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	TP_EXPECT_LINE(p.slave, "az\n", "the whole character erased");
	tp_iflag(p.slave, 0, IUTF8);
	TP_ECHO(p.master, "a\303\251\177z", "a\303\251\b \bz",
		"echo of a e-acute DEL z without IUTF8");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	TP_EXPECT_LINE(p.slave, "a\303z\n", "only the last byte erased");
	tp_pty_close(&p);
}

TP_CASE(werase_echoes_one_bs_sp_bs_per_char, TP_LINUX,
	"VWERASE with ECHOE echoes \"\\b \\b\" once for each erased "
	"character, word and trailing blanks, and stops at the blank before "
	"the word")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "ab cd \027z", "ab cd \b \b\b \b\b \bz",
		"echo of ab cd SP ^W z");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	TP_EXPECT_LINE(p.slave, "ab z\n", "word and blank erased");
	tp_pty_close(&p);
}

TP_CASE(werase_without_echoe_still_echoes_bs_sp_bs, TP_LINUX,
	"Linux quirk: ECHOE only decides how VERASE echoes; VWERASE echoes "
	"\"\\b \\b\" per character even with ECHOE clear")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | IEXTEN | ECHO | ECHOCTL);
	TP_ECHO(p.master, "x yz\027w", "x yz\b \b\b \bw", "echo of x yz ^W w");
	tp_pty_close(&p);
}

/* Erasing a tab: backspaces back to where the tab started. */
TP_CASE(echoe_erase_tab_at_line_start_is_8_backspaces, TP_LINUX,
	"With ECHOE, erasing a tab typed at column 0 echoes 8 backspaces "
	"(and no spaces)")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "\t\177z", "\t\b\b\b\b\b\b\b\bz",
		"echo of TAB DEL z");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_after_chars_backs_to_tab_start, TP_LINUX,
	"With ECHOE, erasing a tab typed after 3 characters echoes 5 "
	"backspaces (the tab covered columns 3-7); after 8 characters, 8")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "abc\t\177z", "abc\t\b\b\b\b\bz",
		"echo of abc TAB DEL z");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	TP_ECHO(p.master, "abcdefgh\t\177z",
		"abcdefgh\t\b\b\b\b\b\b\b\bz", "echo of 8 chars TAB DEL z");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_after_previous_tab_counts_from_it, TP_LINUX,
	"With ECHOE, erasing a tab that follows \"\\tbc\" counts columns from "
	"the previous tab: 6 backspaces")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "a\tbc\t\177z", "a\tbc\t\b\b\b\b\b\bz",
		"echo of a TAB bc TAB DEL z");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_counts_caret_chars_as_two, TP_LINUX,
	"With ECHOE, erasing a tab after ^A counts ^A as 2 columns with "
	"ECHOCTL (6 backspaces) and as 0 without (8 backspaces)")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "\001\t\177z", "^A\t\b\b\b\b\b\bz",
		"echo of ^A TAB DEL z with ECHOCTL");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	tp_lflag(p.slave, 0, ECHOCTL);
	TP_ECHO(p.master, "\001\t\177z", "\001\t\b\b\b\b\b\b\b\bz",
		"echo of ^A TAB DEL z without ECHOCTL");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_counts_from_prompt_column, TP_LINUX,
	"With ECHOE, the column where input started (after the program "
	"wrote a 4-column prompt) counts: \"ab\\t\" then DEL echoes 2 "
	"backspaces (the tab went from column 6 to 8)")
{
	struct tp_pty p;
	char prompt[4];

	tp_echo_open(&p, 0, OPOST | ONLCR, CANON_E);
	tp_write_str(p.slave, "$$$ ", "slave write of the prompt");
	tp_read_exact(p.master, prompt, 4, sizeof(prompt), "the prompt");
	TP_ECHO(p.master, "ab\t\177z", "ab\t\b\bz",
		"echo of ab TAB DEL z after the prompt");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_under_tab3_backspaces_over_spaces, TP_LINUX,
	"With TAB3 (XTABS) the echoed tab is expanded to spaces, and erasing "
	"it echoes as many backspaces as spaces were written")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR | TAB3, CANON_E);
	TP_ECHO(p.master, "ab\t\177z", "ab      \b\b\b\b\b\bz",
		"echo of ab TAB DEL z under TAB3");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_tab_after_utf8_char_counts_one_column, TP_LINUX,
	"With ECHOE and IUTF8, a 2-byte UTF-8 character before a tab counts "
	"as one column (erasing the tab: 7 backspaces); without IUTF8 as two "
	"(6 backspaces)")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "\303\251\t\177z", "\303\251\t\b\b\b\b\b\b\bz",
		"echo of e-acute TAB DEL z with IUTF8");
	TP_ECHO(p.master, "\n", "\r\n", "end of line");
	tp_iflag(p.slave, 0, IUTF8);
	TP_ECHO(p.master, "\303\251\t\177z", "\303\251\t\b\b\b\b\b\bz",
		"echo of e-acute TAB DEL z without IUTF8");
	tp_pty_close(&p);
}

TP_CASE(werase_utf8_word_needs_iutf8, TP_LINUX,
	"VWERASE with IUTF8 erases a word of 2-byte UTF-8 letters whole, one "
	"\"\\b \\b\" per character; without IUTF8 the continuation byte 0xa9 "
	"is punctuation to the kernel, so only the last character goes")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | ONLCR, CANON_E);
	TP_ECHO(p.master, "ab \303\251\303\251\027z\n",
		"ab \303\251\303\251\b \b\b \bz\r\n",
		"echo of ab SP e-acute e-acute ^W z NL with IUTF8");
	TP_EXPECT_LINE(p.slave, "ab z\n", "the UTF-8 word erased");
	tp_iflag(p.slave, 0, IUTF8);
	TP_ECHO(p.master, "ab \303\251\303\251\027z\n",
		"ab \303\251\303\251\b \b\b \bz\r\n",
		"echo of ab SP e-acute e-acute ^W z NL without IUTF8");
	TP_EXPECT_LINE(p.slave, "ab \303\251z\n", "only the last character erased");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, erase_without_echoe_echoes_the_erase_char);
	ATF_TP_ADD_TC(tp, echoe_erase_of_control_char_is_two_columns);
	ATF_TP_ADD_TC(tp, echoe_erase_utf8_char_needs_iutf8);
	ATF_TP_ADD_TC(tp, werase_echoes_one_bs_sp_bs_per_char);
	ATF_TP_ADD_TC(tp, werase_without_echoe_still_echoes_bs_sp_bs);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_at_line_start_is_8_backspaces);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_after_chars_backs_to_tab_start);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_after_previous_tab_counts_from_it);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_counts_caret_chars_as_two);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_counts_from_prompt_column);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_under_tab3_backspaces_over_spaces);
	ATF_TP_ADD_TC(tp, echoe_erase_tab_after_utf8_char_counts_one_column);
	ATF_TP_ADD_TC(tp, werase_utf8_word_needs_iutf8);
	return atf_no_error();
}
