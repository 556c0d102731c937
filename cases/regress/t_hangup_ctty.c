// SPDX-License-Identifier: GPL-2.0-only
/* t_hangup_ctty.c: regressions.md #11: the 5.11 read/write conversions broke
 * hung-up tty semantics (fixed by ddc5fda74561, 17749851eb9c).
 * close/t_hangup.c checks the catalogue recipe with SIGHUP blocked; here the
 * session leader has a SIGHUP handler and is already asleep in read(ctty)
 * when the master closes: the hangup must wake it, deliver SIGHUP to the
 * handler, and leave read 0, write EIO and poll IN|OUT|ERR|HUP. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

static volatile sig_atomic_t hups;

static void
on_hup(int sig)
{
	(void)sig;
	hups++;
}

static int
leader(void *arg)
{
	struct tp_pty *p = arg;
	struct sigaction sa;
	char buf[8];
	int step = 0;

	close(p->master);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_hup;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGHUP, &sa, NULL);
	int rc = tp_child_take_ctty(p->slave);
	if (rc)
		return rc;
	/* The sleeper sees the master gone (TTY_OTHER_CLOSED: EIO) or the
	 * hangup (0), whichever n_tty_read checks first; never data. */
	ssize_t n = read(p->slave, buf, sizeof(buf));
	if (n != 0 && !(n < 0 && errno == EIO))
		return tp_child_fail("sleeping read of the ctty returned %zd "
				     "(%s), want 0 or EIO", n,
				     n < 0 ? strerror(errno) : "data");
	long long end = tp_now_ms() + TP_WAIT_MS;
	while (!hups && tp_now_ms() < end)
		tp_backoff(&step);
	if (hups != 1)
		return tp_child_fail("SIGHUP handler ran %d times, want 1",
				     (int)hups);
	n = read(p->slave, buf, sizeof(buf));
	if (n != 0)
		return tp_child_fail("read of the hung-up ctty returned %zd "
				     "(%s), want 0", n,
				     n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(p->slave, "x", 1);
	if (n != -1 || errno != EIO)
		return tp_child_fail("write after hangup: %zd (%s), want EIO",
				     n, strerror(errno));
	struct pollfd pfd = { .fd = p->slave,
			      .events = POLLIN | POLLOUT | POLLPRI };
	short want = POLLIN | POLLOUT | POLLERR | POLLHUP;
	if (poll(&pfd, 1, 0) != 1 || (pfd.revents & want) != want)
		return tp_child_fail("poll after hangup: revents 0x%x, want "
				     "IN|OUT|ERR|HUP", (unsigned)pfd.revents);
	return 0;
}

TP_CASE_COMMITS(hangup_wakes_sleeping_ctty_reader, TP_LINUX,
		"5.11 tty read/write conversions", "ddc5fda74561 17749851eb9c",
		"#11 with a sleeper: a session leader with a SIGHUP handler "
		"(SA_RESTART) sleeps in read(ctty); closing the master wakes it "
		"(EIO or 0, never data), its handler runs once, the next read "
		"returns 0, write fails EIO and poll reports IN|OUT|ERR|HUP")
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_COOKED);
	tp_child_start(&c, leader, &p);
	tp_wait_blocked_fd(c.pid, SYS_read, p.slave, "leader asleep in read");
	tp_close_master(&p);
	tp_child_join(&c, TP_WAIT_MS, "session leader after the hangup");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hangup_wakes_sleeping_ctty_reader);
	return atf_no_error();
}
