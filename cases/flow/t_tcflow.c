// SPDX-License-Identifier: GPL-2.0-only
/* t_tcflow.c: tcflow(3) on a pty slave: TCOOFF/TCOON suspend and resume its
 * output independently of IXON, VSTART and IXANY; TCIOFF/TCION send the
 * current VSTOP/VSTART to the master (tty_ioctl.c n_tty_ioctl_helper,
 * tty_io.c __stop_tty/__start_tty/tty_send_xchar). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Slave output reaches the master byte for byte. */
static void
expect_master(struct tp_pty *p, const char *want, size_t len, const char *what)
{
	char got[64];

	tp_read_exact(p->master, got, len, len, what);
	if (memcmp(got, want, len) != 0)
		atf_tc_fail("%s: master read \"%s\", want \"%s\"", what,
			    tp_esc(got, len), tp_esc(want, len));
}

/* The slave writes a marker: the master reads it and nothing before it, so
 * nothing was sent (or held) before the marker. */
static void
expect_only_marker(struct tp_pty *p, const char *what)
{
	tp_write_str(p->slave, "M", "slave marker");
	tp_wait_fionread(p->master, 1, TP_WAIT_MS, what);
	char got[16];
	ssize_t n = read(p->master, got, sizeof(got));
	if (n != 1 || got[0] != 'M')
		atf_tc_fail("%s: master read \"%s\", want the marker \"M\" "
			    "alone", what, tp_esc(got, n > 0 ? (size_t)n : 0));
}

TP_CASE(tcooff_holds_write_until_tcoon, TP_POSIX,
	"TCOOFF on the slave (IXON clear) holds its output: a blocking writer "
	"sleeps in write(2) and the master reads nothing; TCOON wakes the "
	"writer and the master reads exactly what it wrote, once")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_writer_start(&w, p.slave, "hello", 5);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on TCOOFF");
	tp_expect_still_blocked(&w, p.master, "output held by TCOOFF");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by TCOON");
	expect_master(&p, "hello", 5, "held output after TCOON");
	expect_only_marker(&p, "no duplicate of the held output");
	tp_pty_close(&p);
}

TP_CASE(tcooff_not_undone_by_vstart, TP_LINUX,
	"With IXON, a VSTART (^Q) from the master does not resume output "
	"suspended by TCOOFF (it is still consumed); only TCOON does")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_flow_input(&p, "\021", "^Q while suspended by TCOOFF");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^Q resumed TCOOFF output");
	tp_tcflow(p.slave, TCOON, "TCOON");
	ATF_CHECK_MSG(tp_can_write(p.slave), "no POLLOUT after TCOON");
	tp_pty_close(&p);
}

TP_CASE(tcooff_not_undone_by_ixany, TP_LINUX,
	"With IXON|IXANY, an ordinary byte from the master is read as data "
	"but does not resume output suspended by TCOOFF")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON | IXANY, 0);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_write_str(p.master, "k", "ordinary byte");
	tp_read_exact(p.slave, &c, 1, 1, "the byte as data");
	ATF_CHECK(c == 'k');
	ATF_CHECK_MSG(!tp_can_write(p.slave), "IXANY resumed TCOOFF output");
	tp_tcflow(p.slave, TCOON, "TCOON");
	ATF_CHECK_MSG(tp_can_write(p.slave), "no POLLOUT after TCOON");
	tp_pty_close(&p);
}

TP_CASE(tcoon_does_not_undo_vstop, TP_LINUX,
	"TCOON resumes only what TCOOFF suspended: output stopped by a VSTOP "
	"(^S) from the master stays stopped after TCOON until ^Q")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	ATF_REQUIRE_MSG(!tp_can_write(p.slave), "^S did not stop output");
	tp_tcflow(p.slave, TCOON, "TCOON without TCOOFF");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "TCOON undid ^S");
	tp_flow_input(&p, "\021", "^Q");
	ATF_CHECK_MSG(tp_can_write(p.slave), "no POLLOUT after ^Q");
	tp_pty_close(&p);
}

TP_CASE(tcoon_resumes_after_vstop_and_tcooff, TP_LINUX,
	"Output stopped by ^S and then suspended by TCOOFF ignores ^Q; TCOON "
	"then resumes it entirely (one stopped state, TCOOFF holding it)")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_tcflow(p.slave, TCOOFF, "TCOOFF while stopped by ^S");
	tp_flow_input(&p, "\021", "^Q while TCOOFF");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^Q undid TCOOFF");
	tp_tcflow(p.slave, TCOON, "TCOON");
	ATF_CHECK_MSG(tp_can_write(p.slave), "still stopped after TCOON");
	tp_write_str(p.slave, "z", "slave output");
	expect_master(&p, "z", 1, "output after TCOON");
	tp_pty_close(&p);
}

TP_CASE(tcooff_twice_one_tcoon_resumes, TP_POSIX,
	"TCOOFF is a state, not a count: two TCOOFF then one TCOON resume "
	"output; TCOON on running output changes nothing")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOON, "TCOON on running output");
	ATF_CHECK(tp_can_write(p.slave));
	tp_tcflow(p.slave, TCOOFF, "first TCOOFF");
	tp_tcflow(p.slave, TCOOFF, "second TCOOFF");
	ATF_CHECK(!tp_can_write(p.slave));
	tp_tcflow(p.slave, TCOON, "TCOON");
	ATF_CHECK_MSG(tp_can_write(p.slave), "one TCOON did not resume");
	tp_write_str(p.slave, "q", "slave output");
	expect_master(&p, "q", 1, "output after TCOON");
	tp_pty_close(&p);
}

TP_CASE(tcioff_tcion_send_changed_chars, TP_POSIX,
	"TCIOFF and TCION send the slave's current VSTOP and VSTART (here ^X "
	"and ^Y), with IXOFF clear and with it set")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_set_cc(p.slave, VSTOP, 030);
	tp_set_cc(p.slave, VSTART, 031);
	tp_tcflow(p.slave, TCIOFF, "TCIOFF");
	tp_tcflow(p.slave, TCION, "TCION");
	expect_master(&p, "\030\031", 2, "VSTOP VSTART, IXOFF clear");
	tp_iflag(p.slave, IXOFF, 0);
	tp_tcflow(p.slave, TCIOFF, "TCIOFF with IXOFF");
	tp_tcflow(p.slave, TCION, "TCION with IXOFF");
	expect_master(&p, "\030\031", 2, "VSTOP VSTART, IXOFF set");
	ATF_CHECK_MSG(tp_can_write(p.slave), "TCIOFF stopped the output");
	tp_pty_close(&p);
}

TP_CASE(tcioff_disabled_vstop_sends_nothing, TP_POSIX,
	"With VSTOP (then VSTART) set to _POSIX_VDISABLE, TCIOFF (TCION) "
	"succeeds and sends nothing; the other character is still sent")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_set_cc(p.slave, VSTOP, _POSIX_VDISABLE);
	tp_tcflow(p.slave, TCIOFF, "TCIOFF with VSTOP disabled");
	tp_tcflow(p.slave, TCION, "TCION");
	expect_master(&p, "\021", 1, "VSTART alone");
	expect_only_marker(&p, "nothing for the disabled VSTOP");
	tp_set_cc(p.slave, VSTOP, 023);
	tp_set_cc(p.slave, VSTART, _POSIX_VDISABLE);
	tp_tcflow(p.slave, TCION, "TCION with VSTART disabled");
	tp_tcflow(p.slave, TCIOFF, "TCIOFF");
	expect_master(&p, "\023", 1, "VSTOP alone");
	expect_only_marker(&p, "nothing for the disabled VSTART");
	tp_pty_close(&p);
}

TP_CASE(tcioff_sent_while_vstop_stopped, TP_LINUX,
	"While output is stopped by ^S, TCIOFF and TCION still send their "
	"characters to the master, and output stays stopped afterwards")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_tcflow(p.slave, TCIOFF, "TCIOFF while stopped");
	tp_tcflow(p.slave, TCION, "TCION while stopped");
	expect_master(&p, "\023\021", 2, "flow characters while stopped");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "sending them restarted output");
	tp_pty_close(&p);
}

TP_CASE(tcion_dropped_while_tcooff, TP_LINUX,
	"Linux quirk: while output is suspended by TCOOFF, TCIOFF/TCION "
	"succeed but their character is dropped, not held (tty_send_xchar "
	"cannot restart a TCOOFF-suspended pty); TCOON does not send it")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_tcflow(p.slave, TCIOFF, "TCIOFF while suspended");
	tp_tcflow(p.slave, TCION, "TCION while suspended");
	tp_expect_quiet(p.master, "nothing sent while suspended");
	tp_tcflow(p.slave, TCOON, "TCOON");
	expect_only_marker(&p, "the dropped characters never arrive");
	tp_pty_close(&p);
}

TP_CASE(master_tcooff_holds_master_writes, TP_LINUX,
	"tcflow(master, TCOOFF) suspends the master's output: a non-blocking "
	"master write fails EAGAIN and the slave reads nothing; TCOON resumes")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_set_nonblock(p.master, true);
	tp_tcflow(p.master, TCOOFF, "TCOOFF on the master");
	ATF_CHECK_MSG(!tp_can_write(p.master), "POLLOUT on a suspended master");
	errno = 0;
	ATF_CHECK_MSG(write(p.master, "x", 1) < 0 && errno == EAGAIN,
		      "master write while suspended: %s", strerror(errno));
	tp_expect_quiet(p.slave, "slave input while the master is suspended");
	tp_tcflow(p.master, TCOON, "TCOON on the master");
	ATF_CHECK(tp_can_write(p.master));
	tp_write_str(p.master, "y", "master write after TCOON");
	tp_read_exact(p.slave, &c, 1, 1, "slave input after TCOON");
	ATF_CHECK_MSG(c == 'y', "slave read 0x%02x, want y", c);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcooff_holds_write_until_tcoon);
	ATF_TP_ADD_TC(tp, tcooff_not_undone_by_vstart);
	ATF_TP_ADD_TC(tp, tcooff_not_undone_by_ixany);
	ATF_TP_ADD_TC(tp, tcoon_does_not_undo_vstop);
	ATF_TP_ADD_TC(tp, tcoon_resumes_after_vstop_and_tcooff);
	ATF_TP_ADD_TC(tp, tcooff_twice_one_tcoon_resumes);
	ATF_TP_ADD_TC(tp, tcioff_tcion_send_changed_chars);
	ATF_TP_ADD_TC(tp, tcioff_disabled_vstop_sends_nothing);
	ATF_TP_ADD_TC(tp, tcioff_sent_while_vstop_stopped);
	ATF_TP_ADD_TC(tp, tcion_dropped_while_tcooff);
	ATF_TP_ADD_TC(tp, master_tcooff_holds_master_writes);
	return atf_no_error();
}
