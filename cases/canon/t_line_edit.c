// SPDX-License-Identifier: GPL-2.0-only
/* t_line_edit.c: canonical-mode line editing with VERASE, VKILL and VWERASE. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(erase_del_removes_previous_char, TP_POSIX,
	"With VERASE = DEL (0177), DEL removes the previous character of the "
	"line: \"abc\\177d\\n\" reads as \"abd\\n\"")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "abc\177d\n", "master write of abc DEL d");
	TP_EXPECT_LINE(p.slave, "abd\n", "edited line");
	tp_pty_close(&p);
}

TP_CASE(erase_ctrl_h_when_configured, TP_POSIX,
	"With VERASE = ^H, ^H erases and DEL becomes an ordinary character")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VERASE, '\b');
	tp_write_str(p.master, "abc\bd\n", "master write of abc ^H d");
	TP_EXPECT_LINE(p.slave, "abd\n", "line edited by ^H");
	tp_write_str(p.master, "x\177y\n", "master write of x DEL y");
	TP_EXPECT_LINE(p.slave, "x\177y\n", "DEL kept as data");
	tp_pty_close(&p);
}

TP_CASE(erase_at_line_start_does_nothing, TP_POSIX,
	"VERASE at the start of a line erases nothing and never reaches into "
	"a line already terminated")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "\177\177ab\n\177\177c\n",
		     "master write of DEL DEL ab NL DEL DEL c NL");
	TP_EXPECT_LINE(p.slave, "ab\n", "first line");
	TP_EXPECT_LINE(p.slave, "c\n", "second line, erases did not cross NL");
	tp_pty_close(&p);
}

TP_CASE(erase_at_line_start_echoes_nothing, TP_POSIX,
	"With ECHO and ECHOE set, VERASE on an empty line produces no echo; "
	"only the following input is echoed")
{
	struct tp_pty p;
	char got[8];

	tp_canon_open(&p, ECHO | ECHOE, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "\177a\n", "master write of DEL a NL");
	TP_EXPECT_LINE(p.slave, "a\n", "line a");
	tp_read_exact(p.master, got, 3, sizeof(got), "echo of a NL");
	ATF_CHECK_MSG(memcmp(got, "a\r\n", 3) == 0, "echo was \"%s\", want \"a\\r\\n\"",
		      tp_esc(got, 3));
	tp_pty_close(&p);
}

TP_CASE(kill_discards_line, TP_POSIX,
	"VKILL (^U) discards the whole partial line")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "abc\025de\n", "master write of abc ^U de");
	TP_EXPECT_LINE(p.slave, "de\n", "line after kill");
	tp_pty_close(&p);
}

TP_CASE(kill_empty_line_does_nothing, TP_POSIX,
	"VKILL on an empty line discards nothing, not even the previous "
	"terminated line")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "\025ab\n\025\n", "master write of ^U ab NL ^U NL");
	TP_EXPECT_LINE(p.slave, "ab\n", "first line");
	TP_EXPECT_LINE(p.slave, "\n", "empty second line");
	tp_pty_close(&p);
}

TP_CASE(werase_erases_word, TP_LINUX,
	"With IEXTEN, VWERASE (^W) erases the last word and the blanks after "
	"it, keeping the blank before it")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VWERASE, 027);
	tp_write_str(p.master, "one two\027three\n", "master write of one two ^W three");
	TP_EXPECT_LINE(p.slave, "one three\n", "line after word erase");
	tp_write_str(p.master, "one two  \027x\n", "master write of one two blanks ^W x");
	TP_EXPECT_LINE(p.slave, "one x\n", "trailing blanks erased with the word");
	tp_pty_close(&p);
}

TP_CASE(werase_stops_at_punctuation, TP_LINUX,
	"Linux VWERASE is ALTWERASE-like: a word is alphanumerics and '_', so "
	"\"path/to_x^W\" leaves \"path/\"")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VWERASE, 027);
	tp_write_str(p.master, "path/to_x\027y\n", "master write of path/to_x ^W y");
	TP_EXPECT_LINE(p.slave, "path/y\n", "word erase stopped at '/'");
	tp_pty_close(&p);
}

TP_CASE(werase_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^W is not an editing character and is stored as "
	"data, while VERASE still works")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, IEXTEN);
	tp_set_cc(p.slave, VWERASE, 027);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "ab\027cd\177\n", "master write of ab ^W cd DEL");
	TP_EXPECT_LINE(p.slave, "ab\027c\n", "^W kept, DEL erased d");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, erase_del_removes_previous_char);
	ATF_TP_ADD_TC(tp, erase_ctrl_h_when_configured);
	ATF_TP_ADD_TC(tp, erase_at_line_start_does_nothing);
	ATF_TP_ADD_TC(tp, erase_at_line_start_echoes_nothing);
	ATF_TP_ADD_TC(tp, kill_discards_line);
	ATF_TP_ADD_TC(tp, kill_empty_line_does_nothing);
	ATF_TP_ADD_TC(tp, werase_erases_word);
	ATF_TP_ADD_TC(tp, werase_stops_at_punctuation);
	ATF_TP_ADD_TC(tp, werase_needs_iexten);
	return atf_no_error();
}
