// SPDX-License-Identifier: GPL-2.0-only
/* t_notty.c: TIOCNOTTY.  From the session leader it takes the tty away
 * from the whole session and sends SIGHUP and SIGCONT to the foreground
 * group (here a group other than the leader's); from any other member it
 * detaches only that process, with no signal; on a tty that is not the
 * caller's controlling tty it fails ENOTTY.  Signals are blocked and read
 * back with sigpending(): they are queued inside the ioctl. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct notty {
	struct tp_pty p;
	int go[2];     /* L -> other member */
	int report[2]; /* other member -> L */
};

static bool
pending(int sig)
{
	sigset_t pend;

	sigemptyset(&pend);
	sigpending(&pend);
	return sigismember(&pend, sig);
}

static int
dev_tty_errno(void)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static void
block_hup_cont(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCONT);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Read one byte within TP_WAIT_MS; 0 if none. */
static char
byte_from(int fd)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	char c = 0;

	if (poll(&pfd, 1, TP_WAIT_MS) != 1 || read(fd, &c, 1) != 1)
		return 0;
	return c;
}

/* F: foreground group; after 'g', report "HC" for SIGHUP and SIGCONT
 * pending, "-" in place of one that is not, then 'X' if /dev/tty fails
 * ENXIO or 'T' if it still opens. */
static void
fg_member(struct notty *n)
{
	char c = 'r', out[3];

	close(n->go[1]);
	close(n->report[0]);
	if (setpgid(0, 0) != 0 || write(n->report[1], &c, 1) != 1)
		_exit(2);
	if (byte_from(n->go[0]) != 'g')
		_exit(3);
	out[0] = pending(SIGHUP) ? 'H' : '-';
	out[1] = pending(SIGCONT) ? 'C' : '-';
	out[2] = dev_tty_errno() == ENXIO ? 'X' : 'T';
	_exit(write(n->report[1], out, 3) == 3 ? 0 : 4);
}

static int
leader_notty(void *arg)
{
	struct notty *n = arg;
	char go = 'g', out[3];
	int status;

	block_hup_cont(); /* inherited by F */
	if (tp_child_take_ctty(n->p.slave))
		return 1;
	if (pipe(n->go) != 0 || pipe(n->report) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t f = tp_child_fork();
	if (f < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (f == 0)
		fg_member(n);
	close(n->go[0]);
	close(n->report[1]);
	setpgid(f, f);
	if (byte_from(n->report[0]) != 'r')
		return tp_child_fail("F never reported ready");
	if (tcsetpgrp(n->p.slave, f) != 0)
		return tp_child_fail("tcsetpgrp(F): %s", strerror(errno));
	if (ioctl(n->p.slave, TIOCNOTTY) != 0)
		return tp_child_fail("TIOCNOTTY by the leader: %s",
				     strerror(errno));
	if (write(n->go[1], &go, 1) != 1)
		return tp_child_fail("go: %s", strerror(errno));
	for (int i = 0; i < 3; i++)
		out[i] = byte_from(n->report[0]);
	if (tp_child_wait_exit(f, TP_WAIT_MS, &status, "F"))
		return 1;
	if (memcmp(out, "HCX", 3) != 0)
		return tp_child_fail("foreground group F after the leader's "
				     "TIOCNOTTY: SIGHUP %s, SIGCONT %s, /dev/tty "
				     "%s",
				     out[0] == 'H' ? "pending" : "NOT pending",
				     out[1] == 'C' ? "pending" : "NOT pending",
				     out[2] == 'X' ? "ENXIO" : "still opens");
	if (pending(SIGHUP) || pending(SIGCONT))
		return tp_child_fail("the leader's own (background) group got "
				     "SIGHUP or SIGCONT");
	if (dev_tty_errno() != ENXIO)
		return tp_child_fail("leader: /dev/tty still opens");
	return 0;
}

TP_CASE(tiocnotty_leader_hups_foreground_group, TP_LINUX,
	"TIOCNOTTY by a session leader whose foreground group is another "
	"group sends SIGHUP and SIGCONT to that group, not to the leader's; "
	"the whole session loses the tty (/dev/tty ENXIO in both groups, "
	"the master reports no session)")
{
	struct notty n;
	struct tp_child c;
	pid_t sid;

	tp_pty_open(&n.p, TP_COOKED);
	tp_child_start(&c, leader_notty, &n);
	tp_child_join(&c, TP_WAIT_MS, "leader giving up the tty");
	ATF_CHECK_MSG(ioctl(n.p.master, TIOCGSID, &sid) != 0 && errno == ENOTTY,
		      "the pty still reports a session after TIOCNOTTY");
	tp_pty_close(&n.p);
}

/* N: a non-leader member of the session in the leader's group. */
static void
non_leader(struct notty *n)
{
	char c, out[3];

	close(n->go[1]);
	close(n->report[0]);
	c = ioctl(n->p.slave, TIOCNOTTY) == 0 ? 'k' : 'e';
	out[0] = c;
	out[1] = dev_tty_errno() == ENXIO ? 'X' : 'T';
	out[2] = pending(SIGHUP) || pending(SIGCONT) ? 'S' : '-';
	_exit(write(n->report[1], out, 3) == 3 ? 0 : 4);
}

static int
leader_keeps(void *arg)
{
	struct notty *n = arg;
	char out[3];
	int status;

	block_hup_cont();
	if (tp_child_take_ctty(n->p.slave))
		return 1;
	if (pipe(n->go) != 0 || pipe(n->report) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t m = tp_child_fork();
	if (m < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (m == 0)
		non_leader(n);
	close(n->go[0]);
	close(n->report[1]);
	for (int i = 0; i < 3; i++)
		out[i] = byte_from(n->report[0]);
	if (tp_child_wait_exit(m, TP_WAIT_MS, &status, "non-leader"))
		return 1;
	if (out[0] != 'k')
		return tp_child_fail("TIOCNOTTY by a non-leader failed");
	if (out[1] != 'X')
		return tp_child_fail("non-leader: /dev/tty still opens after "
				     "its TIOCNOTTY");
	if (out[2] != '-')
		return tp_child_fail("non-leader got SIGHUP or SIGCONT");
	if (pending(SIGHUP) || pending(SIGCONT))
		return tp_child_fail("the foreground group got SIGHUP or "
				     "SIGCONT from a non-leader's TIOCNOTTY");
	if (dev_tty_errno() != 0)
		return tp_child_fail("leader lost /dev/tty: %s",
				     strerror(dev_tty_errno()));
	if (tcgetsid(n->p.slave) != getpid())
		return tp_child_fail("tcgetsid %d, expected the leader %d",
				     (int)tcgetsid(n->p.slave), (int)getpid());
	return 0;
}

TP_CASE(tiocnotty_non_leader_detaches_only_itself, TP_LINUX,
	"TIOCNOTTY by a session member that is not the leader detaches only "
	"that process (its /dev/tty fails ENXIO); no SIGHUP or SIGCONT is "
	"sent, and the leader keeps the tty")
{
	struct notty n;
	struct tp_child c;

	tp_pty_open(&n.p, TP_COOKED);
	tp_child_start(&c, leader_keeps, &n);
	tp_child_join(&c, TP_WAIT_MS, "non-leader TIOCNOTTY");
	tp_pty_close(&n.p);
}

static int
no_ctty_notty(void *arg)
{
	struct notty *n = arg;

	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (ioctl(n->p.slave, TIOCNOTTY) == 0 || errno != ENOTTY)
		return tp_child_fail("TIOCNOTTY on a tty that is not the "
				     "caller's ctty: %s, expected ENOTTY",
				     errno ? strerror(errno) : "success");
	return 0;
}

TP_CASE(tiocnotty_on_other_tty_enotty, TP_LINUX,
	"TIOCNOTTY on a tty that is not the caller's controlling tty fails "
	"ENOTTY")
{
	struct notty n;
	struct tp_child c;

	tp_pty_open(&n.p, TP_COOKED);
	tp_child_start(&c, no_ctty_notty, &n);
	tp_child_join(&c, TP_WAIT_MS, "TIOCNOTTY without a ctty");
	tp_pty_close(&n.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocnotty_leader_hups_foreground_group);
	ATF_TP_ADD_TC(tp, tiocnotty_non_leader_detaches_only_itself);
	ATF_TP_ADD_TC(tp, tiocnotty_on_other_tty_enotty);
	return atf_no_error();
}
