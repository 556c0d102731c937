// SPDX-License-Identifier: GPL-2.0-only
/* t_flow_flush.c: flushing and draining while output is stopped.  tcflush
 * discards queued data but never changes the stopped state; tcdrain and
 * TCSADRAIN/TCSAFLUSH on a pty slave do not wait for stopped output (a pty
 * has no transmit queue: tty_wait_until_sent sees nothing in the buffer).
 * Each call that could block runs in a child with a deadline. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
open_stopped_by_vstop(struct tp_pty *p)
{
	tp_pty_open(p, TP_RAW);
	tp_iflag(p->slave, IXON, 0);
	tp_flow_input(p, "\023", "^S");
	ATF_REQUIRE_MSG(!tp_can_write(p->slave), "^S did not stop output");
}

TP_CASE(tciflush_while_stopped_keeps_stop, TP_POSIX,
	"tcflush(slave, TCIFLUSH) while output is stopped by ^S discards the "
	"pending input and leaves output stopped until ^Q")
{
	struct tp_pty p;

	open_stopped_by_vstop(&p);
	tp_write_str(p.master, "abc", "input while stopped");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "input queued");
	ATF_REQUIRE(tcflush(p.slave, TCIFLUSH) == 0);
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "input left after TCIFLUSH");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "TCIFLUSH restarted output");
	tp_flow_input(&p, "\021", "^Q");
	ATF_CHECK(tp_can_write(p.slave));
	tp_pty_close(&p);
}

TP_CASE(tcoflush_while_suspended_keeps_writer, TP_LINUX,
	"tcflush(slave, TCOFLUSH) while a writer sleeps on TCOOFF output "
	"neither releases nor discards the held write: the writer sleeps on, "
	"and after TCOON the master reads its data exactly once")
{
	struct tp_pty p;
	struct tp_writer w;
	char got[8];

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_writer_start(&w, p.slave, "held", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on TCOOFF");
	ATF_REQUIRE(tcflush(p.slave, TCOFLUSH) == 0);
	ATF_CHECK_MSG(!tp_can_write(p.slave), "TCOFLUSH resumed output");
	tp_expect_still_blocked(&w, p.master, "writer after TCOFLUSH");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by TCOON");
	tp_read_exact(p.master, got, 4, 4, "held output");
	ATF_CHECK(memcmp(got, "held", 4) == 0);
	tp_expect_not_readable(p.master, "held output once");
	tp_pty_close(&p);
}

TP_CASE(master_tciflush_while_stopped, TP_LINUX,
	"tcflush(master, TCIFLUSH) while slave output is stopped discards "
	"what the slave wrote before the stop and leaves output stopped")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_write_str(p.slave, "early", "slave output before the stop");
	tp_wait_fionread(p.master, 5, TP_WAIT_MS, "output on the master");
	tp_flow_input(&p, "\023", "^S");
	ATF_REQUIRE(tcflush(p.master, TCIFLUSH) == 0);
	ATF_CHECK_EQ_MSG(tp_fionread(p.master), 0, "master input after flush");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "master flush restarted output");
	tp_pty_close(&p);
}

static int
drain_main(void *arg)
{
	int fd = *(int *)arg;
	if (tcdrain(fd) != 0)
		return tp_child_fail("tcdrain: %s", strerror(errno));
	return 0;
}

TP_CASE(tcdrain_while_stopped_returns, TP_LINUX,
	"tcdrain(slave) while output is suspended by TCOOFF or stopped by ^S "
	"returns at once (a pty has no transmit queue) and output stays "
	"stopped")
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_child_start(&c, drain_main, &p.slave);
	tp_child_join(&c, TP_WAIT_MS, "tcdrain while suspended by TCOOFF");
	ATF_CHECK(!tp_can_write(p.slave));
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_child_start(&c, drain_main, &p.slave);
	tp_child_join(&c, TP_WAIT_MS, "tcdrain while stopped by ^S");
	ATF_CHECK(!tp_can_write(p.slave));
	tp_pty_close(&p);
}

struct setattr_arg {
	int fd;
	int when;
	struct termios t;
};

static int
setattr_main(void *arg)
{
	struct setattr_arg *a = arg;
	if (tcsetattr(a->fd, a->when, &a->t) != 0)
		return tp_child_fail("tcsetattr: %s", strerror(errno));
	return 0;
}

TP_CASE(tcsadrain_while_stopped_applies, TP_POSIX,
	"tcsetattr(TCSADRAIN) on a slave whose output is stopped by ^S "
	"returns (bounded), the new settings take effect and output stays "
	"stopped")
{
	struct tp_pty p;
	struct tp_child c;
	struct setattr_arg a;
	struct termios now;

	open_stopped_by_vstop(&p);
	a.fd = p.slave;
	a.when = TCSADRAIN;
	tp_tc_get(p.slave, &a.t);
	a.t.c_lflag |= ECHO;
	a.t.c_cc[VMIN] = 3;
	tp_child_start(&c, setattr_main, &a);
	tp_child_join(&c, TP_WAIT_MS, "TCSADRAIN while stopped");
	tp_tc_get(p.slave, &now);
	ATF_CHECK_MSG((now.c_lflag & ECHO) && now.c_cc[VMIN] == 3,
		      "TCSADRAIN settings not applied");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "TCSADRAIN restarted output");
	tp_pty_close(&p);
}

TP_CASE(tcsaflush_while_stopped_discards_input, TP_POSIX,
	"tcsetattr(TCSAFLUSH) on a slave stopped by ^S returns (bounded), "
	"discards its pending input, applies the settings and keeps output "
	"stopped while IXON stays set")
{
	struct tp_pty p;
	struct tp_child c;
	struct setattr_arg a;
	struct termios now;

	open_stopped_by_vstop(&p);
	tp_write_str(p.master, "pending", "input while stopped");
	tp_wait_fionread(p.slave, 7, TP_WAIT_MS, "input queued");
	a.fd = p.slave;
	a.when = TCSAFLUSH;
	tp_tc_get(p.slave, &a.t);
	a.t.c_cc[VMIN] = 2;
	tp_child_start(&c, setattr_main, &a);
	tp_child_join(&c, TP_WAIT_MS, "TCSAFLUSH while stopped");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "input left after "
			 "TCSAFLUSH");
	tp_tc_get(p.slave, &now);
	ATF_CHECK_MSG(now.c_cc[VMIN] == 2, "TCSAFLUSH settings not applied");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "TCSAFLUSH restarted output");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tciflush_while_stopped_keeps_stop);
	ATF_TP_ADD_TC(tp, tcoflush_while_suspended_keeps_writer);
	ATF_TP_ADD_TC(tp, master_tciflush_while_stopped);
	ATF_TP_ADD_TC(tp, tcdrain_while_stopped_returns);
	ATF_TP_ADD_TC(tp, tcsadrain_while_stopped_applies);
	ATF_TP_ADD_TC(tp, tcsaflush_while_stopped_discards_input);
	return atf_no_error();
}
