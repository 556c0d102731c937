// SPDX-License-Identifier: GPL-2.0-only
/* t_winch.c: TIOCSWINSZ on a pty raises SIGWINCH in the slave's foreground
 * process group, only when the size really changes.  The kernel sends it
 * (si_code SI_KERNEL), not the resizing process, so it reaches a job that
 * process could not signal itself (a terminal emulator's `sudo vim`).
 *
 * The signal is sent from inside the ioctl, so once the case's TIOCSWINSZ
 * has returned, a SIGWINCH that was going to be sent is already pending in
 * the child: the "no signal" check is a sigpending() after a pipe step,
 * not a timed window. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct winch {
	struct tp_pty p;
	struct tp_sync s;
};

static void
set_winsize(int fd, unsigned short rows, unsigned short cols)
{
	struct winsize ws = {.ws_row = rows, .ws_col = cols};
	if (ioctl(fd, TIOCSWINSZ, &ws) != 0)
		atf_tc_fail("TIOCSWINSZ %ux%u: %s", rows, cols,
			    strerror(errno));
}

static int
child_check_size(int fd, unsigned short rows, unsigned short cols)
{
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) != 0)
		return tp_child_fail("TIOCGWINSZ on the slave: %s",
				     strerror(errno));
	if (ws.ws_row != rows || ws.ws_col != cols)
		return tp_child_fail("slave TIOCGWINSZ %ux%u, expected %ux%u",
				     ws.ws_row, ws.ws_col, rows, cols);
	return 0;
}

static int
child_winch_pending(bool *pending)
{
	sigset_t pend;
	if (sigpending(&pend) != 0)
		return tp_child_fail("sigpending: %s", strerror(errno));
	*pending = sigismember(&pend, SIGWINCH);
	return 0;
}

/* Steps: 'r' ready; size 24x80 -> SIGWINCH, 'a'; same size -> 'n' checks
 * nothing is pending, 'b'; 30x100 -> SIGWINCH (the same child can still
 * see one), 'c'. */
static int
winch_child(void *arg)
{
	struct winch *w = arg;
	sigset_t set;
	bool pending = false;

	tp_child_sync_side(&w->s);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (tp_child_take_ctty(w->p.slave) || tp_child_post(&w->s, 'r'))
		return 1;
	if (tp_child_await_signal(SIGWINCH, TP_WAIT_MS, "SIGWINCH for 24x80") ||
	    child_check_size(w->p.slave, 24, 80) || tp_child_post(&w->s, 'a'))
		return 1;
	if (tp_child_await(&w->s, 'n', "same size set again") ||
	    child_winch_pending(&pending))
		return 1;
	if (pending)
		return tp_child_fail("SIGWINCH raised by TIOCSWINSZ with the "
				     "unchanged size 24x80");
	if (tp_child_post(&w->s, 'b'))
		return 1;
	if (tp_child_await_signal(SIGWINCH, TP_WAIT_MS,
				  "SIGWINCH for 30x100") ||
	    child_check_size(w->p.slave, 30, 100) || tp_child_post(&w->s, 'c'))
		return 1;
	return 0;
}

static void
run_winch(int resize_fd)
{
	struct winch w;
	struct tp_child c;

	tp_pty_open(&w.p, TP_COOKED);
	tp_sync_open(&w.s);
	tp_child_start(&c, winch_child, &w);
	tp_sync_parent_side(&w.s, &c);
	tp_sync_await(&w.s, 'r', "child holding the slave as ctty");
	set_winsize(resize_fd == 0 ? w.p.master : w.p.slave, 24, 80);
	tp_sync_await(&w.s, 'a', "child seeing SIGWINCH for 24x80");
	set_winsize(resize_fd == 0 ? w.p.master : w.p.slave, 24, 80);
	tp_sync_post(&w.s, 'n', "same size set");
	tp_sync_await(&w.s, 'b', "child finding no SIGWINCH pending");
	set_winsize(resize_fd == 0 ? w.p.master : w.p.slave, 30, 100);
	tp_sync_await(&w.s, 'c', "child seeing SIGWINCH for 30x100");
	tp_child_join(&c, TP_WAIT_MS, "SIGWINCH child");
	tp_sync_close(&w.s);
	tp_pty_close(&w.p);
}

TP_CASE(master_tiocswinsz_sends_sigwinch, TP_LINUX,
	"TIOCSWINSZ on the master with a new size sends SIGWINCH to the "
	"slave's foreground process group, and the slave's TIOCGWINSZ reads "
	"the new size; setting the same size again sends no SIGWINCH")
{
	run_winch(0);
}

TP_CASE(slave_tiocswinsz_sends_sigwinch, TP_LINUX,
	"TIOCSWINSZ on the slave itself behaves the same: SIGWINCH on a real "
	"change, none for an unchanged size")
{
	run_winch(1);
}

TP_CASE(winsize_shared_by_both_sides, TP_LINUX,
	"A window size set on either side of a pty is what TIOCGWINSZ reads on "
	"both sides")
{
	struct tp_pty p;
	struct winsize ws;

	tp_pty_open(&p, TP_COOKED);
	set_winsize(p.master, 11, 22);
	ATF_REQUIRE(ioctl(p.slave, TIOCGWINSZ, &ws) == 0);
	ATF_CHECK_MSG(ws.ws_row == 11 && ws.ws_col == 22,
		      "slave reads %ux%u after master set 11x22", ws.ws_row,
		      ws.ws_col);
	set_winsize(p.slave, 33, 44);
	ATF_REQUIRE(ioctl(p.master, TIOCGWINSZ, &ws) == 0);
	ATF_CHECK_MSG(ws.ws_row == 33 && ws.ws_col == 44,
		      "master reads %ux%u after slave set 33x44", ws.ws_row,
		      ws.ws_col);
	tp_pty_close(&p);
}

struct resize {
	struct tp_pty p;
	struct tp_sync s;
	bool drop;  /* the resizer gives up root first */
};

/* The foreground job: 'r' once the slave is its ctty, then the first
 * SIGWINCH's si_code must say the kernel sent it. */
static int
winch_info_child(void *arg)
{
	struct resize *r = arg;
	sigset_t set;
	siginfo_t si;

	tp_child_sync_side(&r->s);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (tp_child_take_ctty(r->p.slave) || tp_child_post(&r->s, 'r'))
		return 1;
	if (tp_child_await_siginfo(SIGWINCH, TP_WAIT_MS, &si, r->drop ?
				   "SIGWINCH after a resize by another user" :
				   "SIGWINCH after a resize"))
		return 1;
	if (si.si_code != SI_KERNEL)
		return tp_child_fail("SIGWINCH si_code %d (si_pid %d), want "
				     "SI_KERNEL: sent as by the resizing process",
				     si.si_code, (int)si.si_pid);
	return 0;
}

/* The resizer: TIOCSWINSZ on the master, as TP_NOBODY_UID when asked. */
static int
resizer(void *arg)
{
	struct resize *r = arg;
	struct winsize ws = {.ws_row = 50, .ws_col = 132};

	if (r->drop && tp_child_drop_to_nobody())
		return 1;
	if (ioctl(r->p.master, TIOCSWINSZ, &ws) != 0)
		return tp_child_fail("TIOCSWINSZ 50x132: %s", strerror(errno));
	return 0;
}

static void
run_resize(bool drop)
{
	struct resize r = {.drop = drop};
	struct tp_child job, rs;

	tp_pty_open(&r.p, TP_COOKED);
	tp_sync_open(&r.s);
	tp_child_start(&job, winch_info_child, &r);
	tp_sync_parent_side(&r.s, &job);
	tp_sync_await(&r.s, 'r', "foreground job holding the slave as ctty");
	tp_child_start(&rs, resizer, &r);
	tp_child_join(&rs, TP_WAIT_MS, "the resizer");
	tp_child_join(&job, TP_WAIT_MS, "foreground job waiting for SIGWINCH");
	tp_sync_close(&r.s);
	tp_pty_close(&r.p);
}

TP_CASE(sigwinch_sent_by_the_kernel, TP_LINUX,
	"The SIGWINCH a resize raises comes from the kernel: the foreground "
	"job's siginfo has si_code SI_KERNEL, not SI_USER with the resizer's "
	"pid")
{
	run_resize(false);
}

TP_CASE_ROOT(resized_by_another_user, TP_LINUX,
	"A resize by a process of another user (uid 65534 holding the master) "
	"still raises SIGWINCH in a root foreground job, which that process "
	"could not signal with kill(): as a terminal emulator's window resize "
	"reaches sudo or su")
{
	run_resize(true);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, master_tiocswinsz_sends_sigwinch);
	ATF_TP_ADD_TC(tp, slave_tiocswinsz_sends_sigwinch);
	ATF_TP_ADD_TC(tp, winsize_shared_by_both_sides);
	ATF_TP_ADD_TC(tp, sigwinch_sent_by_the_kernel);
	ATF_TP_ADD_TC(tp, resized_by_another_user);
	return atf_no_error();
}
