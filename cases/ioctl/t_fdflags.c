// SPDX-License-Identifier: GPL-2.0-only
/* t_fdflags.c: the file-level ioctls of ioctls.h on a tty descriptor,
 * which do_vfs_ioctl() answers before the tty layer sees them: FIOCLEX and
 * FIONCLEX set and clear the descriptor's close-on-exec flag (that
 * descriptor only: a dup keeps its own), FIOQSIZE has no size to report
 * for a character device (ENOTTY). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttypot.h"

static int
cloexec(int fd)
{
	int f = fcntl(fd, F_GETFD);
	ATF_REQUIRE_MSG(f >= 0, "F_GETFD: %s", strerror(errno));
	return f & FD_CLOEXEC;
}

TP_CASE(fioclex_and_fionclex_toggle_cloexec, TP_LINUX,
	"FIOCLEX sets FD_CLOEXEC on a pty slave descriptor and FIONCLEX "
	"clears it; a dup of the descriptor and the master keep their own flag")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	ATF_REQUIRE_MSG(ioctl(p.slave, FIONCLEX) == 0, "FIONCLEX: %s", strerror(errno));
	ATF_REQUIRE_MSG(!cloexec(p.slave), "FD_CLOEXEC still set after FIONCLEX");
	int dup_fd = dup(p.slave);
	ATF_REQUIRE(dup_fd >= 0);
	int master_was = cloexec(p.master);
	ATF_REQUIRE_MSG(ioctl(p.slave, FIOCLEX) == 0, "FIOCLEX: %s", strerror(errno));
	ATF_CHECK_MSG(cloexec(p.slave), "FD_CLOEXEC not set by FIOCLEX");
	ATF_CHECK_MSG(!cloexec(dup_fd), "the dup got FD_CLOEXEC too");
	ATF_CHECK_EQ_MSG(cloexec(p.master), master_was, "the master's FD_CLOEXEC "
			 "changed");
	ATF_REQUIRE_MSG(ioctl(p.slave, FIONCLEX) == 0, "FIONCLEX: %s", strerror(errno));
	ATF_CHECK_MSG(!cloexec(p.slave), "FD_CLOEXEC still set after FIONCLEX");
	ATF_CHECK_EQ_MSG(cloexec(p.master), master_was, "the master's FD_CLOEXEC "
			 "changed");
	close(dup_fd);
	tp_pty_close(&p);
}

/* In the child: exec a shell that says whether descriptor fd is open. */
static int
exec_probe(void *arg)
{
	int fd = *(int *)arg;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "[ -e /proc/self/fd/%d ] && exit 3; exit 4", fd);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	return tp_child_fail("exec /bin/sh: %s", strerror(errno));
}

TP_CASE(fioclex_closes_on_exec, TP_LINUX,
	"A pty descriptor marked with FIOCLEX is closed across exec; after "
	"FIONCLEX it stays open")
{
	struct tp_pty p;
	struct tp_child c;
	tp_pty_open(&p, TP_COOKED);
	ATF_REQUIRE(ioctl(p.slave, FIOCLEX) == 0);
	tp_child_start(&c, exec_probe, &p.slave);
	int st = tp_child_reap(&c, TP_WAIT_MS, "exec with FIOCLEX");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 4, "after FIOCLEX the "
		      "descriptor %s across exec (status 0x%x)",
		      WIFEXITED(st) && WEXITSTATUS(st) == 3 ? "stayed open" : "?", st);
	ATF_REQUIRE(ioctl(p.slave, FIONCLEX) == 0);
	tp_child_start(&c, exec_probe, &p.slave);
	st = tp_child_reap(&c, TP_WAIT_MS, "exec with FIONCLEX");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 3, "after FIONCLEX the "
		      "descriptor %s across exec (status 0x%x)",
		      WIFEXITED(st) && WEXITSTATUS(st) == 4 ? "was closed" : "?", st);
	tp_pty_close(&p);
}

TP_CASE(fioqsize_enotty_on_tty, TP_LINUX,
	"FIOQSIZE reports sizes of directories, files and links only: on a "
	"pty master or slave (character devices) it fails ENOTTY and leaves "
	"its argument alone")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	int fds[2] = { p.master, p.slave };
	for (int i = 0; i < 2; i++) {
		long long size = -7;
		errno = 0;
		int r = ioctl(fds[i], FIOQSIZE, &size);
		ATF_CHECK_MSG(r < 0 && errno == ENOTTY, "FIOQSIZE on the %s: %d (%s)",
			      i ? "slave" : "master", r, strerror(errno));
		ATF_CHECK_EQ_MSG(size, -7, "FIOQSIZE on the %s wrote %lld",
				 i ? "slave" : "master", size);
	}
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fioclex_and_fionclex_toggle_cloexec);
	ATF_TP_ADD_TC(tp, fioclex_closes_on_exec);
	ATF_TP_ADD_TC(tp, fioqsize_enotty_on_tty);
	return atf_no_error();
}
