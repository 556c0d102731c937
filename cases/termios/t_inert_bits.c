// SPDX-License-Identifier: GPL-2.0-only
/* t_inert_bits.c: termios bits Linux accepts and keeps but does not act on
 * (XCASE, FLUSHO, PENDIN, IMAXBEL, the output delay and fill bits): each is
 * stored as set, and input, echo and output are the same with it set and
 * clear. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

#define DELAYS (NL1 | CR3 | TAB2 | BS1 | VT1 | FF1 | OFILL | OFDEL)

/* One canonical story: echo and line read, output from the slave. */
static void
story(struct tp_pty *p, const char *what)
{
	TP_ECHO(p->master, "A\\b\n", "A\\b\r\n", what);
	TP_EXPECT_LINE(p->slave, "A\\b\n", what);
	tp_write_str(p->slave, "x\ty\b\v\f\r\n#", what);
	tp_echo_expect_out(p->master, "x\ty\b\v\f\r\r\n#", 10, what);
}

TP_CASE(unimplemented_bits_are_kept_and_inert, TP_LINUX,
	"XCASE, FLUSHO, PENDIN, IMAXBEL and the delay/fill bits (NL1 CR3 "
	"TAB2 BS1 VT1 FF1 OFILL OFDEL) read back as set, and echo, input and "
	"output are the same with them set as with them clear")
{
	struct tp_pty p;
	struct termios t;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO);
	story(&p, "bits clear");
	tp_tc_get(p.slave, &t);
	t.c_lflag |= XCASE | FLUSHO | PENDIN;
	t.c_iflag |= IMAXBEL;
	t.c_oflag |= DELAYS;
	tp_tc_set(p.slave, &t);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_EQ_MSG(t.c_lflag & (XCASE | FLUSHO | PENDIN),
			 (tcflag_t)(XCASE | FLUSHO | PENDIN),
			 "c_lflag %#o lost XCASE/FLUSHO/PENDIN", t.c_lflag);
	ATF_CHECK_MSG(t.c_iflag & IMAXBEL, "c_iflag %#o lost IMAXBEL",
		      t.c_iflag);
	ATF_CHECK_EQ_MSG(t.c_oflag & DELAYS, (tcflag_t)DELAYS,
			 "c_oflag %#o lost delay bits", t.c_oflag);
	story(&p, "bits set");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unimplemented_bits_are_kept_and_inert);
	return atf_no_error();
}
