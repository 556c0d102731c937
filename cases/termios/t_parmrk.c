// SPDX-License-Identifier: GPL-2.0-only
/* t_parmrk.c: PARMRK's rule (IGNPAR clear) that a received 0377 is read as
 * 0377 0377 and every other byte exactly once, on each of n_tty's receive
 * paths past the plain one that t_input_flags.c covers: bytes in the
 * special-character map (CR and NL mapped by ICRNL/INLCR, CR dropped by
 * IGNCR, bytes past the IXON and ISIG checks, bytes ISTRIP turned special),
 * canonical line ends, VEOL/VEOL2 of 0377, and bytes quoted by VLNEXT.
 * Non-canonical stories end with an ordinary 'z', so a byte read twice shows
 * as a mismatch before it; canonical stories read whole lines. */
#include <termios.h>

#include "tp_echo.h"

/* One non-canonical story: the master writes in to a slave whose termios
 * is exactly iflag and lflag, which reads exactly want (the sentinel 'z'
 * last).  Output ends running: only a VSTOP in `in` stops it, and every
 * story with one restarts it with VSTART. */
static void
noncanon(tcflag_t iflag, tcflag_t lflag, const char *in, size_t inlen,
	 const char *want, size_t wantlen, const char *what)
{
	struct tp_pty p;

	tp_echo_open(&p, iflag, 0, lflag);
	tp_write_all(p.master, in, inlen, what);
	tp_expect_bytes(p.slave, want, wantlen, what);
	ATF_CHECK_MSG(tp_can_write(p.slave), "%s: output left stopped", what);
	tp_pty_close(&p);
}
#define NONCANON(iflag, lflag, in, want, what)                                 \
	noncanon((iflag), (lflag), in, sizeof(in) - 1, want,                   \
		 sizeof(want) - 1, (what))

/* Master writes in; the canonical slave's next read is the line want. */
#define LINE(p, in, want, what)                                                \
	do {                                                                   \
		tp_write_all((p)->master, in, sizeof(in) - 1, (what));         \
		TP_EXPECT_LINE((p)->slave, want, (what));                      \
	} while (0)

TP_CASE(parmrk_cr_mapped_by_icrnl_read_once, TP_POSIX,
	"With PARMRK and ICRNL (non-canonical), a received CR takes the "
	"special-character path and is read once, as NL, while a 0377 beside "
	"it is read as 0377 0377")
{
	NONCANON(PARMRK | ICRNL, 0, "a\r\377\rz", "a\n\377\377\nz",
		 "a CR 0377 CR z");
}

TP_CASE(parmrk_nl_mapped_by_inlcr_read_once, TP_POSIX,
	"With PARMRK and INLCR (non-canonical), a received NL takes the "
	"special-character path and is read once, as CR, while a 0377 beside "
	"it is read as 0377 0377")
{
	NONCANON(PARMRK | INLCR, 0, "a\n\377\nz", "a\r\377\377\rz",
		 "a NL 0377 NL z");
}

TP_CASE(parmrk_igncr_cr_is_not_read, TP_POSIX,
	"With PARMRK and IGNCR (ICRNL set too), a received CR is discarded: "
	"not read, not marked; a 0377 is still read as 0377 0377")
{
	NONCANON(PARMRK | IGNCR | ICRNL, 0, "a\r\377\rz", "a\377\377z",
		 "a CR 0377 CR z");
}

TP_CASE(parmrk_past_ixon_and_isig_checks_read_once, TP_POSIX,
	"With PARMRK, IXON, ISIG and ICRNL (non-canonical), VSTOP and VSTART "
	"are consumed, not read, and a CR that passes the flow and signal "
	"checks is read once, as NL; a 0377 is read as 0377 0377")
{
	NONCANON(PARMRK | IXON | ICRNL, ISIG, "a\023\r\021\377\rz",
		 "a\n\377\377\nz", "a ^S CR ^Q 0377 CR z");
}

TP_CASE(parmrk_istrip_strips_before_doubling, TP_POSIX,
	"With PARMRK and ISTRIP, bytes are stripped to 7 bits first, so none "
	"is doubled: 0215 becomes CR, read once as NL under ICRNL, and 0377 "
	"becomes 0177, read once")
{
	NONCANON(PARMRK | ISTRIP | ICRNL, 0, "a\215\377\215z", "a\n\177\nz",
		 "a 0215 0377 0215 z");
}

TP_CASE(parmrk_canonical_line_ends_read_once, TP_POSIX,
	"Canonical with PARMRK and ICRNL: a line ended by CR (read as NL), by "
	"NL or by a VEOL other than 0377 has its terminator read once")
{
	struct tp_pty p;

	tp_echo_open(&p, PARMRK | ICRNL, 0, ICANON);
	tp_set_cc(p.slave, VEOL, 'q');
	LINE(&p, "ab\r", "ab\n", "line ended by CR");
	LINE(&p, "cd\n", "cd\n", "line ended by NL");
	LINE(&p, "efq", "efq", "line ended by VEOL 'q'");
	tp_pty_close(&p);
}

/* n_tty_receive_char_canon doubles a VEOL/VEOL2 of 0377 under PARMRK with
 * code of its own (beside a comment asking whether it should), as n_tty has
 * since Linux 2.x; the second 0377 carries the line end.  POSIX does not say
 * whether a byte that ends a line is marked: this is Linux's answer. */
TP_CASE(parmrk_veol_of_0377_ends_line_doubled, TP_LINUX,
	"Canonical with PARMRK: a VEOL of 0377, or a VEOL2 of 0377 with "
	"IEXTEN, ends the line and is read as 0377 0377 like any received "
	"0377; with PARMRK clear it is read once")
{
	struct tp_pty p;

	tp_echo_open(&p, PARMRK, 0, ICANON);
	tp_set_cc(p.slave, VEOL, 0377);
	LINE(&p, "ab\377", "ab\377\377", "line ended by VEOL 0377, PARMRK");
	tp_iflag(p.slave, 0, PARMRK);
	LINE(&p, "cd\377", "cd\377", "line ended by VEOL 0377, no PARMRK");
	tp_iflag(p.slave, PARMRK, 0);
	tp_lflag(p.slave, IEXTEN, 0);
	tp_set_cc(p.slave, VEOL, 0);
	tp_set_cc(p.slave, VEOL2, 0377);
	LINE(&p, "ef\377", "ef\377\377", "line ended by VEOL2 0377, PARMRK");
	tp_pty_close(&p);
}

TP_CASE(parmrk_lnext_quoted_bytes, TP_LINUX,
	"Canonical with IEXTEN and PARMRK: a 0377 quoted by VLNEXT is read as "
	"0377 0377, a quoted VKILL or NL once, as data; with ISTRIP too a "
	"quoted 0377 is stripped first and read once, as 0177")
{
	struct tp_pty p;

	tp_echo_open(&p, PARMRK, 0, ICANON | IEXTEN);
	LINE(&p, "a\026\377\026\025\026\nb\n", "a\377\377\025\nb\n",
	     "a ^V 0377 ^V ^U ^V NL b NL");
	tp_iflag(p.slave, ISTRIP, 0);
	LINE(&p, "c\026\377d\n", "c\177d\n", "c ^V 0377 d NL with ISTRIP");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, parmrk_cr_mapped_by_icrnl_read_once);
	ATF_TP_ADD_TC(tp, parmrk_nl_mapped_by_inlcr_read_once);
	ATF_TP_ADD_TC(tp, parmrk_igncr_cr_is_not_read);
	ATF_TP_ADD_TC(tp, parmrk_past_ixon_and_isig_checks_read_once);
	ATF_TP_ADD_TC(tp, parmrk_istrip_strips_before_doubling);
	ATF_TP_ADD_TC(tp, parmrk_canonical_line_ends_read_once);
	ATF_TP_ADD_TC(tp, parmrk_veol_of_0377_ends_line_doubled);
	ATF_TP_ADD_TC(tp, parmrk_lnext_quoted_bytes);
	return atf_no_error();
}
