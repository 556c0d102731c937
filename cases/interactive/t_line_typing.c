// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_line_typing.c: canonical line editing as a person types it at a shell
 * prompt (fixtures/tp_jobsh.c, "say TEXT" prints "said [TEXT]").  Keys go
 * one write() each, and each case checks both what the person sees (the
 * echo, with the kernel's default ECHOE, ECHOK, ECHOKE and ECHOCTL) and
 * the line the program reads.
 */
#include <string.h>

#include "tp_expect.h"

TP_CASE(erase_rubs_out_last_char, TP_POSIX,
	"DEL (VERASE) typed after a mistake is echoed as \\b \\b (ECHOE) and "
	"the shell reads the corrected line")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say helx\177lo\n", "say helx DEL lo");
	tp_exp_expect_exact(&s, "say helx\b \blo\r\n", "echo with one rub-out");
	tp_exp_expect_exact(&s, "said [hello]", "the corrected line");
	tp_exp_shell_exit(&s);
}

TP_CASE(erase_of_control_char_rubs_out_two_columns, TP_LINUX,
	"A control character is echoed as ^X (ECHOCTL), so erasing it rubs "
	"out two columns: \\b \\b\\b \\b")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say a\001", "say a ^A");
	tp_exp_expect_exact(&s, "say a^A", "^A echoed as two characters");
	tp_exp_type(&s, "\177\n", "DEL and Enter");
	tp_exp_expect_exact(&s, "\b \b\b \b\r\n", "two-column rub-out");
	tp_exp_expect_exact(&s, "said [a]", "^A erased from the line");
	tp_exp_shell_exit(&s);
}

TP_CASE(kill_rubs_out_whole_line, TP_LINUX,
	"^U (VKILL) with ECHOKE rubs out every character typed so far, one "
	"\\b \\b each, and the shell reads only what was typed after it")
{
	struct tp_exp s;
	char want[64] = "";

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say wrong", "a wrong line");
	tp_exp_expect_exact(&s, "say wrong", "echo of the wrong line");
	tp_exp_type(&s, "\025", "^U");
	for (int i = 0; i < 9; i++)
		strcat(want, "\b \b");
	tp_exp_expect_exact(&s, want, "nine rub-outs");
	tp_exp_type(&s, "say right\n", "the right line");
	tp_exp_expect_exact(&s, "said [right]", "only the line after ^U");
	tp_exp_shell_exit(&s);
}

TP_CASE(word_erase_rubs_out_last_word, TP_LINUX,
	"^W (VWERASE, IEXTEN) rubs out the last word only, echoed as one "
	"\\b \\b per character")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say one two", "say one two");
	tp_exp_expect_exact(&s, "say one two", "echo");
	tp_exp_type(&s, "\027three\n", "^W three");
	tp_exp_expect_exact(&s, "\b \b\b \b\b \bthree\r\n", "word rubbed out");
	tp_exp_expect_exact(&s, "said [one three]", "line without the word");
	tp_exp_shell_exit(&s);
}

TP_CASE(reprint_redraws_pending_line, TP_LINUX,
	"^R (VREPRINT, IEXTEN) echoes ^R, a new line and the pending line "
	"again; the line read is unchanged by it")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say abc\022d\n", "say abc ^R d");
	tp_exp_expect_exact(&s, "say abc^R\r\nsay abcd\r\n", "reprinted line");
	tp_exp_expect_exact(&s, "said [abcd]", "line after reprint");
	tp_exp_shell_exit(&s);
}

TP_CASE(reprint_after_erase_shows_edited_line, TP_LINUX,
	"^R after rub-outs reprints the line as edited, not as typed")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say abx\177\177cd\022\n", "say abx DEL DEL cd ^R");
	tp_exp_expect_exact(&s, "say abx\b \b\b \bcd^R\r\nsay acd\r\n",
			    "reprint of the edited line");
	tp_exp_expect_exact(&s, "said [acd]", "edited line");
	tp_exp_shell_exit(&s);
}

TP_CASE(lnext_makes_erase_data, TP_POSIX,
	"^V (VLNEXT) makes the next DEL ordinary data: it is echoed as ^? and "
	"reaches the program instead of erasing")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say a\026\177b\n", "say a ^V DEL b");
	tp_exp_expect_exact(&s, "said [a\\x7fb]", "literal DEL in the line");
	tp_exp_expect_exact(&s, "$ ", "prompt");
	tp_exp_type(&s, "say q\026", "^V typed");
	/* ^V is shown as ^ and a backspace until the next key arrives. */
	tp_exp_expect_exact(&s, "say q^\b", "^V pending echo");
	tp_exp_type(&s, "\025\n", "^U after ^V");
	tp_exp_expect_exact(&s, "said [q\\x15]", "literal ^U, no kill");
	tp_exp_shell_exit(&s);
}

TP_CASE(erase_stops_at_line_start, TP_POSIX,
	"More DELs than characters erase the whole line and then nothing: no "
	"rub-out is echoed past the start, and the next line is intact")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "ab\177\177\177\177", "ab and four DELs");
	tp_exp_expect_exact(&s, "ab\b \b\b \b", "two rub-outs");
	tp_exp_type(&s, "say ok\n", "a new line");
	tp_exp_expect_exact(&s, "say ok\r\n", "echo of the new line");
	size_t len;
	const char *t = tp_exp_transcript(&s, &len);
	ATF_CHECK_MSG(memmem(t, len, "\b \b\b \b\b \b", 9) == NULL,
		      "more rub-outs than characters: \"%s\"", tp_esc(t, len));
	tp_exp_expect_exact(&s, "said [ok]", "line after the erases");
	tp_exp_shell_exit(&s);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, erase_rubs_out_last_char);
	ATF_TP_ADD_TC(tp, erase_of_control_char_rubs_out_two_columns);
	ATF_TP_ADD_TC(tp, kill_rubs_out_whole_line);
	ATF_TP_ADD_TC(tp, word_erase_rubs_out_last_word);
	ATF_TP_ADD_TC(tp, reprint_redraws_pending_line);
	ATF_TP_ADD_TC(tp, reprint_after_erase_shows_edited_line);
	ATF_TP_ADD_TC(tp, lnext_makes_erase_data);
	ATF_TP_ADD_TC(tp, erase_stops_at_line_start);
	return atf_no_error();
}
