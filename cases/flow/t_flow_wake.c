// SPDX-License-Identifier: GPL-2.0-only
/* t_flow_wake.c: restarting stopped output wakes whoever sleeps on it: a
 * writer in write(2), a poller in poll(POLLOUT), an epoll waiter (tty_io.c
 * __start_tty -> tty_wakeup; n_tty_set_termios wake_up).  Each sleeper is
 * seen asleep before the restart, and a restart that must not happen is
 * checked too. */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
expect_master(struct tp_pty *p, const char *want, size_t len, const char *what)
{
	char got[64];

	tp_read_exact(p->master, got, len, len, what);
	if (memcmp(got, want, len) != 0)
		atf_tc_fail("%s: master read \"%s\", want \"%s\"", what,
			    tp_esc(got, len), tp_esc(want, len));
	tp_expect_not_readable(p->master, "nothing after the held output");
}

TP_CASE(tcoon_wakes_pollout_poller, TP_POSIX,
	"A poller asleep in poll(slave, POLLOUT) while output is suspended by "
	"TCOOFF is woken by TCOON with POLLOUT")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_pollout_start(&w, p.slave);
	tp_wait_blocked_poll(w.child.pid, "poller asleep for POLLOUT");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_child_join(&w.child, TP_WAIT_MS, "poller woken by TCOON");
	tp_pty_close(&p);
}

TP_CASE(vstart_wakes_pollout_poller, TP_POSIX,
	"A poller asleep in poll(slave, POLLOUT) while output is stopped by "
	"^S is woken by ^Q from the master")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_pollout_start(&w, p.slave);
	tp_wait_blocked_poll(w.child.pid, "poller asleep for POLLOUT");
	tp_write_str(p.master, "\021", "^Q");
	tp_child_join(&w.child, TP_WAIT_MS, "poller woken by ^Q");
	tp_pty_close(&p);
}

static int
epoll_main(void *arg)
{
	int ep = *(int *)arg;
	struct epoll_event ev;
	/* epoll_pwait: one known system call for tp_wait_blocked. */
	int n = epoll_pwait(ep, &ev, 1, TP_WAIT_MS, NULL);
	if (n != 1 || !(ev.events & EPOLLOUT))
		return tp_child_fail("epoll_pwait returned %d, events 0x%x", n,
				     n == 1 ? ev.events : 0);
	return 0;
}

TP_CASE(vstart_wakes_epoll_waiter, TP_LINUX,
	"An epoll_wait for EPOLLOUT on a slave stopped by ^S sleeps, and ^Q "
	"wakes it with EPOLLOUT")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	int ep = epoll_create1(EPOLL_CLOEXEC);
	ATF_REQUIRE_MSG(ep >= 0, "epoll_create1: %s", strerror(errno));
	struct epoll_event ev = { .events = EPOLLOUT, .data.fd = p.slave };
	ATF_REQUIRE(epoll_ctl(ep, EPOLL_CTL_ADD, p.slave, &ev) == 0);
	tp_child_start(&w.child, epoll_main, &ep);
	tp_wait_blocked(w.child.pid, SYS_epoll_pwait,
			"waiter asleep in epoll_pwait");
	ATF_CHECK_MSG(epoll_wait(ep, &ev, 1, 0) == 0, "EPOLLOUT while stopped");
	tp_write_str(p.master, "\021", "^Q");
	tp_child_join(&w.child, TP_WAIT_MS, "epoll waiter woken by ^Q");
	ATF_CHECK_MSG(epoll_wait(ep, &ev, 1, 0) == 1 && (ev.events & EPOLLOUT),
		      "no EPOLLOUT after ^Q");
	close(ep);
	tp_pty_close(&p);
}

TP_CASE(ixany_wakes_blocked_writer, TP_POSIX,
	"With IXON|IXANY, a writer asleep on output stopped by ^S is woken by "
	"an ordinary byte and the master reads its data once")
{
	struct tp_pty p;
	struct tp_writer w;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_iflag(p.slave, IXANY, 0);
	tp_writer_start(&w, p.slave, "held", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on ^S");
	tp_write_str(p.master, "k", "ordinary byte");
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by IXANY");
	expect_master(&p, "held", 4, "held output after IXANY restart");
	tp_read_exact(p.slave, &c, 1, 1, "the restarting byte as data");
	tp_pty_close(&p);
}

TP_CASE(ixon_clear_wakes_blocked_writer, TP_LINUX,
	"Clearing IXON while output is stopped by ^S restarts it: a writer "
	"asleep in write(2) is woken and its data arrives once")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_writer_start(&w, p.slave, "held", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on ^S");
	tp_iflag(p.slave, 0, IXON);
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by clearing IXON");
	expect_master(&p, "held", 4, "held output after IXON cleared");
	tp_pty_close(&p);
}

TP_CASE(ixon_clear_keeps_tcooff, TP_LINUX,
	"Clearing IXON does not resume output suspended by TCOOFF: a writer "
	"asleep in write(2) stays asleep until TCOON")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_writer_start(&w, p.slave, "held", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on TCOOFF");
	tp_iflag(p.slave, 0, IXON);
	tp_expect_still_blocked(&w, p.master, "clearing IXON resumed TCOOFF");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by TCOON");
	expect_master(&p, "held", 4, "held output after TCOON");
	tp_pty_close(&p);
}

TP_CASE(vstart_does_not_wake_tcooff_writer, TP_LINUX,
	"A writer asleep on output suspended by TCOOFF is not released by ^Q "
	"(IXON set); TCOON releases it")
{
	struct tp_pty p;
	struct tp_writer w;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_writer_start(&w, p.slave, "held", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on TCOOFF");
	tp_flow_input(&p, "\021", "^Q");
	tp_expect_still_blocked(&w, p.master, "^Q released a TCOOFF writer");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_child_join(&w.child, TP_WAIT_MS, "writer woken by TCOON");
	expect_master(&p, "held", 4, "held output after TCOON");
	tp_pty_close(&p);
}

TP_CASE(master_tcoon_wakes_blocked_master_writer, TP_LINUX,
	"A writer asleep in write(master) suspended by tcflow(master, TCOOFF) "
	"is woken by TCOON on the master and the slave reads its data")
{
	struct tp_pty p;
	struct tp_writer w;
	char got[4];

	tp_pty_open(&p, TP_RAW);
	tp_tcflow(p.master, TCOOFF, "TCOOFF on the master");
	tp_writer_start(&w, p.master, "down", 4);
	tp_wait_blocked(w.child.pid, SYS_write, "master writer asleep");
	tp_expect_quiet(p.slave, "slave input while the master is suspended");
	tp_tcflow(p.master, TCOON, "TCOON on the master");
	tp_child_join(&w.child, TP_WAIT_MS, "master writer woken by TCOON");
	tp_read_exact(p.slave, got, 4, 4, "slave input after TCOON");
	ATF_CHECK(memcmp(got, "down", 4) == 0);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcoon_wakes_pollout_poller);
	ATF_TP_ADD_TC(tp, vstart_wakes_pollout_poller);
	ATF_TP_ADD_TC(tp, vstart_wakes_epoll_waiter);
	ATF_TP_ADD_TC(tp, ixany_wakes_blocked_writer);
	ATF_TP_ADD_TC(tp, ixon_clear_wakes_blocked_writer);
	ATF_TP_ADD_TC(tp, ixon_clear_keeps_tcooff);
	ATF_TP_ADD_TC(tp, vstart_does_not_wake_tcooff_writer);
	ATF_TP_ADD_TC(tp, master_tcoon_wakes_blocked_master_writer);
	return atf_no_error();
}
