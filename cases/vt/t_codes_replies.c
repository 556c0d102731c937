// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_replies.c: console_codes(4) sequences the console answers: DSR
 * (ESC [ 5 n, ESC [ 6 n), DA (ESC [ c) and DECID (ESC Z).  The answer is
 * put in the VT's input queue, where the program reads it as if typed;
 * the VT is raw (no echo), so nothing of it reaches the screen. */
#include <string.h>

#include "tp_vt.h"

TP_CASE_ROOT(dsr_status_reports_ok, TP_LINUX,
	"ESC [ 5 n (DSR, device status) is answered with ESC [ 0 n (terminal "
	"OK) in the VT's input, and nothing more")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[5n", "DSR 5");
	tp_vt_expect_reply(&vt, "\033[0n", 4, "the status report");
}

TP_CASE_ROOT(other_dsr_requests_get_no_reply, TP_LINUX,
	"DSR requests other than 5 and 6 (ESC [ n, ESC [ 7 n and the private "
	"ESC [ ? 7 n) are answered with nothing: a DSR 5 written after them "
	"gets the only reply")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[n\033[7n\033[?7n\033[5n", "DSR 0, 7 and ? 7, then DSR 5");
	tp_vt_expect_reply(&vt, "\033[0n", 4, "the DSR 5 reply alone");
}

TP_CASE_ROOT(dsr_cursor_position_report, TP_LINUX,
	"ESC [ 6 n (DSR, cursor position) is answered with ESC [ row ; col R, "
	"1-based, in the VT's input; the report does not move the cursor or "
	"draw anything")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[6n", "DSR 6 at home");
	tp_vt_expect_reply(&vt, "\033[1;1R", 6, "the report at home");
	tp_vt_write(&vt, "\033[7;12H\033[6n", "CUP 7;12, DSR 6");
	tp_vt_expect_reply(&vt, "\033[7;12R", 7, "the report at 7;12");
	tp_vt_wait_cursor(&vt, 11, 6, &s, "the cursor still at 7;12");
	for (int y = 0; y < s.rows; y++)
		tp_vt_expect_blank(&s, y, 0, "nothing drawn by the reports");
}

TP_CASE_ROOT(da_identifies_vt102, TP_LINUX,
	"ESC [ c and ESC [ 0 c (DA) are answered with ESC [ ? 6 c (\"I am a "
	"VT102\") in the VT's input")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[c", "DA");
	tp_vt_expect_reply(&vt, "\033[?6c", 5, "the answer to DA");
	tp_vt_write(&vt, "\033[0c", "DA 0");
	tp_vt_expect_reply(&vt, "\033[?6c", 5, "the answer to DA 0");
}

TP_CASE_ROOT(decid_identifies_vt102, TP_LINUX,
	"ESC Z (DECID) is answered as DA is, with ESC [ ? 6 c")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033Z", "DECID");
	tp_vt_expect_reply(&vt, "\033[?6c", 5, "the answer to DECID");
}

TP_CASE_ROOT(reply_waits_for_canonical_reader, TP_LINUX,
	"A reply is input like any other: in canonical mode a reader sees "
	"nothing until a line ends, then the reply and the rest of the line")
{
	struct tp_vt vt;
	struct termios t;

	tp_vt_open(tc, &vt);
	tp_tc_get(vt.fd, &t);
	t.c_lflag |= ICANON;
	t.c_lflag &= ~(tcflag_t)ECHO;
	tp_tc_set(vt.fd, &t);
	tp_vt_write(&vt, "\033[5n", "DSR 5 with a canonical reader");
	tp_expect_quiet(vt.fd, "no line yet: the reply has no newline");
	/* TIOCSTI would need CAP_SYS_ADMIN and legacy TIOCSTI; end the line
	 * with a second reply's terminator instead: VEOL set to 'n'. */
	tp_set_cc(vt.fd, VEOL, 'n');
	tp_vt_write(&vt, "\033[5n", "a second DSR 5, now ending the line");
	tp_expect_read(vt.fd, "\033[0n\033[0n", 8, "both replies as one line");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dsr_status_reports_ok);
	ATF_TP_ADD_TC(tp, other_dsr_requests_get_no_reply);
	ATF_TP_ADD_TC(tp, dsr_cursor_position_report);
	ATF_TP_ADD_TC(tp, da_identifies_vt102);
	ATF_TP_ADD_TC(tp, decid_identifies_vt102);
	ATF_TP_ADD_TC(tp, reply_waits_for_canonical_reader);
	return atf_no_error();
}
