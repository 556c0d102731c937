// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_parse.c: how the console reads escape sequences (console_codes(4)
 * and ECMA-48, which it follows), read back from /dev/vcsaN: a control
 * sequence it does not implement is swallowed whole up to its final byte,
 * CAN and SUB abort a sequence, and a control character inside one acts at
 * once.  Programs written for other terminals send such sequences to the
 * console (vim and tmux set the cursor style with ESC [ n SP q); what
 * follows them must be drawn as the text it is. */
#include <stdio.h>
#include <string.h>

#include "tp_vt.h"

TP_CASE_ROOT(unimplemented_sequence_is_swallowed_whole, TP_LINUX,
	"A control sequence with an intermediate byte (0x20-0x2f), which the "
	"console does not implement, is ignored up to and including its final "
	"byte: after ESC [ 2 SP q (DECSCUSR) and ESC [ 1 ; 2 $ p (DECRQM) the "
	"text that follows is drawn where the cursor was")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "ab\033[2 qcd", "ab, ESC [ 2 SP q, cd");
	tp_vt_write(&vt, "\033[1;2$pef", "ESC [ 1 ; 2 $ p, ef");
	tp_vt_write(&vt, "\033[?25$pgh", "ESC [ ? 25 $ p, gh");
	tp_vt_wait_text(&vt, 0, 0, "abcdefgh", &s, "the text around the sequences");
	tp_vt_expect_blank(&s, 0, 8, "the row after the text");
	tp_vt_wait_cursor(&vt, 8, 0, &s, "cursor after the text");
}

TP_CASE_ROOT(can_and_sub_abort_a_sequence, TP_LINUX,
	"CAN (0x18) and SUB (0x1a) abort an escape sequence: the bytes after "
	"them are drawn as text, and neither is drawn itself")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "x\033[3\030Cy", "x, ESC [ 3 CAN, C, y");
	tp_vt_write(&vt, "\033[1;\032Dz", "ESC [ 1 ; SUB, D, z");
	tp_vt_write(&vt, "\033\030w", "ESC CAN, w");
	tp_vt_wait_text(&vt, 0, 0, "xCyDzw", &s, "the bytes after CAN and SUB");
	tp_vt_expect_blank(&s, 0, 6, "the row after the text");
	tp_vt_wait_cursor(&vt, 6, 0, &s, "cursor after the text");
}

TP_CASE_ROOT(control_inside_a_sequence_acts_at_once, TP_LINUX,
	"A control character inside an escape sequence acts at once and the "
	"sequence goes on: ESC [ 2 BS C moves the cursor one left, then two "
	"right; ESC [ CR 3 C returns to column 0, then moves three right")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "abcd\033[2\bCX", "abcd, ESC [ 2 BS C, X");
	tp_vt_wait_text(&vt, 0, 0, "abcd X", &s, "X two right of the backspace");
	tp_vt_write(&vt, "\033[\r3CY", "ESC [ CR 3 C, Y");
	tp_vt_wait_text(&vt, 0, 0, "abcY X", &s, "Y three right of column 0");
	tp_vt_wait_cursor(&vt, 4, 0, &s, "cursor after Y");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unimplemented_sequence_is_swallowed_whole);
	ATF_TP_ADD_TC(tp, can_and_sub_abort_a_sequence);
	ATF_TP_ADD_TC(tp, control_inside_a_sequence_acts_at_once);
	return atf_no_error();
}
