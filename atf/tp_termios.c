// SPDX-License-Identifier: GPL-2.0-only
/* tp_termios.c: termios helpers that fail the case instead of returning. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>

#include "ttypot.h"

void
tp_tc_get(int fd, struct termios *t)
{
	if (tcgetattr(fd, t) != 0)
		atf_tc_fail("tcgetattr(%d): %s", fd, strerror(errno));
}

void
tp_tc_set(int fd, const struct termios *t)
{
	if (tcsetattr(fd, TCSANOW, t) != 0)
		atf_tc_fail("tcsetattr(%d): %s", fd, strerror(errno));
}

void
tp_tc_raw(int fd)
{
	struct termios t;
	tp_tc_get(fd, &t);
	cfmakeraw(&t);
	/* cfmakeraw leaves VMIN=1 VTIME=0: a read returns what is there. */
	tp_tc_set(fd, &t);
}

void
tp_lflag(int fd, tcflag_t set, tcflag_t clear)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_lflag = (t.c_lflag | set) & ~clear;
	tp_tc_set(fd, &t);
}

void
tp_iflag(int fd, tcflag_t set, tcflag_t clear)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_iflag = (t.c_iflag | set) & ~clear;
	tp_tc_set(fd, &t);
}

void
tp_oflag(int fd, tcflag_t set, tcflag_t clear)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_oflag = (t.c_oflag | set) & ~clear;
	tp_tc_set(fd, &t);
}

void
tp_set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		atf_tc_fail("fcntl(%d, F_GETFL): %s", fd, strerror(errno));
	fl = on ? (fl | O_NONBLOCK) : (fl & ~O_NONBLOCK);
	if (fcntl(fd, F_SETFL, fl) != 0)
		atf_tc_fail("fcntl(%d, F_SETFL): %s", fd, strerror(errno));
}

void
tp_set_cc(int fd, int idx, cc_t val)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_cc[idx] = val;
	tp_tc_set(fd, &t);
}

void
tp_canon_open(struct tp_pty *p, tcflag_t lset, tcflag_t lclear)
{
	tp_pty_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON | lset, (ECHO & ~lset) | lclear);
	tp_set_nonblock(p->slave, true);
}

void
tp_noncanon_open(struct tp_pty *p, int vmin, int vtime)
{
	struct termios t;

	tp_pty_open(p, TP_RAW);
	tp_tc_get(p->slave, &t);
	t.c_cc[VMIN] = (cc_t)vmin;
	t.c_cc[VTIME] = (cc_t)vtime;
	tp_tc_set(p->slave, &t);
}
