// SPDX-License-Identifier: GPL-2.0-only
/* t_lnext.c: VLNEXT (literal next) in canonical mode, and its IEXTEN dependency. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE(lnext_quotes_kill, TP_LINUX,
	"With IEXTEN, VLNEXT (^V) makes the next character literal: "
	"\"a^V^Ub\\n\" reads as \"a^Ub\\n\"")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VLNEXT, 026);
	tp_set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "a\026\025b\n", "master write of a ^V ^U b");
	TP_EXPECT_LINE(p.slave, "a\025b\n", "line with a literal ^U");
	tp_pty_close(&p);
}

TP_CASE(lnext_quotes_erase, TP_LINUX,
	"VLNEXT before VERASE stores the erase character instead of erasing")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VLNEXT, 026);
	tp_set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "ab\026\177\n", "master write of ab ^V DEL");
	TP_EXPECT_LINE(p.slave, "ab\177\n", "line with a literal DEL");
	tp_pty_close(&p);
}

TP_CASE(lnext_quotes_newline, TP_LINUX,
	"A newline after VLNEXT is data, not a line end: \"a^V\\nb\\n\" is one "
	"line of 4 bytes")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VLNEXT, 026);
	tp_write_str(p.master, "a\026\nb\n", "master write of a ^V NL b NL");
	TP_EXPECT_LINE(p.slave, "a\nb\n", "one line holding a quoted newline");
	tp_pty_close(&p);
}

TP_CASE(lnext_quoted_char_is_still_stripped_and_lowered, TP_LINUX,
	"VLNEXT makes the next character data but does not exempt it from "
	"input processing: under IUCLC (with IEXTEN) a quoted B is read as "
	"b, and under ISTRIP a quoted 0x95 is read as 0x15 (^U, data, "
	"killing nothing)")
{
	struct tp_pty p;

	tp_canon_open(&p, IEXTEN, 0);
	tp_set_cc(p.slave, VLNEXT, 026);
	tp_set_cc(p.slave, VKILL, 025);
	tp_iflag(p.slave, IUCLC, 0);
	tp_write_str(p.master, "a\026Bc\n", "master write of a ^V B c");
	TP_EXPECT_LINE(p.slave, "abc\n", "the quoted B lowered");
	tp_iflag(p.slave, ISTRIP, IUCLC);
	tp_write_str(p.master, "a\026\225b\n", "master write of a ^V 0x95 b");
	TP_EXPECT_LINE(p.slave, "a\025b\n", "the quoted 0x95 stripped to ^U");
	tp_pty_close(&p);
}

TP_CASE(lnext_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^V is stored as data and quotes nothing: the "
	"following ^U still kills the line")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, IEXTEN);
	tp_set_cc(p.slave, VLNEXT, 026);
	tp_set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "a\026c\n", "master write of a ^V c");
	TP_EXPECT_LINE(p.slave, "a\026c\n", "^V kept as data");
	tp_write_str(p.master, "a\026\025b\n", "master write of a ^V ^U b");
	TP_EXPECT_LINE(p.slave, "b\n", "^U killed a ^V");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lnext_quotes_kill);
	ATF_TP_ADD_TC(tp, lnext_quotes_erase);
	ATF_TP_ADD_TC(tp, lnext_quotes_newline);
	ATF_TP_ADD_TC(tp, lnext_quoted_char_is_still_stripped_and_lowered);
	ATF_TP_ADD_TC(tp, lnext_needs_iexten);
	return atf_no_error();
}
