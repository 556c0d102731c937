// SPDX-License-Identifier: GPL-2.0-only
/* tp_exit.c: seeing a child's exit the moment it happens, and nudging a
 * blocking read so that it cannot outlast its deadline.  The close-race
 * cases read a pty master right at the writer's exit: that is where data
 * went missing, so wakeup latency matters here. */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttypot.h"

bool
tp_has_exited(pid_t pid)
{
	siginfo_t si = {.si_pid = 0};
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 &&
	    errno != EINTR)
		atf_tc_fail("waitid(%d): %s", (int)pid, strerror(errno));
	return si.si_pid == pid;
}

void
tp_spin_until_exited(pid_t pid, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	while (!tp_has_exited(pid)) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: process %d still running after %d ms",
				    what, (int)pid, TP_WAIT_MS);
		sched_yield();
	}
}

int
tp_wait_exit_now(pid_t pid, const char *what)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	tp_waiting_for(what);
	if (pfd >= 0) {
		short rev = tp_poll1(pfd, POLLIN, TP_WAIT_MS);
		close(pfd);
		if (rev == 0)
			atf_tc_fail("%s: process %d still running after %d ms",
				    what, (int)pid, TP_WAIT_MS);
	} else {
		/* Kernels before 5.3 have no pidfd. */
		tp_spin_until_exited(pid, what);
	}
	return tp_wait_exit(pid, TP_WAIT_MS, what);
}

static void
on_nudge(int sig)
{
	(void)sig;
}

timer_t
tp_nudge_start(int period_ms)
{
	timer_t t;
	struct sigaction sa = {.sa_handler = on_nudge};
	struct sigevent ev = {.sigev_notify = SIGEV_THREAD_ID,
			      .sigev_signo = SIGUSR2};
	struct itimerspec its = {
		.it_value = {.tv_sec = period_ms / 1000,
			     .tv_nsec = (period_ms % 1000) * 1000000L},
		.it_interval = {.tv_sec = period_ms / 1000,
				.tv_nsec = (period_ms % 1000) * 1000000L},
	};

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, NULL) != 0)
		atf_tc_fail("sigaction(SIGUSR2): %s", strerror(errno));
	ev._sigev_un._tid = gettid();
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
		atf_tc_fail("timer_create: %s", strerror(errno));
	if (timer_settime(t, 0, &its, NULL) != 0)
		atf_tc_fail("timer_settime: %s", strerror(errno));
	return t;
}

void
tp_nudge_stop(timer_t t)
{
	timer_delete(t);
}
