// SPDX-License-Identifier: GPL-2.0-only
/* t_input_flags.c: c_iflag input mappings both ways, the order in which
 * n_tty applies them (before special characters are recognised), PARMRK's
 * 0xff doubling and IXANY. */
#include <poll.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* Non-canonical, no echo: input bytes as the slave reads them. */
static void
raw_open(struct tp_pty *p, tcflag_t iflag)
{
	tp_echo_open(p, iflag, 0, 0);
}

static void
expect_input(struct tp_pty *p, const char *in, size_t inlen,
	     const char *want, size_t wantlen, const char *what)
{
	tp_write_all(p->master, in, inlen, what);
	tp_echo_expect_out(p->slave, want, wantlen, what);
}
#define INPUT(p, in, want, what)                                               \
	expect_input((p), in, sizeof(in) - 1, want, sizeof(want) - 1, (what))

TP_CASE(input_mappings_clear_pass_cr_and_nl, TP_POSIX,
	"With ICRNL, INLCR, IGNCR, ISTRIP and IUCLC clear, CR, NL, bit 8 and "
	"upper case reach the slave unchanged")
{
	struct tp_pty p;

	raw_open(&p, 0);
	tp_lflag(p.slave, IEXTEN, 0);
	INPUT(&p, "a\rb\nC\351z", "a\rb\nC\351z", "input with no mapping");
	tp_pty_close(&p);
}

TP_CASE(icrnl_and_inlcr_swap_cr_and_nl, TP_POSIX,
	"With ICRNL and INLCR both set, CR is read as NL and NL as CR (each "
	"byte mapped once, not back)")
{
	struct tp_pty p;

	raw_open(&p, ICRNL | INLCR);
	INPUT(&p, "a\r\nz", "a\n\rz", "a CR NL z");
	tp_pty_close(&p);
}

TP_CASE(inlcr_nl_is_no_line_end_in_canonical_mode, TP_POSIX,
	"Canonical with INLCR: a received NL becomes CR, which does not end "
	"the line; VEOF then delivers \"ab\\r\"")
{
	struct tp_pty p;

	tp_echo_open(&p, INLCR, 0, ICANON);
	tp_write_str(p.master, "ab\n", "master write of ab NL");
	tp_expect_quiet(p.slave, "a line ended by the mapped NL");
	tp_write_str(p.master, "\004", "master write of EOF");
	TP_EXPECT_LINE(p.slave, "ab\r", "line pushed by EOF");
	tp_pty_close(&p);
}

TP_CASE(igncr_wins_over_icrnl_and_keeps_nl, TP_POSIX,
	"With IGNCR (and ICRNL) a CR is dropped while NL passes; with IGNCR "
	"clear the same CR is mapped to NL")
{
	struct tp_pty p;

	raw_open(&p, IGNCR | ICRNL);
	INPUT(&p, "a\rb\nz", "ab\nz", "a CR b NL z with IGNCR");
	tp_iflag(p.slave, 0, IGNCR);
	INPUT(&p, "a\rz", "a\nz", "a CR z without IGNCR");
	tp_pty_close(&p);
}

TP_CASE(istrip_applies_before_special_chars, TP_LINUX,
	"ISTRIP strips before special characters are recognised: in "
	"canonical mode 0x8a is read as NL and ends the line; without "
	"ISTRIP it is data")
{
	struct tp_pty p;

	tp_echo_open(&p, ISTRIP, 0, ICANON);
	tp_write_str(p.master, "ab\212", "master write of ab 0x8a");
	TP_EXPECT_LINE(p.slave, "ab\n", "line ended by stripped 0x8a");
	tp_iflag(p.slave, 0, ISTRIP);
	tp_write_str(p.master, "ab\212\n", "master write of ab 0x8a NL");
	TP_EXPECT_LINE(p.slave, "ab\212\n", "0x8a kept as data");
	tp_pty_close(&p);
}

TP_CASE(iuclc_applies_before_special_chars, TP_LINUX,
	"IUCLC (with IEXTEN) lowers case before special characters are "
	"recognised: with VEOL = 'q', an input 'Q' ends the line as 'q'")
{
	struct tp_pty p;

	tp_echo_open(&p, IUCLC, 0, ICANON | IEXTEN);
	tp_set_cc(p.slave, VEOL, 'q');
	tp_write_str(p.master, "AQ", "master write of AQ");
	TP_EXPECT_LINE(p.slave, "aq", "line ended by the lowered Q");
	tp_pty_close(&p);
}

TP_CASE(parmrk_doubles_0xff_input, TP_POSIX,
	"With PARMRK (ISTRIP clear) a received 0xff is read as 0xff 0xff so "
	"it cannot be taken for a mark; with PARMRK clear it is read once; "
	"with ISTRIP too it is stripped to 0x7f first")
{
	struct tp_pty p;

	raw_open(&p, PARMRK);
	INPUT(&p, "a\377z", "a\377\377z", "a 0xff z with PARMRK");
	tp_iflag(p.slave, 0, PARMRK);
	INPUT(&p, "a\377z", "a\377z", "a 0xff z without PARMRK");
	tp_iflag(p.slave, PARMRK | ISTRIP, 0);
	INPUT(&p, "a\377z", "a\177z", "a 0xff z with PARMRK|ISTRIP");
	tp_pty_close(&p);
}

TP_CASE(parmrk_doubles_0xff_in_canonical_line, TP_POSIX,
	"Canonical with PARMRK: a 0xff in a line is read doubled")
{
	struct tp_pty p;

	tp_echo_open(&p, PARMRK, 0, ICANON);
	tp_write_str(p.master, "a\377\n", "master write of a 0xff NL");
	TP_EXPECT_LINE(p.slave, "a\377\377\n", "line with doubled 0xff");
	tp_pty_close(&p);
}

TP_CASE(ignpar_inpck_accepted_without_parity_on_pty, TP_POSIX,
	"A pty never reports parity errors: with INPCK, IGNPAR and PARMRK "
	"set, ordinary bytes (even those with bit 8) are read unchanged")
{
	struct tp_pty p;

	raw_open(&p, INPCK | IGNPAR);
	INPUT(&p, "a\200\177z", "a\200\177z", "input with INPCK|IGNPAR");
	tp_iflag(p.slave, PARMRK, IGNPAR);
	INPUT(&p, "a\200z", "a\200z", "input with INPCK|PARMRK");
	tp_pty_close(&p);
}

/* Output stopped: the slave stops being writable (the pty has no room). */
static bool
slave_writable(struct tp_pty *p)
{
	return tp_poll1(p->slave, POLLOUT, 0) & POLLOUT;
}

static void
wait_slave_writable(struct tp_pty *p, bool want, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for(what);
	while (slave_writable(p) != want) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: slave %swritable after %d ms", what,
				    want ? "not " : "", TP_WAIT_MS);
		tp_backoff(&step);
	}
}

TP_CASE(ixany_clear_other_chars_do_not_restart, TP_POSIX,
	"With IXON but IXANY clear, output stopped by VSTOP stays stopped "
	"when an ordinary character arrives (it is read as data) and "
	"restarts on VSTART")
{
	struct tp_pty p;

	raw_open(&p, IXON);
	tp_write_str(p.master, "\023", "master write of ^S");
	wait_slave_writable(&p, false, "output stopped by ^S");
	tp_write_str(p.master, "x", "master write of x");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "x on the slave");
	ATF_CHECK_MSG(!slave_writable(&p), "x restarted output without IXANY");
	tp_write_str(p.master, "\021", "master write of ^Q");
	wait_slave_writable(&p, true, "output restarted by ^Q");
	tp_pty_close(&p);
}

TP_CASE(ixany_restart_consumes_no_char, TP_POSIX,
	"With IXON|IXANY, the character that restarts stopped output is "
	"still read as data; VSTART itself is not")
{
	struct tp_pty p;

	raw_open(&p, IXON | IXANY);
	tp_write_str(p.master, "\023", "master write of ^S");
	wait_slave_writable(&p, false, "output stopped by ^S");
	INPUT(&p, "x", "x", "x restarting output");
	wait_slave_writable(&p, true, "output restarted by x");
	tp_write_str(p.master, "\023", "master write of ^S");
	wait_slave_writable(&p, false, "output stopped again");
	INPUT(&p, "\021z", "z", "^Q z: ^Q consumed");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, input_mappings_clear_pass_cr_and_nl);
	ATF_TP_ADD_TC(tp, icrnl_and_inlcr_swap_cr_and_nl);
	ATF_TP_ADD_TC(tp, inlcr_nl_is_no_line_end_in_canonical_mode);
	ATF_TP_ADD_TC(tp, igncr_wins_over_icrnl_and_keeps_nl);
	ATF_TP_ADD_TC(tp, istrip_applies_before_special_chars);
	ATF_TP_ADD_TC(tp, iuclc_applies_before_special_chars);
	ATF_TP_ADD_TC(tp, parmrk_doubles_0xff_input);
	ATF_TP_ADD_TC(tp, parmrk_doubles_0xff_in_canonical_line);
	ATF_TP_ADD_TC(tp, ignpar_inpck_accepted_without_parity_on_pty);
	ATF_TP_ADD_TC(tp, ixany_clear_other_chars_do_not_restart);
	ATF_TP_ADD_TC(tp, ixany_restart_consumes_no_char);
	return atf_no_error();
}
