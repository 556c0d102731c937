// SPDX-License-Identifier: GPL-2.0-only
/* t_winsize.c: TIOCSWINSZ/TIOCGWINSZ keep every field on both sides, and
 * SIGWINCH goes to the foreground process group only, on any real change
 * (pixels included), waking a reader already asleep.
 *
 * Process tree of the SIGWINCH cases: the case forks a session leader L
 * that takes the slave as controlling tty and forks F and B into process
 * groups of their own; L makes F's group the foreground one, so B's and
 * L's groups are in the background.  All three block SIGWINCH: the signal
 * is queued from inside the case's TIOCSWINSZ, so once the ioctl returned
 * each process can tell from sigpending() whether it was sent one, with no
 * timed window. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
set_ws(int fd, const struct winsize *ws, const char *what)
{
	if (ioctl(fd, TIOCSWINSZ, ws) != 0)
		atf_tc_fail("%s: TIOCSWINSZ: %s", what, strerror(errno));
}

static void
check_ws(int fd, const struct winsize *want, const char *what)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) != 0)
		atf_tc_fail("%s: TIOCGWINSZ: %s", what, strerror(errno));
	ATF_CHECK_MSG(ws.ws_row == want->ws_row && ws.ws_col == want->ws_col &&
		      ws.ws_xpixel == want->ws_xpixel &&
		      ws.ws_ypixel == want->ws_ypixel,
		      "%s: rows %u cols %u xpixel %u ypixel %u, want %u %u %u "
		      "%u", what, ws.ws_row, ws.ws_col, ws.ws_xpixel,
		      ws.ws_ypixel, want->ws_row, want->ws_col,
		      want->ws_xpixel, want->ws_ypixel);
}

TP_CASE(winsize_every_field_kept_on_both_sides, TP_LINUX,
	"Rows, columns, xpixel and ypixel set with TIOCSWINSZ on the master "
	"read back unchanged with TIOCGWINSZ on both sides, and so do four "
	"other values set on the slave")
{
	struct tp_pty p;
	struct winsize a = {.ws_row = 25, .ws_col = 81, .ws_xpixel = 640,
			    .ws_ypixel = 401};
	struct winsize b = {.ws_row = 65535, .ws_col = 1, .ws_xpixel = 3,
			    .ws_ypixel = 65534};

	tp_pty_open(&p, TP_COOKED);
	set_ws(p.master, &a, "master");
	check_ws(p.slave, &a, "slave after the master set it");
	check_ws(p.master, &a, "master after the master set it");
	set_ws(p.slave, &b, "slave");
	check_ws(p.master, &b, "master after the slave set it");
	check_ws(p.slave, &b, "slave after the slave set it");
	tp_pty_close(&p);
}

/* ------------------------------------------------ who gets SIGWINCH */

struct member {
	pid_t pid;
	int go[2];     /* L -> member */
	int report[2]; /* member -> L */
};

struct wtree {
	struct tp_pty p;
	struct tp_sync s;
};

static int
winch_pending(void)
{
	sigset_t pend;

	sigemptyset(&pend);
	sigpending(&pend);
	return sigismember(&pend, SIGWINCH);
}

/* F or B: in a group of its own, report ready, then on 'g' report whether
 * SIGWINCH is pending ('Y') or not ('N'). */
static void
member_main(struct member *m)
{
	char c = 'r';

	close(m->go[1]);
	close(m->report[0]);
	if (setpgid(0, 0) != 0 || write(m->report[1], &c, 1) != 1)
		_exit(2);
	struct pollfd pfd = {.fd = m->go[0], .events = POLLIN};
	if (poll(&pfd, 1, TP_WAIT_MS * 2) != 1 || read(m->go[0], &c, 1) != 1)
		_exit(3);
	c = winch_pending() ? 'Y' : 'N';
	_exit(write(m->report[1], &c, 1) == 1 ? 0 : 4);
}

static int
member_start(struct member *m)
{
	if (pipe(m->go) != 0 || pipe(m->report) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	m->pid = tp_child_fork();
	if (m->pid < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (m->pid == 0)
		member_main(m);
	close(m->go[0]);
	close(m->report[1]);
	setpgid(m->pid, m->pid);
	return 0;
}

/* In L: read one byte a member sends, within TP_WAIT_MS; 0 if none. */
static char
member_byte(struct member *m)
{
	struct pollfd pfd = {.fd = m->report[0], .events = POLLIN};
	char c = 0;

	if (poll(&pfd, 1, TP_WAIT_MS) != 1 || read(m->report[0], &c, 1) != 1)
		return 0;
	return c;
}

static int
leader_main(void *arg)
{
	struct wtree *w = arg;
	struct member f, b;
	sigset_t set;
	char go = 'g', cf, cb;
	int status;

	tp_child_sync_side(&w->s);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL); /* inherited by F and B */
	if (tp_child_take_ctty(w->p.slave) || member_start(&f) ||
	    member_start(&b))
		return 1;
	if (member_byte(&f) != 'r' || member_byte(&b) != 'r')
		return tp_child_fail("F or B never reported ready");
	if (tcsetpgrp(w->p.slave, f.pid) != 0)
		return tp_child_fail("tcsetpgrp(F): %s", strerror(errno));
	if (tp_child_post(&w->s, 'r') || tp_child_await(&w->s, 'g', "resize"))
		return 1;
	if (write(f.go[1], &go, 1) != 1 || write(b.go[1], &go, 1) != 1)
		return tp_child_fail("go: %s", strerror(errno));
	cf = member_byte(&f);
	cb = member_byte(&b);
	if (tp_child_wait_exit(f.pid, TP_WAIT_MS, &status, "F") ||
	    tp_child_wait_exit(b.pid, TP_WAIT_MS, &status, "B"))
		return 1;
	char out[3] = {cf ? cf : '?', cb ? cb : '?', winch_pending() ? 'Y' : 'N'};
	/* Tell the case what each saw: F, B, L. */
	for (int i = 0; i < 3; i++)
		if (tp_child_post(&w->s, out[i]))
			return 1;
	return 0;
}

/* Run the tree; resize() acts on the pty between ready and go; want is
 * what F, B and L must see ('Y' SIGWINCH pending, 'N' not). */
static void
run_tree(void (*resize)(struct tp_pty *), const char *want, const char *what)
{
	struct wtree w;
	struct tp_child c;
	const char *who[] = {
		"SIGWINCH pending in F, the foreground group (Y yes, N no)",
		"SIGWINCH pending in B, a background group (Y yes, N no)",
		"SIGWINCH pending in L, the leader's background group (Y/N)",
	};

	tp_pty_open(&w.p, TP_COOKED);
	tp_sync_open(&w.s);
	tp_child_start(&c, leader_main, &w);
	tp_sync_parent_side(&w.s, &c);
	tp_sync_await(&w.s, 'r', "leader with F in the foreground");
	resize(&w.p);
	tp_sync_post(&w.s, 'g', "resize done");
	for (int i = 0; i < 3; i++)
		tp_sync_await(&w.s, want[i], who[i]);
	tp_child_join(&c, TP_WAIT_MS, what);
	tp_sync_close(&w.s);
	tp_pty_close(&w.p);
}

static void
resize_rows(struct tp_pty *p)
{
	struct winsize ws = {.ws_row = 30, .ws_col = 90};
	set_ws(p->master, &ws, "master, new rows and columns");
}

static void
resize_xpixel_only(struct tp_pty *p)
{
	struct winsize ws = {.ws_xpixel = 1};
	set_ws(p->master, &ws, "master, only xpixel changed");
}

static void
resize_ypixel_only(struct tp_pty *p)
{
	struct winsize ws = {.ws_ypixel = 1};
	set_ws(p->slave, &ws, "slave, only ypixel changed");
}

static void
resize_same(struct tp_pty *p)
{
	struct winsize ws = {0};
	set_ws(p->master, &ws, "master, the size it already has");
}

TP_CASE(sigwinch_to_foreground_group_only, TP_POSIX,
	"A new window size sends SIGWINCH to the foreground process group "
	"and not to the other groups of the session (a background group, "
	"the session leader's)")
{
	run_tree(resize_rows, "YNN", "resize with F in the foreground");
}

TP_CASE(sigwinch_on_pixel_only_change, TP_LINUX,
	"A change of xpixel alone (master) or ypixel alone (slave) is a "
	"change: the foreground group gets SIGWINCH")
{
	run_tree(resize_xpixel_only, "YNN", "xpixel-only resize");
	run_tree(resize_ypixel_only, "YNN", "ypixel-only resize");
}

TP_CASE(no_sigwinch_when_size_unchanged_for_any_group, TP_LINUX,
	"Setting the size a pty already has (all four fields) sends SIGWINCH "
	"to no group of the session")
{
	run_tree(resize_same, "NNN", "resize to the same size");
}

/* ------------------------------------------------ a reader asleep */

struct sleeper {
	struct tp_pty p;
	struct tp_sync s;
};

static volatile sig_atomic_t winches;

static void
on_winch(int sig)
{
	(void)sig;
	winches++;
}

static int
sleeper_main(void *arg)
{
	struct sleeper *sl = arg;
	struct sigaction sa = {0};
	char c;

	tp_child_sync_side(&sl->s);
	/* No SA_RESTART: the signal ends the read with EINTR. */
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	if (tp_child_take_ctty(sl->p.slave) || tp_child_post(&sl->s, 'r'))
		return 1;
	ssize_t n = read(sl->p.slave, &c, 1);
	if (n >= 0 || errno != EINTR)
		return tp_child_fail("read returned %zd (%s), expected EINTR "
				     "by SIGWINCH", n,
				     n < 0 ? strerror(errno) : "data");
	if (winches != 1)
		return tp_child_fail("read ended EINTR with %d SIGWINCH "
				     "handled", (int)winches);
	return 0;
}

TP_CASE(sigwinch_interrupts_foreground_reader_asleep, TP_POSIX,
	"A foreground process asleep in read() of its controlling tty is "
	"woken by the SIGWINCH a resize sends: its handler runs once and the "
	"read fails EINTR")
{
	struct sleeper sl;
	struct tp_child c;
	struct winsize ws = {.ws_row = 40, .ws_col = 100};

	tp_pty_open(&sl.p, TP_COOKED);
	tp_sync_open(&sl.s);
	tp_child_start(&c, sleeper_main, &sl);
	tp_sync_parent_side(&sl.s, &c);
	tp_sync_await(&sl.s, 'r', "reader holding the slave as ctty");
	tp_wait_blocked_fd(c.pid, SYS_read, sl.p.slave,
			   "reader asleep in read(slave)");
	set_ws(sl.p.master, &ws, "master resize");
	tp_child_join(&c, TP_WAIT_MS, "reader woken by SIGWINCH");
	tp_sync_close(&sl.s);
	tp_pty_close(&sl.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, winsize_every_field_kept_on_both_sides);
	ATF_TP_ADD_TC(tp, sigwinch_to_foreground_group_only);
	ATF_TP_ADD_TC(tp, sigwinch_on_pixel_only_change);
	ATF_TP_ADD_TC(tp, no_sigwinch_when_size_unchanged_for_any_group);
	ATF_TP_ADD_TC(tp, sigwinch_interrupts_foreground_reader_asleep);
	return atf_no_error();
}
