// SPDX-License-Identifier: GPL-2.0-only
/* t_softcar.c: TIOCGSOFTCAR / TIOCSSOFTCAR, the "software carrier" ioctls,
 * are another view of CLOCAL: the get reports 1 exactly when CLOCAL is
 * set, the set turns CLOCAL on for any non-zero argument and off for zero,
 * and no other c_cflag bit moves (tty_ioctl.c, tty_change_softcar). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "ttypot.h"

static int
get_softcar(int fd)
{
	int v = -1;
	ATF_REQUIRE_MSG(ioctl(fd, TIOCGSOFTCAR, &v) == 0, "TIOCGSOFTCAR: %s",
			strerror(errno));
	return v;
}

static void
set_softcar(int fd, int v)
{
	ATF_REQUIRE_MSG(ioctl(fd, TIOCSSOFTCAR, &v) == 0, "TIOCSSOFTCAR %d: %s",
			v, strerror(errno));
}

static tcflag_t
cflag(int fd)
{
	struct termios t;
	tp_tc_get(fd, &t);
	return t.c_cflag;
}

TP_CASE(softcar_sets_and_clears_clocal_only, TP_LINUX,
	"TIOCSSOFTCAR 1 sets CLOCAL and TIOCSSOFTCAR 0 clears it; "
	"TIOCGSOFTCAR follows, and no other c_cflag bit changes")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	tcflag_t before = cflag(p.slave);
	ATF_REQUIRE_MSG(!(before & CLOCAL), "a new pty has CLOCAL set");
	ATF_CHECK_EQ_MSG(get_softcar(p.slave), 0, "TIOCGSOFTCAR %d without "
			 "CLOCAL", get_softcar(p.slave));

	set_softcar(p.slave, 1);
	tcflag_t on = cflag(p.slave);
	ATF_CHECK_MSG(on & CLOCAL, "CLOCAL not set by TIOCSSOFTCAR 1");
	ATF_CHECK_EQ_MSG(on & ~CLOCAL, before & ~CLOCAL, "c_cflag 0x%x -> 0x%x "
			 "beyond CLOCAL", before, on);
	ATF_CHECK_EQ_MSG(get_softcar(p.slave), 1, "TIOCGSOFTCAR %d with CLOCAL",
			 get_softcar(p.slave));

	set_softcar(p.slave, 0);
	tcflag_t off = cflag(p.slave);
	ATF_CHECK_MSG(!(off & CLOCAL), "CLOCAL still set by TIOCSSOFTCAR 0");
	ATF_CHECK_EQ_MSG(off, before, "c_cflag 0x%x after the round trip, "
			 "was 0x%x", off, before);
	tp_pty_close(&p);
}

TP_CASE(softcar_any_nonzero_means_on, TP_LINUX,
	"TIOCSSOFTCAR with 2 (any non-zero) sets CLOCAL, and TIOCGSOFTCAR "
	"then reports 1, not the value passed")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	set_softcar(p.slave, 2);
	ATF_CHECK_MSG(cflag(p.slave) & CLOCAL, "CLOCAL not set by "
		      "TIOCSSOFTCAR 2");
	ATF_CHECK_EQ_MSG(get_softcar(p.slave), 1, "TIOCGSOFTCAR %d, want 1",
			 get_softcar(p.slave));
	tp_pty_close(&p);
}

TP_CASE(softcar_reports_clocal_from_tcsetattr, TP_LINUX,
	"TIOCGSOFTCAR reads CLOCAL however it was set: 1 after tcsetattr "
	"sets CLOCAL, 0 after tcsetattr clears it")
{
	struct tp_pty p;
	struct termios t;
	tp_pty_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &t);
	t.c_cflag |= CLOCAL;
	tp_tc_set(p.slave, &t);
	ATF_CHECK_EQ_MSG(get_softcar(p.slave), 1, "TIOCGSOFTCAR %d after "
			 "tcsetattr CLOCAL", get_softcar(p.slave));
	t.c_cflag &= ~CLOCAL;
	tp_tc_set(p.slave, &t);
	ATF_CHECK_EQ_MSG(get_softcar(p.slave), 0, "TIOCGSOFTCAR %d after "
			 "tcsetattr ~CLOCAL", get_softcar(p.slave));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, softcar_sets_and_clears_clocal_only);
	ATF_TP_ADD_TC(tp, softcar_any_nonzero_means_on);
	ATF_TP_ADD_TC(tp, softcar_reports_clocal_from_tcsetattr);
	return atf_no_error();
}
