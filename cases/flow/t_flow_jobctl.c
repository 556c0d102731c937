// SPDX-License-Identifier: GPL-2.0-only
/* t_flow_jobctl.c: tcflow and tcflush are job-control checked
 * (tty_ioctl.c n_tty_ioctl_helper -> tty_check_change): a background
 * process group calling them on its controlling tty is sent SIGTTOU and the
 * call has no effect; with SIGTTOU ignored the call acts.
 *
 * Process tree: the case forks a session leader L that takes the slave as
 * controlling tty (foreground group); L forks B into a new group of the same
 * session (background, not orphaned).  B runs the call and writes a message
 * (empty = as expected) to a pipe that L relays. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct bg {
	struct tp_pty p;
	bool ignore;             /* B ignores SIGTTOU, else catches it */
	int (*call)(int fd);     /* B's call on the slave */
	const char *name;
};

static volatile sig_atomic_t caught;

static void
on_ttou(int sig)
{
	caught = sig;
}

static int
call_tcooff(int fd)
{
	return tcflow(fd, TCOOFF);
}

static int
call_tciflush(int fd)
{
	return tcflush(fd, TCIFLUSH);
}

/* B: returns a message, "" when the call went as expected. */
static const char *
background(struct bg *b, char *msg, size_t len)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	/* No SA_RESTART: the interrupted call returns EINTR instead of
	 * restarting into another SIGTTOU. */
	sa.sa_handler = b->ignore ? SIG_IGN : on_ttou;
	sigaction(SIGTTOU, &sa, NULL);
	if (setpgid(0, 0) != 0)
		return "setpgid in B failed";
	errno = 0;
	int r = b->call(b->p.slave);
	if (b->ignore && (r != 0 || caught))
		snprintf(msg, len, "%s with SIGTTOU ignored: %d (%s), caught "
			 "%d; want success", b->name, r, strerror(errno),
			 (int)caught);
	else if (!b->ignore && !(r < 0 && errno == EINTR && caught == SIGTTOU))
		snprintf(msg, len, "background %s: %d (%s), caught %d; want "
			 "EINTR by SIGTTOU", b->name, r, strerror(errno),
			 (int)caught);
	else
		msg[0] = '\0';
	return msg;
}

static int
leader(void *arg)
{
	struct bg *b = arg;
	char msg[256] = "B reported nothing";
	int pfd[2], st;

	close(b->p.master);
	int rc = tp_child_take_ctty(b->p.slave);
	if (rc)
		return rc;
	if (pipe(pfd) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t pid = tp_child_fork();
	if (pid < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		char m[256];
		const char *out = background(b, m, sizeof(m));
		ssize_t w = write(pfd[1], out, strlen(out) + 1);
		_exit(w > 0 ? 0 : 1);
	}
	close(pfd[1]);
	if ((rc = tp_child_wait_exit(pid, TP_WAIT_MS, &st, "B")))
		return rc;
	ssize_t n = read(pfd[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	if (n <= 0 || msg[0])
		return tp_child_fail("%s", n <= 0 ? "B reported nothing" : msg);
	return 0;
}

static void
run_bg(struct bg *b, const char *what)
{
	struct tp_child c;

	tp_child_start(&c, leader, b);
	tp_child_join(&c, TP_WAIT_MS, what);
}

TP_CASE(bg_tcflow_gets_sigttou, TP_POSIX,
	"tcflow(TCOOFF) on the ctty from a background process group is sent "
	"SIGTTOU (the call fails EINTR) and output is not suspended")
{
	struct bg b = { .ignore = false, .call = call_tcooff,
			.name = "tcflow(TCOOFF)" };

	tp_pty_open(&b.p, TP_RAW);
	run_bg(&b, "background tcflow");
	ATF_CHECK_MSG(tp_can_write(b.p.slave), "output suspended by a "
		      "background tcflow that got SIGTTOU");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcflow_sigttou_ignored_applies, TP_POSIX,
	"With SIGTTOU ignored, tcflow(TCOOFF) from a background process group "
	"succeeds and suspends the output")
{
	struct bg b = { .ignore = true, .call = call_tcooff,
			.name = "tcflow(TCOOFF)" };

	tp_pty_open(&b.p, TP_RAW);
	run_bg(&b, "background tcflow, SIGTTOU ignored");
	ATF_CHECK_MSG(!tp_can_write(b.p.slave), "output not suspended");
	tp_tcflow(b.p.slave, TCOON, "TCOON");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcflush_gets_sigttou, TP_POSIX,
	"tcflush(TCIFLUSH) on the ctty from a background process group is "
	"sent SIGTTOU (EINTR) and the pending input stays")
{
	struct bg b = { .ignore = false, .call = call_tciflush,
			.name = "tcflush(TCIFLUSH)" };

	tp_pty_open(&b.p, TP_RAW);
	tp_write_str(b.p.master, "keep", "pending input");
	tp_wait_fionread(b.p.slave, 4, TP_WAIT_MS, "input queued");
	run_bg(&b, "background tcflush");
	ATF_CHECK_EQ_MSG(tp_fionread(b.p.slave), 4, "input flushed by a "
			 "background tcflush that got SIGTTOU");
	tp_pty_close(&b.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, bg_tcflow_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_tcflow_sigttou_ignored_applies);
	ATF_TP_ADD_TC(tp, bg_tcflush_gets_sigttou);
	return atf_no_error();
}
