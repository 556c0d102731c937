// SPDX-License-Identifier: GPL-2.0-only
/* tp_child.c: forked children that report their outcome and are always reaped. */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttypot.h"
#include "tp_private.h"

#define TP_MAX_TRACKED 256
/* A child may outlive no case: SIGALRM kills it if the parent lost track. */
#define TP_CHILD_ALARM_S (TP_CASE_TIMEOUT_S + 5)

static pid_t tracked[TP_MAX_TRACKED];
static int ntracked;
static char child_msg[512];
pid_t tp_case_pid;

void
tp_track(pid_t pid)
{
	if (ntracked == TP_MAX_TRACKED)
		atf_tc_fail("more than %d children alive at once", TP_MAX_TRACKED);
	tracked[ntracked++] = pid;
}

void
tp_untrack(pid_t pid)
{
	for (int i = 0; i < ntracked; i++)
		if (tracked[i] == pid) {
			tracked[i] = tracked[--ntracked];
			return;
		}
}

void
tp_reap_all(void)
{
	/* atexit handlers are inherited across fork: only the case reaps. */
	if (getpid() != tp_case_pid)
		return;
	for (int i = 0; i < ntracked; i++) {
		kill(tracked[i], SIGKILL);
		/* SIGKILL cannot be caught, so this wait is bounded. */
		while (waitpid(tracked[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
	ntracked = 0;
}

int
tp_child_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(child_msg, sizeof(child_msg), fmt, ap);
	va_end(ap);
	return 1;
}

void
tp_child_start(struct tp_child *c, tp_child_fn fn, void *arg)
{
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	c->pid = fork();
	if (c->pid < 0)
		atf_tc_fail("fork: %s", strerror(errno));
	if (c->pid == 0) {
		close(pfd[0]);
		signal(SIGALRM, SIG_DFL);
		alarm(TP_CHILD_ALARM_S);
		child_msg[0] = '\0';
		int rc = fn(arg);
		char out[sizeof(child_msg) + 8];
		int len = snprintf(out, sizeof(out), "%d %s", rc,
				   child_msg[0] ? child_msg : "ok");
		if (write(pfd[1], out, (size_t)len) < 0)
			_exit(127);
		_exit(rc == 0 ? 0 : 1);
	}
	close(pfd[1]);
	c->report_fd = pfd[0];
	tp_track(c->pid);
}

int
tp_child_reap(struct tp_child *c, int timeout_ms, const char *what)
{
	int status = tp_wait_exit(c->pid, timeout_ms, what);
	if (c->report_fd >= 0)
		close(c->report_fd);
	c->report_fd = -1;
	return status;
}

int
tp_child_join(struct tp_child *c, int timeout_ms, const char *what)
{
	char buf[600];
	ssize_t n = 0;

	int status = tp_wait_exit(c->pid, timeout_ms, what);
	/* The child has exited: its end of the pipe is closed, so this read
	 * returns at once unless a grandchild inherited it. */
	if (tp_poll1(c->report_fd, POLLIN, TP_QUIET_WINDOW_MS) & (POLLIN | POLLHUP))
		n = read(c->report_fd, buf, sizeof(buf) - 1);
	close(c->report_fd);
	c->report_fd = -1;
	buf[n > 0 ? n : 0] = '\0';
	if (WIFSIGNALED(status))
		atf_tc_fail("%s: child killed by signal %d (%s)", what,
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (n <= 0)
		atf_tc_fail("%s: child exited %d without reporting", what,
			    WEXITSTATUS(status));
	if (buf[0] != '0') {
		const char *why = strchr(buf, ' ');
		atf_tc_fail("%s: child failed: %s", what, why ? why + 1 : buf);
	}
	return status;
}

int
tp_child_drop_to_nobody(void)
{
	if (setgroups(0, NULL) != 0 ||
	    setresgid(TP_NOBODY_UID, TP_NOBODY_UID, TP_NOBODY_UID) != 0 ||
	    setresuid(TP_NOBODY_UID, TP_NOBODY_UID, TP_NOBODY_UID) != 0)
		return tp_child_fail("dropping to uid %d: %s", TP_NOBODY_UID,
				     strerror(errno));
	return 0;
}

/* Only there to interrupt. */
static void
do_nothing(int sig)
{
	(void)sig;
}

int
tp_child_interruptible(int sig)
{
	struct sigaction sa = { .sa_handler = do_nothing }; /* no SA_RESTART */
	if (sigaction(sig, &sa, NULL) != 0)
		return tp_child_fail("sigaction %d: %s", sig, strerror(errno));
	return 0;
}
