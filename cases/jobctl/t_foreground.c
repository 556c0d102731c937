// SPDX-License-Identifier: GPL-2.0-only
/* t_foreground.c: the foreground process group of a controlling tty:
 * tcgetpgrp / tcsetpgrp / tcgetsid (TIOCGPGRP, TIOCSPGRP, TIOCGSID) and
 * their errors.  The session leader L moves the foreground to a second
 * group G of its session; the case checks it from the master side. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct fg {
	struct tp_pty p;
	struct tp_sync s;
};

/* G: joins its own group, checks what it sees once it is foreground. */
static int
member(struct fg *f, pid_t leader, int ready)
{
	char c;
	if (setpgid(0, 0) != 0)
		return 1;
	/* L writes one byte once G's group is in the foreground. */
	if (read(ready, &c, 1) != 1)
		return 2;
	if (tcgetpgrp(f->p.slave) != getpid())
		return 3;
	if (tcgetsid(f->p.slave) != leader)
		return 4;
	return 0;
}

static int
leader(void *arg)
{
	struct fg *f = arg;
	int go[2], status;

	tp_child_sync_side(&f->s);
	if (tp_child_take_ctty(f->p.slave))
		return 1;
	if (pipe(go) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t g = tp_child_fork();
	if (g < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (g == 0)
		_exit(member(f, getppid(), go[0]));
	setpgid(g, g);
	/* L is about to become background: SIGTTOU must not stop it when it
	 * later moves the foreground back. */
	signal(SIGTTOU, SIG_IGN);
	if (tcsetpgrp(f->p.slave, g) != 0)
		return tp_child_fail("tcsetpgrp to %d: %s", (int)g,
				     strerror(errno));
	if (tcgetpgrp(f->p.slave) != g)
		return tp_child_fail("tcgetpgrp %d after tcsetpgrp %d",
				     (int)tcgetpgrp(f->p.slave), (int)g);
	if (write(go[1], "g", 1) != 1 ||
	    tp_child_wait_exit(g, TP_WAIT_MS, &status, "foreground member"))
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return tp_child_fail("foreground member failed at step 0x%x",
				     status);
	/* Errors, from the leader that still owns the tty. */
	if (tcsetpgrp(f->p.slave, INT_MAX) == 0 || errno != ESRCH)
		return tp_child_fail("tcsetpgrp to a nonexistent group: %s, "
				     "expected ESRCH",
				     strerror(errno));
	if (tcsetpgrp(f->p.slave, getpgid(getppid())) == 0 || errno != EPERM)
		return tp_child_fail("tcsetpgrp to a group of another session: "
				     "%s, expected EPERM",
				     strerror(errno));
	if (ioctl(f->p.slave, TIOCSPGRP, &(pid_t){-1}) == 0 || errno != EINVAL)
		return tp_child_fail("TIOCSPGRP -1: %s, expected EINVAL",
				     strerror(errno));
	/* The group G no longer exists once reaped: the tty keeps its pgrp
	 * number, which the case reads from the master. */
	if (tp_child_post(&f->s, 'g') || tp_child_await(&f->s, 'q', "case"))
		return 1;
	if (tcsetpgrp(f->p.slave, getpgrp()) != 0)
		return tp_child_fail("tcsetpgrp back to the leader: %s",
				     strerror(errno));
	return 0;
}

TP_CASE(tcsetpgrp_moves_foreground, TP_POSIX,
	"A session leader moves the foreground to another group of its "
	"session with tcsetpgrp; tcgetpgrp in the group and on the master "
	"report it, tcgetsid reports the leader; bad groups fail ESRCH, "
	"EPERM (other session), EINVAL (negative)")
{
	struct fg f;
	struct tp_child c;

	tp_pty_open(&f.p, TP_COOKED);
	ATF_CHECK_EQ_MSG(tcgetpgrp(f.p.master), 0,
			 "fresh pty: master tcgetpgrp %d",
			 (int)tcgetpgrp(f.p.master));
	tp_sync_open(&f.s);
	tp_child_start(&c, leader, &f);
	tp_sync_parent_side(&f.s, &c);
	tp_sync_await(&f.s, 'g', "leader moving the foreground");
	pid_t pgrp = tcgetpgrp(f.p.master);
	ATF_CHECK_MSG(pgrp > 0 && pgrp != c.pid,
		      "master tcgetpgrp %d, expected the member group, not "
		      "the leader %d",
		      (int)pgrp, (int)c.pid);
	tp_sync_post(&f.s, 'q', "release the leader");
	tp_child_join(&c, TP_WAIT_MS, "session leader");
	tp_sync_close(&f.s);
	tp_pty_close(&f.p);
}

static int
not_ctty_child(void *arg)
{
	struct fg *f = arg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (tcgetpgrp(f->p.slave) >= 0 || errno != ENOTTY)
		return tp_child_fail("tcgetpgrp on a slave that is not the "
				     "ctty: %s, expected ENOTTY",
				     strerror(errno));
	if (tcsetpgrp(f->p.slave, getpgrp()) == 0 || errno != ENOTTY)
		return tp_child_fail("tcsetpgrp on a slave that is not the "
				     "ctty: %s, expected ENOTTY",
				     strerror(errno));
	if (tcgetsid(f->p.slave) >= 0 || errno != ENOTTY)
		return tp_child_fail("tcgetsid on a slave that is not the "
				     "ctty: %s, expected ENOTTY",
				     strerror(errno));
	return 0;
}

TP_CASE(pgrp_ioctls_need_the_ctty, TP_POSIX,
	"tcgetpgrp, tcsetpgrp and tcgetsid on a slave that is not the "
	"caller's controlling tty fail ENOTTY")
{
	struct fg f;
	struct tp_child c;

	tp_pty_open(&f.p, TP_COOKED);
	tp_child_start(&c, not_ctty_child, &f);
	tp_child_join(&c, TP_WAIT_MS, "session without ctty");
	tp_pty_close(&f.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcsetpgrp_moves_foreground);
	ATF_TP_ADD_TC(tp, pgrp_ioctls_need_the_ctty);
	return atf_no_error();
}
