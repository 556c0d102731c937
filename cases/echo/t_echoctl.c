// SPDX-License-Identifier: GPL-2.0-only
/* t_echoctl.c: ECHOCTL's ^X notation for every control character, and the
 * characters n_tty echoes differently (TAB, NL, CR, START/STOP, EOF, EOL,
 * bytes above 0x7f). */
#include <stdio.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* Echo of one character c followed by the sentinel 'z'; report a mismatch
 * by character (ATF_CHECK: every character of a table is reported). */
static void
check_one(int master, unsigned char c, const char *want, size_t wantlen,
	  const char *mode)
{
	char in[2] = { (char)c, 'z' }, got[16], what[80];
	size_t n;

	snprintf(what, sizeof(what), "%s echo of 0x%02x", mode, c);
	tp_write_all(master, in, 2, what);
	n = tp_echo_collect(master, want, wantlen, got, sizeof(got), what);
	ATF_CHECK_MSG(n == wantlen && memcmp(got, want, n) == 0,
		      "%s: got \"%s\", want \"%s\"", what, tp_esc(got, n),
		      tp_esc(want, wantlen));
}

/* "^X" for control character c: '^' and c ^ 0100 (DEL gives "^?"). */
static size_t
caret(unsigned char c, char *out)
{
	out[0] = '^';
	out[1] = (char)(c ^ 0100);
	out[2] = 'z';
	return 3;
}

TP_CASE(echoctl_noncanon_every_control_char_as_caret, TP_LINUX,
	"Non-canonical, ECHO|ECHOCTL, no ISIG/IXON/ICRNL: each of the 33 "
	"control characters 0x00-0x1f and 0x7f echoes as ^X (0x7f as ^?), "
	"except TAB, which echoes as itself; NL is not special here and "
	"echoes as ^J")
{
	struct tp_pty p;
	char want[4];

	tp_echo_open(&p, 0, OPOST | ONLCR, ECHO | ECHOCTL);
	for (unsigned c = 0; c < 0x20; c++) {
		size_t n = c == '\t' ? (want[0] = '\t', want[1] = 'z', 2)
				     : caret((unsigned char)c, want);
		check_one(p.master, (unsigned char)c, want, n, "non-canonical");
	}
	check_one(p.master, 0x7f, "^?z", 3, "non-canonical");
	tp_pty_close(&p);
}

TP_CASE(echoctl_canon_every_control_char_with_specials, TP_LINUX,
	"Canonical, ECHO|ECHOCTL, ICRNL|IXON, erase/kill/EOF disabled: every "
	"control character echoes as ^X except TAB (itself), NL and CR (CR "
	"mapped to NL: CR NL under ONLCR, not ^J/^M), and START/STOP, "
	"which are consumed by IXON and not echoed")
{
	struct tp_pty p;
	struct termios t;
	char want[4];

	tp_echo_open(&p, ICRNL | IXON, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	tp_tc_get(p.slave, &t);
	t.c_cc[VERASE] = t.c_cc[VKILL] = t.c_cc[VEOF] = _POSIX_VDISABLE;
	t.c_cc[VEOL] = t.c_cc[VEOL2] = _POSIX_VDISABLE;
	t.c_cc[VSTART] = 021;
	t.c_cc[VSTOP] = 023;
	tp_tc_set(p.slave, &t);
	for (unsigned c = 0; c < 0x20; c++) {
		size_t n;

		if (c == '\t')
			n = (want[0] = '\t', want[1] = 'z', 2);
		else if (c == '\n' || c == '\r')
			n = (memcpy(want, "\r\nz", 3), 3);
		else if (c == 021)
			n = (want[0] = 'z', 1);
		else if (c == 023)
			continue; /* below: STOP must be followed by START */
		else
			n = caret((unsigned char)c, want);
		check_one(p.master, (unsigned char)c, want, n, "canonical");
	}
	check_one(p.master, 0x7f, "^?z", 3, "canonical");
	/* STOP then START: neither is echoed, the sentinel comes through. */
	tp_echo_expect(p.master, "\023\021z", 3, "z", 1,
		       "canonical echo of STOP START z");
	tp_pty_close(&p);
}

TP_CASE(echoctl_off_every_control_char_verbatim, TP_POSIX,
	"Non-canonical, ECHO without ECHOCTL and OPOST clear: each of the 33 "
	"control characters echoes as the byte itself")
{
	struct tp_pty p;
	char want[2];

	tp_echo_open(&p, 0, 0, ECHO);
	for (unsigned c = 0; c < 0x20; c++) {
		want[0] = (char)c;
		want[1] = 'z';
		check_one(p.master, (unsigned char)c, want, 2, "plain");
	}
	check_one(p.master, 0x7f, "\177z", 2, "plain");
	tp_pty_close(&p);
}

TP_CASE(echoctl_bytes_above_0x7f_echo_verbatim, TP_LINUX,
	"With ECHOCTL, bytes 0x80-0x9f (not control characters to the "
	"kernel) and 0xff (n_tty's internal echo-op escape byte) echo as "
	"themselves")
{
	struct tp_pty p;
	char want[2];

	tp_echo_open(&p, 0, OPOST | ONLCR, ECHO | ECHOCTL);
	for (unsigned c = 0x80; c < 0xa0; c++) {
		want[0] = (char)c;
		want[1] = 'z';
		check_one(p.master, (unsigned char)c, want, 2, "high byte");
	}
	check_one(p.master, 0xff, "\377z", 2, "high byte");
	tp_echo_expect(p.master, "\377\377\377z", 4, "\377\377\377z", 4,
		       "three 0xff in a row");
	tp_pty_close(&p);
}

TP_CASE(echo_eof_char_is_not_echoed, TP_LINUX,
	"Canonical with ECHO|ECHOCTL: VEOF (^D) ends the line without being "
	"echoed, while the same byte with ICANON clear echoes as ^D")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	TP_ECHO(p.master, "ab\004z\n", "abz\r\n", "echo of ab EOF z NL");
	TP_EXPECT_LINE(p.slave, "ab", "line pushed by EOF");
	TP_EXPECT_LINE(p.slave, "z\n", "next line");
	tp_lflag(p.slave, 0, ICANON);
	TP_ECHO(p.master, "\004z", "^Dz", "non-canonical echo of ^D z");
	tp_pty_close(&p);
}

TP_CASE(echo_eol_char_is_echoed_as_caret, TP_LINUX,
	"Canonical with ECHO|ECHOCTL: a VEOL character (set to ^A) ends the "
	"line and is echoed as ^A, with no newline")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	tp_set_cc(p.slave, VEOL, 001);
	TP_ECHO(p.master, "ab\001z", "ab^Az", "echo of ab EOL z");
	TP_EXPECT_LINE(p.slave, "ab\001", "line ended by EOL");
	tp_pty_close(&p);
}

TP_CASE(echo_lnext_echoes_caret_backspace, TP_LINUX,
	"Canonical with IEXTEN and ECHOCTL: VLNEXT echoes \"^\\b\" and the "
	"quoted character then echoes as ^X (^U quoted shows ^U, it kills "
	"nothing); without ECHOCTL VLNEXT echoes nothing")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR,
		     ICANON | IEXTEN | ECHO | ECHOCTL | ECHOE | ECHOK);
	TP_ECHO(p.master, "a\026\025z", "a^\b^Uz", "echo of a ^V ^U z");
	tp_lflag(p.slave, 0, ECHOCTL);
	TP_ECHO(p.master, "\026\025y", "\025y", "echo of ^V ^U y, no ECHOCTL");
	tp_pty_close(&p);
}

TP_CASE(echo_cr_with_icrnl_echoes_newline, TP_POSIX,
	"Canonical with ECHO: CR under ICRNL is a newline and echoes as CR NL "
	"(ONLCR); with ICRNL clear it is data and echoes as ^M (ECHOCTL) and "
	"as a bare CR without ECHOCTL")
{
	struct tp_pty p;

	tp_echo_open(&p, ICRNL, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	TP_ECHO(p.master, "a\rz", "a\r\nz", "echo of a CR z with ICRNL");
	TP_EXPECT_LINE(p.slave, "a\n", "CR mapped to NL");
	tp_iflag(p.slave, 0, ICRNL);
	TP_ECHO(p.master, "\rz", "^Mz", "echo of CR z without ICRNL");
	tp_lflag(p.slave, 0, ECHOCTL);
	TP_ECHO(p.master, "\ry", "\ry", "echo of CR y, no ECHOCTL");
	tp_pty_close(&p);
}

TP_CASE(noncanon_translated_cr_and_nl_echo_as_stored, TP_LINUX,
	"Non-canonical with ECHO|ECHOCTL and OPOST|ONLCR, input translation "
	"still applies and the echo shows what is stored: under ICRNL a CR is "
	"read as NL and echoes as a newline (CR NL); under INLCR a NL is read "
	"as CR and echoes as ^M; under IGNCR a CR is dropped and echoes "
	"nothing")
{
	struct tp_pty p;

	tp_echo_open(&p, ICRNL, OPOST | ONLCR, ECHO | ECHOCTL);
	TP_ECHO(p.master, "a\rz", "a\r\nz", "echo of a CR z with ICRNL");
	TP_EXPECT_BYTES(p.slave, "a\nz", "a CR z read with ICRNL");
	tp_iflag(p.slave, INLCR, ICRNL);
	TP_ECHO(p.master, "b\nz", "b^Mz", "echo of b NL z with INLCR");
	TP_EXPECT_BYTES(p.slave, "b\rz", "b NL z read with INLCR");
	tp_iflag(p.slave, IGNCR, INLCR);
	TP_ECHO(p.master, "c\rz", "cz", "echo of c CR z with IGNCR");
	TP_EXPECT_BYTES(p.slave, "cz", "c CR z read with IGNCR");
	tp_pty_close(&p);
}

TP_CASE(echoctl_pair_takes_two_columns, TP_LINUX,
	"An echoed ^X takes two output columns: with OPOST|TAB3 (XTABS) a TAB "
	"echoed after it expands to the next multiple of 8 counted with both "
	"characters, as after two printable ones, and so does a TAB the "
	"program writes after the echo")
{
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR | TAB3, ECHO | ECHOCTL);
	TP_ECHO(p.master, "\001\tz", "^A      z", "^A, TAB, z from column 0");
	TP_ECHO(p.master, "ab\002\tz", "ab^B   z", "ab, ^B, TAB, z from column 9");
	tp_write_str(p.slave, "\t", "the program's TAB at column 17");
	TP_EXPECT_BYTES(p.master, "       ", "7 spaces to column 24");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echoctl_noncanon_every_control_char_as_caret);
	ATF_TP_ADD_TC(tp, echoctl_canon_every_control_char_with_specials);
	ATF_TP_ADD_TC(tp, echoctl_off_every_control_char_verbatim);
	ATF_TP_ADD_TC(tp, echoctl_bytes_above_0x7f_echo_verbatim);
	ATF_TP_ADD_TC(tp, echo_eof_char_is_not_echoed);
	ATF_TP_ADD_TC(tp, echo_eol_char_is_echoed_as_caret);
	ATF_TP_ADD_TC(tp, echo_lnext_echoes_caret_backspace);
	ATF_TP_ADD_TC(tp, echo_cr_with_icrnl_echoes_newline);
	ATF_TP_ADD_TC(tp, echoctl_pair_takes_two_columns);
	ATF_TP_ADD_TC(tp, noncanon_translated_cr_and_nl_echo_as_stored);
	return atf_no_error();
}
