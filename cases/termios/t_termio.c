// SPDX-License-Identifier: GPL-2.0-only
/* t_termio.c: the System V termio ioctls (TCGETA, TCSETA, TCSETAW,
 * TCSETAF) that old programs and some libcs still issue.  struct termio
 * carries only the low 16 bits of each flag word and the first NCC control
 * characters, so the kernel must merge it into the full termios: bits and
 * characters termio cannot express stay as they were (tty_ioctl.c,
 * user_termio_to_kernel_termios).  TCSETAF flushes pending input like
 * TCSAFLUSH; TCSETA leaves it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
get_termio(int fd, struct termio *t)
{
	ATF_REQUIRE_MSG(ioctl(fd, TCGETA, t) == 0, "TCGETA: %s",
			strerror(errno));
}

static void
set_termio(int fd, unsigned long req, const struct termio *t,
	   const char *name)
{
	ATF_REQUIRE_MSG(ioctl(fd, req, t) == 0, "%s: %s", name,
			strerror(errno));
}

TP_CASE(tcgeta_is_low_half_of_termios, TP_LINUX,
	"TCGETA returns the low 16 bits of each termios flag word, the "
	"first NCC control characters and line discipline 0 (N_TTY)")
{
	struct tp_pty p;
	struct termios t;
	struct termio o;

	tp_pty_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &t);
	get_termio(p.slave, &o);
	ATF_CHECK_EQ_MSG(o.c_iflag, t.c_iflag & 0xffff, "c_iflag 0x%x vs 0x%x",
			 o.c_iflag, t.c_iflag);
	ATF_CHECK_EQ_MSG(o.c_oflag, t.c_oflag & 0xffff, "c_oflag 0x%x vs 0x%x",
			 o.c_oflag, t.c_oflag);
	ATF_CHECK_EQ_MSG(o.c_cflag, t.c_cflag & 0xffff, "c_cflag 0x%x vs 0x%x",
			 o.c_cflag, t.c_cflag);
	ATF_CHECK_EQ_MSG(o.c_lflag, t.c_lflag & 0xffff, "c_lflag 0x%x vs 0x%x",
			 o.c_lflag, t.c_lflag);
	ATF_CHECK_EQ_MSG(o.c_line, 0, "c_line %u, want 0 (N_TTY)", o.c_line);
	for (int i = 0; i < NCC; i++)
		ATF_CHECK_EQ_MSG(o.c_cc[i], t.c_cc[i], "c_cc[%d] 0x%x vs 0x%x",
				 i, o.c_cc[i], t.c_cc[i]);
	tp_pty_close(&p);
}

TP_CASE(tcseta_sets_flags_and_characters, TP_LINUX,
	"TCSETA with ECHO cleared, ICRNL cleared and a new VERASE takes "
	"effect: tcgetattr shows all three")
{
	struct tp_pty p;
	struct termios t;
	struct termio o;

	tp_pty_open(&p, TP_COOKED);
	get_termio(p.slave, &o);
	o.c_lflag &= (unsigned short)~ECHO;
	o.c_iflag &= (unsigned short)~ICRNL;
	o.c_cc[VERASE] = 'z';
	set_termio(p.slave, TCSETA, &o, "TCSETA");
	tp_tc_get(p.slave, &t);
	ATF_CHECK_MSG(!(t.c_lflag & ECHO), "ECHO still set after TCSETA");
	ATF_CHECK_MSG(!(t.c_iflag & ICRNL), "ICRNL still set after TCSETA");
	ATF_CHECK_EQ_MSG(t.c_cc[VERASE], 'z', "VERASE 0x%x after TCSETA",
			 t.c_cc[VERASE]);
	tp_pty_close(&p);
}

/* The low half of after's word is want's, the high half before's. */
static void
check_merged(const char *name, tcflag_t after, tcflag_t before,
	     unsigned short want)
{
	ATF_CHECK_MSG((after & 0xffff) == want, "%s: low 16 bits 0x%x after "
		      "TCSETA, the termio gave 0x%x", name,
		      (unsigned)(after & 0xffff), want);
	ATF_CHECK_MSG((after >> 16) == (before >> 16), "%s: high 16 bits 0x%x "
		      "after TCSETA, were 0x%x", name, (unsigned)(after >> 16),
		      (unsigned)(before >> 16));
}

TP_CASE(tcseta_replaces_the_low_half, TP_LINUX,
	"TCSETA replaces the low 16 bits of every flag word with the termio's, "
	"so bits the termio leaves clear are cleared (c_iflag, c_oflag and "
	"c_lflag set to 0 from cooked mode: ICRNL, OPOST, ECHO and ICANON go; "
	"HUPCL flipped in c_cflag), and keeps each word's high 16 bits")
{
	struct tp_pty p;
	struct termios before, after;
	struct termio o;

	tp_pty_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &before);
	get_termio(p.slave, &o);
	o.c_iflag = 0;
	o.c_oflag = 0;
	o.c_lflag = 0;
	o.c_cflag ^= HUPCL;
	set_termio(p.slave, TCSETA, &o, "TCSETA");
	tp_tc_get(p.slave, &after);
	check_merged("c_iflag", after.c_iflag, before.c_iflag, o.c_iflag);
	check_merged("c_oflag", after.c_oflag, before.c_oflag, o.c_oflag);
	check_merged("c_cflag", after.c_cflag, before.c_cflag, o.c_cflag);
	check_merged("c_lflag", after.c_lflag, before.c_lflag, o.c_lflag);
	tp_pty_close(&p);
}

TP_CASE(tcseta_keeps_what_termio_cannot_express, TP_LINUX,
	"TCSETA keeps the termios flag bits above 16 (CRTSCTS, CMSPAR in "
	"c_cflag) and the control characters past NCC (VSTART, VSTOP, "
	"VSUSP, VWERASE, VLNEXT, VREPRINT, VDISCARD)")
{
	const int past[] = {VSTART, VSTOP, VSUSP, VWERASE, VLNEXT, VREPRINT,
			    VDISCARD};
	const size_t npast = sizeof(past) / sizeof(past[0]);
	struct tp_pty p;
	struct termios t, after;
	struct termio o;

	tp_pty_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &t);
	t.c_cflag |= CRTSCTS | CMSPAR;
	for (size_t i = 0; i < npast; i++) {
		ATF_REQUIRE_MSG(past[i] >= NCC, "c_cc index %d < NCC", past[i]);
		t.c_cc[past[i]] = (cc_t)('A' + i);
	}
	tp_tc_set(p.slave, &t);
	tp_tc_get(p.slave, &t);
	ATF_REQUIRE_MSG((t.c_cflag & (CRTSCTS | CMSPAR)) == (CRTSCTS | CMSPAR),
			"the pty dropped CRTSCTS|CMSPAR (c_cflag 0x%x)",
			t.c_cflag);

	get_termio(p.slave, &o);
	o.c_lflag &= (unsigned short)~ECHO;
	o.c_cc[VINTR] = 'q';
	set_termio(p.slave, TCSETA, &o, "TCSETA");
	tp_tc_get(p.slave, &after);
	ATF_CHECK_MSG(!(after.c_lflag & ECHO), "the TCSETA change is missing");
	ATF_CHECK_MSG((after.c_cflag & (CRTSCTS | CMSPAR)) ==
		      (CRTSCTS | CMSPAR), "c_cflag 0x%x after TCSETA lost "
		      "CRTSCTS|CMSPAR (0x%x before)", after.c_cflag, t.c_cflag);
	for (size_t i = 0; i < npast; i++)
		ATF_CHECK_EQ_MSG(after.c_cc[past[i]], (cc_t)('A' + i),
				 "c_cc[%d] 0x%x after TCSETA, want 0x%x",
				 past[i], after.c_cc[past[i]], 'A' + (int)i);
	tp_pty_close(&p);
}

/* A canonical, echo-free slave with one complete line queued. */
static void
open_with_line(struct tp_pty *p, struct termio *o)
{
	tp_pty_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON, ECHO);
	tp_write_str(p->master, "line\n", "line for the slave");
	tp_wait_fionread(p->slave, 5, TP_WAIT_MS, "queued line on the slave");
	get_termio(p->slave, o);
}

TP_CASE(tcsetaf_flushes_pending_input, TP_LINUX,
	"TCSETAF (termio's TCSAFLUSH) discards the queued input line before "
	"applying the settings")
{
	struct tp_pty p;
	struct termio o;

	open_with_line(&p, &o);
	o.c_cc[VKILL] = 'k';
	set_termio(p.slave, TCSETAF, &o, "TCSETAF");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD %d after TCSETAF, "
			 "want 0", tp_fionread(p.slave));
	get_termio(p.slave, &o);
	ATF_CHECK_EQ_MSG(o.c_cc[VKILL], 'k', "VKILL 0x%x after TCSETAF",
			 o.c_cc[VKILL]);
	tp_pty_close(&p);
}

TP_CASE(tcseta_and_tcsetaw_keep_pending_input, TP_LINUX,
	"TCSETA and TCSETAW apply the settings and leave the queued input "
	"line to be read")
{
	struct tp_pty p;
	struct termio o;

	open_with_line(&p, &o);
	o.c_cc[VKILL] = 'k';
	set_termio(p.slave, TCSETA, &o, "TCSETA");
	o.c_cc[VKILL] = 'j';
	set_termio(p.slave, TCSETAW, &o, "TCSETAW");
	TP_EXPECT_LINE(p.slave, "line\n", "the line queued before TCSETA/W");
	get_termio(p.slave, &o);
	ATF_CHECK_EQ_MSG(o.c_cc[VKILL], 'j', "VKILL 0x%x after TCSETAW",
			 o.c_cc[VKILL]);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcgeta_is_low_half_of_termios);
	ATF_TP_ADD_TC(tp, tcseta_sets_flags_and_characters);
	ATF_TP_ADD_TC(tp, tcseta_replaces_the_low_half);
	ATF_TP_ADD_TC(tp, tcseta_keeps_what_termio_cannot_express);
	ATF_TP_ADD_TC(tp, tcsetaf_flushes_pending_input);
	ATF_TP_ADD_TC(tp, tcseta_and_tcsetaw_keep_pending_input);
	return atf_no_error();
}
