// SPDX-License-Identifier: GPL-2.0-only
/* tp_wait.c: waits on state, each with a deadline and a named subject. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ttypot.h"

int
tp_wait_fionread(int fd, int n, int timeout_ms, const char *what)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0, avail = 0;

	tp_waiting_for(what);
	for (;;) {
		if (ioctl(fd, FIONREAD, &avail) != 0)
			atf_tc_fail("%s: FIONREAD: %s", what, strerror(errno));
		if (avail >= n)
			return avail;
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: waited %d ms for FIONREAD >= %d, have %d",
				    what, timeout_ms, n, avail);
		tp_backoff(&step);
	}
}

short
tp_poll1(int fd, short events, int timeout_ms)
{
	struct pollfd pfd = {.fd = fd, .events = events};
	long long deadline = tp_now_ms() + timeout_ms;
	int r;

	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		r = poll(&pfd, 1, left < 0 ? 0 : left);
		if (r >= 0)
			return r == 0 ? 0 : pfd.revents;
		if (errno != EINTR)
			atf_tc_fail("poll(%d): %s", fd, strerror(errno));
	}
}

short
tp_wait_poll(int fd, short events, int timeout_ms, const char *what)
{
	tp_waiting_for(what);
	short rev = tp_poll1(fd, events, timeout_ms);
	if (rev == 0)
		atf_tc_fail("%s: poll events 0x%x not reported within %d ms", what,
			    (unsigned)events, timeout_ms);
	return rev;
}

void
tp_expect_quiet(int fd, const char *what)
{
	int avail = 0;
	short rev = tp_poll1(fd, POLLIN, TP_QUIET_WINDOW_MS);
	if (rev & POLLIN) {
		ioctl(fd, FIONREAD, &avail);
		atf_tc_fail("%s: expected no input within %d ms, but %d bytes "
			    "are readable",
			    what, TP_QUIET_WINDOW_MS, avail);
	}
}

int
tp_wait_exit(pid_t pid, int timeout_ms, const char *what)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0, status;

	tp_waiting_for(what);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid) {
			tp_untrack(pid);
			return status;
		}
		if (r < 0 && errno != EINTR)
			atf_tc_fail("%s: waitpid(%d): %s", what, (int)pid,
				    strerror(errno));
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: process %d still running after %d ms",
				    what, (int)pid, timeout_ms);
		tp_backoff(&step);
	}
}

void
tp_expect_not_readable(int fd, const char *what)
{
	short rev = tp_poll1(fd, POLLIN, 0);
	if (rev & POLLIN)
		atf_tc_fail("%s: fd %d is readable (revents 0x%x)", what, fd,
			    (unsigned)rev);
}

int
tp_fionread(int fd)
{
	int n = -1;
	if (ioctl(fd, FIONREAD, &n) != 0)
		atf_tc_fail("FIONREAD(%d): %s", fd, strerror(errno));
	return n;
}

void
tp_wait_path_gone(const char *path, const char *what)
{
	struct stat st;
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for(what);
	while (stat(path, &st) == 0) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: %s still exists after %d ms", what,
				    path, TP_WAIT_MS);
		tp_backoff(&step);
	}
	if (errno != ENOENT)
		atf_tc_fail("%s: stat %s: %s", what, path, strerror(errno));
}
