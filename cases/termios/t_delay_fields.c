// SPDX-License-Identifier: GPL-2.0-only
/* t_delay_fields.c: the output delay fields of c_oflag (NLDLY, CRDLY,
 * TABDLY, BSDLY, VTDLY, FFDLY) and the other stored-only parts of termios.
 * Every value of every field is kept as set, within its mask, and n_tty
 * inserts no delay or fill for any of them: the only value that changes
 * output is TABDLY's TAB3 (XTABS), which expands a tab to spaces up to the
 * next multiple of 8 (do_output_char).  c_cc[VSWTC] (System V's switch
 * character) is stored and means nothing to n_tty.  ADDRB, the RS-485
 * address bit, changes only through TIOCSRS485: set_termios puts its old
 * value back whatever tcsetattr asked. */
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

#ifndef ADDRB /* asm-generic/termbits-common.h; glibc lacks it */
#define ADDRB 0x20000000
#endif

static const struct {
	tcflag_t mask, value;
	const char *name;
} delays[] = {
	{ NLDLY, NL0, "NL0" }, { NLDLY, NL1, "NL1" },
	{ CRDLY, CR0, "CR0" }, { CRDLY, CR1, "CR1" }, { CRDLY, CR2, "CR2" },
	{ CRDLY, CR3, "CR3" },
	{ TABDLY, TAB0, "TAB0" }, { TABDLY, TAB1, "TAB1" }, { TABDLY, TAB2, "TAB2" },
	{ BSDLY, BS0, "BS0" }, { BSDLY, BS1, "BS1" },
	{ VTDLY, VT0, "VT0" }, { VTDLY, VT1, "VT1" },
	{ FFDLY, FF0, "FF0" }, { FFDLY, FF1, "FF1" },
};
#define NDELAYS (sizeof delays / sizeof *delays)

/* Output with every character a delay field is about, through OPOST|ONLCR. */
#define OUT "ab\tc\b\v\f\r\n#"
#define OUT_PLAIN "ab\tc\b\v\f\r\r\n#"
#define OUT_TAB3 "ab      c\b\v\f\r\r\n#"

static void
set_field(int fd, tcflag_t mask, tcflag_t value, const char *name)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_oflag = (t.c_oflag & ~mask) | value;
	tp_tc_set(fd, &t);
	tp_tc_get(fd, &t);
	ATF_CHECK_EQ_MSG(t.c_oflag & mask, value, "%s: the field reads %#o, want %#o",
			 name, t.c_oflag & mask, value);
}

TP_CASE(every_delay_value_is_kept_and_adds_nothing, TP_LINUX,
	"Each value of NLDLY (NL0 NL1), CRDLY (CR0-CR3), TABDLY (TAB0-TAB2), "
	"BSDLY, VTDLY and FFDLY (0 and 1) reads back within its mask, even with "
	"OFILL, and output through OPOST|ONLCR is byte for byte what it is "
	"with no delay: no delay, no fill character")
{
	struct tp_pty p;
	tp_echo_open(&p, 0, OPOST | ONLCR | OFILL, 0);
	for (size_t i = 0; i < NDELAYS; i++) {
		set_field(p.slave, delays[i].mask, delays[i].value, delays[i].name);
		tp_write_str(p.slave, OUT, delays[i].name);
		tp_echo_expect_out(p.master, OUT_PLAIN, sizeof OUT_PLAIN - 1, delays[i].name);
		set_field(p.slave, delays[i].mask, 0, delays[i].name);
	}
	tp_pty_close(&p);
}

TP_CASE(tab3_and_xtabs_expand_tabs, TP_LINUX,
	"TABDLY's TAB3, also called XTABS (the same value), expands a tab to "
	"spaces up to the next multiple of 8 columns; TAB0 puts the tab "
	"through as it is")
{
	struct tp_pty p;
	ATF_REQUIRE_EQ_MSG(XTABS, TAB3, "XTABS %#o is not TAB3 %#o", XTABS, TAB3);
	tp_echo_open(&p, 0, OPOST | ONLCR, 0);
	set_field(p.slave, TABDLY, XTABS, "XTABS");
	tp_write_str(p.slave, OUT, "output with XTABS");
	tp_echo_expect_out(p.master, OUT_TAB3, sizeof OUT_TAB3 - 1, "output with XTABS");
	set_field(p.slave, TABDLY, TAB0, "TAB0");
	tp_write_str(p.slave, OUT, "output with TAB0");
	tp_echo_expect_out(p.master, OUT_PLAIN, sizeof OUT_PLAIN - 1, "output with TAB0");
	tp_pty_close(&p);
}

TP_CASE(vswtc_is_stored_and_plain_data, TP_LINUX,
	"c_cc[VSWTC] keeps the value set; that byte typed on a canonical line "
	"is plain data, read back in the line and echoed as itself")
{
	struct tp_pty p;
	tp_echo_open(&p, 0, 0, ICANON | ECHO);
	tp_set_cc(p.slave, VSWTC, 'z');
	struct termios t;
	tp_tc_get(p.slave, &t);
	ATF_CHECK_EQ_MSG(t.c_cc[VSWTC], 'z', "c_cc[VSWTC] reads %#o", t.c_cc[VSWTC]);
	TP_ECHO(p.master, "azb\n", "azb\n", "a line holding the VSWTC byte");
	TP_EXPECT_LINE(p.slave, "azb\n", "the line read back");
	tp_pty_close(&p);
}

TP_CASE(addrb_is_not_set_by_tcsetattr, TP_LINUX,
	"ADDRB in c_cflag changes only through TIOCSRS485: tcsetattr asking "
	"for it succeeds, the other c_cflag bits it asked for apply, and "
	"tcgetattr reads ADDRB clear as before")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	struct termios t;
	tp_tc_get(p.slave, &t);
	ATF_REQUIRE_MSG(!(t.c_cflag & ADDRB), "a new pty has ADDRB set");
	t.c_cflag |= ADDRB | CSTOPB;
	tp_tc_set(p.slave, &t);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_MSG(!(t.c_cflag & ADDRB), "ADDRB set by tcsetattr: c_cflag %#o",
		      t.c_cflag);
	ATF_CHECK_MSG(t.c_cflag & CSTOPB, "CSTOPB, asked for with ADDRB, not applied: "
		      "c_cflag %#o", t.c_cflag);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, every_delay_value_is_kept_and_adds_nothing);
	ATF_TP_ADD_TC(tp, tab3_and_xtabs_expand_tabs);
	ATF_TP_ADD_TC(tp, vswtc_is_stored_and_plain_data);
	ATF_TP_ADD_TC(tp, addrb_is_not_set_by_tcsetattr);
	return atf_no_error();
}
