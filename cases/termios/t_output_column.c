// SPDX-License-Identifier: GPL-2.0-only
/* t_output_column.c: the column n_tty tracks for output processing, seen
 * through the flags that depend on it (ONOCR drops a CR at column 0, TAB3
 * expands a tab to the next multiple of 8), and each c_oflag mapping both
 * ways.  Each story ends with a '#' the master reads last. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* A raw pty pair whose slave has exactly these output flags. */
static void
out_open(struct tp_pty *p, tcflag_t oflag)
{
	tp_echo_open(p, 0, oflag, 0);
}

#define OUT(p, text, want, what)                                               \
	do {                                                                   \
		tp_write_str((p)->slave, text "#", what);                      \
		tp_echo_expect_out((p)->master, want "#",                      \
				   sizeof(want "#") - 1, what);                \
	} while (0)

TP_CASE(oflag_mappings_off_pass_bytes, TP_POSIX,
	"With OPOST set but ONLCR, OCRNL, ONOCR, ONLRET, OLCUC and TAB3 "
	"clear, NL, CR, tab and lower case pass unchanged")
{
	struct tp_pty p;

	out_open(&p, OPOST);
	OUT(&p, "\rab\ncd\r\te", "\rab\ncd\r\te", "OPOST alone");
	tp_pty_close(&p);
}

TP_CASE(tab3_column_counts_backspace_and_clamps_at_zero, TP_LINUX,
	"OPOST|TAB3: a backspace moves the column back one but never below "
	"0, so \"a\\b\\bb\\t\" expands the tab to 7 spaces")
{
	struct tp_pty p;

	out_open(&p, OPOST | TAB3);
	OUT(&p, "a\b\bb\t", "a\b\bb       ", "a BS BS b TAB");
	tp_pty_close(&p);
}

TP_CASE(tab3_column_ignores_control_chars, TP_LINUX,
	"OPOST|TAB3: control characters other than BS, CR, NL and TAB take "
	"no column, so \"\\001\\033\\t\" expands to 8 spaces")
{
	struct tp_pty p;

	out_open(&p, OPOST | TAB3);
	OUT(&p, "\001\033\t", "\001\033        ", "^A ESC TAB");
	tp_pty_close(&p);
}

TP_CASE(tab3_column_persists_across_writes, TP_LINUX,
	"OPOST|TAB3: the column carries over from one write to the next: "
	"\"abc\" then \"\\t\" expands to 5 spaces; CR returns it to 0")
{
	struct tp_pty p;

	out_open(&p, OPOST | TAB3);
	tp_write_str(p.slave, "abc", "first write");
	OUT(&p, "\t", "abc     ", "tab in a second write");
	OUT(&p, "\r\t", "\r        ", "CR then TAB");
	tp_pty_close(&p);
}

TP_CASE(onlret_sets_column_zero_on_nl, TP_POSIX,
	"OPOST|TAB3 with ONLRET: after \"ab\\n\" the column is 0 and a tab is "
	"8 spaces; without ONLRET (and ONLCR) NL keeps the column, 6 spaces")
{
	struct tp_pty p;

	out_open(&p, OPOST | TAB3 | ONLRET);
	OUT(&p, "ab\n\t", "ab\n        ", "ab NL TAB with ONLRET");
	tp_oflag(p.slave, 0, ONLRET);
	OUT(&p, "\rab\n\t", "\rab\n      ", "ab NL TAB without ONLRET");
	tp_pty_close(&p);
}

TP_CASE(onocr_uses_column_after_tab_and_backspace, TP_POSIX,
	"OPOST|ONOCR: a CR after a tab (column 8) is output; a CR after "
	"\"a\\b\" (back at column 0) is dropped")
{
	struct tp_pty p;

	out_open(&p, OPOST | ONOCR);
	OUT(&p, "\t\r", "\t\r", "TAB CR");
	/* The '#' left the column at 1: the first CR is output. */
	OUT(&p, "\ra\b\r", "\ra\b", "CR a BS CR");
	tp_pty_close(&p);
}

TP_CASE(onocr_after_nl_depends_on_onlcr, TP_POSIX,
	"OPOST|ONOCR: after \"ab\\n\" with ONLCR the column is 0 (CR NL was "
	"written) and a CR is dropped; without ONLCR or ONLRET the column "
	"stays 2 and the CR is output")
{
	struct tp_pty p;

	out_open(&p, OPOST | ONOCR | ONLCR);
	OUT(&p, "ab\n\r", "ab\r\n", "ab NL CR with ONLCR");
	tp_oflag(p.slave, 0, ONLCR);
	OUT(&p, "cd\n\r", "cd\n\r", "cd NL CR without ONLCR");
	tp_pty_close(&p);
}

TP_CASE(ocrnl_with_onlret_resets_column, TP_POSIX,
	"OPOST|OCRNL|ONOCR: a CR mapped to NL sets column 0 only with "
	"ONLRET, so of \"ab\\r\\r\" the second CR is dropped with ONLRET and "
	"output (as NL) without")
{
	struct tp_pty p;

	out_open(&p, OPOST | OCRNL | ONOCR | ONLRET);
	OUT(&p, "ab\r\r", "ab\n", "ab CR CR with ONLRET");
	tp_oflag(p.slave, 0, ONLRET);
	/* The '#' read last left the column at 1: the leading CR is output. */
	OUT(&p, "\rcd\r\r", "\ncd\n\n", "CR cd CR CR without ONLRET");
	tp_pty_close(&p);
}

TP_CASE(ocrnl_output_nl_not_mapped_again_by_onlcr, TP_LINUX,
	"OPOST|OCRNL|ONLCR: a CR is output as a bare NL (the mapped NL is not "
	"expanded to CR NL), a NL as CR NL")
{
	struct tp_pty p;

	out_open(&p, OPOST | OCRNL | ONLCR);
	OUT(&p, "a\rb\n", "a\nb\r\n", "a CR b NL");
	tp_pty_close(&p);
}

TP_CASE(olcuc_only_maps_lower_case_letters, TP_LINUX,
	"OPOST|OLCUC maps lower-case letters by the kernel's Latin-1 ctype "
	"(a-z, and 0xe9 to 0xc9); digits, punctuation, 0xa9 and control "
	"characters pass; with OLCUC clear nothing is mapped")
{
	struct tp_pty p;

	out_open(&p, OPOST | OLCUC);
	OUT(&p, "az{`@\351\251\001", "AZ{`@\311\251\001", "OLCUC text");
	tp_oflag(p.slave, 0, OLCUC);
	OUT(&p, "az", "az", "OLCUC clear");
	tp_pty_close(&p);
}

TP_CASE(iutf8_continuation_bytes_take_no_column, TP_LINUX,
	"OPOST|TAB3 with IUTF8: a 2-byte UTF-8 character takes one column, so "
	"a tab after it is 7 spaces; without IUTF8 each byte counts, 6")
{
	struct tp_pty p;

	tp_echo_open(&p, IUTF8, OPOST | TAB3, 0);
	OUT(&p, "\303\251\t", "\303\251       ", "e-acute TAB with IUTF8");
	tp_iflag(p.slave, 0, IUTF8);
	OUT(&p, "\r\303\251\t", "\r\303\251      ", "e-acute TAB without IUTF8");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, oflag_mappings_off_pass_bytes);
	ATF_TP_ADD_TC(tp, tab3_column_counts_backspace_and_clamps_at_zero);
	ATF_TP_ADD_TC(tp, tab3_column_ignores_control_chars);
	ATF_TP_ADD_TC(tp, tab3_column_persists_across_writes);
	ATF_TP_ADD_TC(tp, onlret_sets_column_zero_on_nl);
	ATF_TP_ADD_TC(tp, onocr_uses_column_after_tab_and_backspace);
	ATF_TP_ADD_TC(tp, onocr_after_nl_depends_on_onlcr);
	ATF_TP_ADD_TC(tp, ocrnl_with_onlret_resets_column);
	ATF_TP_ADD_TC(tp, ocrnl_output_nl_not_mapped_again_by_onlcr);
	ATF_TP_ADD_TC(tp, olcuc_only_maps_lower_case_letters);
	ATF_TP_ADD_TC(tp, iutf8_continuation_bytes_take_no_column);
	return atf_no_error();
}
