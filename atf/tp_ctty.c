// SPDX-License-Identifier: GPL-2.0-only
/* tp_ctty.c: children that own a controlling tty, and the pipes and bounded
 * waits a case uses to step them.  Everything named tp_child_* runs in a
 * forked child and reports through tp_child_fail(); never an ATF call. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

int
tp_child_take_ctty(int fd)
{
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (ioctl(fd, TIOCSCTTY, 0) != 0)
		return tp_child_fail("TIOCSCTTY: %s", strerror(errno));
	return 0;
}

void
tp_sync_open(struct tp_sync *s)
{
	s->child = NULL;
	if (pipe2(s->to_child, O_CLOEXEC) != 0 ||
	    pipe2(s->to_parent, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
}

void
tp_sync_close(struct tp_sync *s)
{
	for (int i = 0; i < 2; i++) {
		if (s->to_child[i] >= 0)
			close(s->to_child[i]);
		if (s->to_parent[i] >= 0)
			close(s->to_parent[i]);
		s->to_child[i] = s->to_parent[i] = -1;
	}
}

/* Read one byte within timeout_ms: the byte, -1 on timeout, -2 on EOF/error. */
static int
read_byte(int fd, int timeout_ms)
{
	long long deadline = tp_now_ms() + timeout_ms;
	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, left < 0 ? 0 : left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -1 : -2;
		unsigned char c;
		ssize_t n = read(fd, &c, 1);
		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR)
			continue;
		return -2;
	}
}

static int
write_byte(int fd, char c)
{
	ssize_t n;
	do
		n = write(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

int
tp_child_post(struct tp_sync *s, char c)
{
	if (write_byte(s->to_parent[1], c) != 0)
		return tp_child_fail("cannot post '%c' to the case: %s", c,
				     strerror(errno));
	return 0;
}

int
tp_child_await(struct tp_sync *s, char c, const char *what)
{
	int got = read_byte(s->to_child[0], TP_WAIT_MS);
	if (got == c)
		return 0;
	if (got == -1)
		return tp_child_fail("%s: no '%c' from the case in %d ms", what,
				     c, TP_WAIT_MS);
	if (got == -2)
		return tp_child_fail("%s: case closed the pipe before '%c'",
				     what, c);
	return tp_child_fail("%s: expected '%c' from the case, got '%c'", what,
			     c, got);
}

void
tp_sync_post(struct tp_sync *s, char c, const char *what)
{
	if (write_byte(s->to_child[1], c) != 0)
		atf_tc_fail("%s: cannot post '%c' to the child: %s", what, c,
			    strerror(errno));
}

void
tp_sync_await(struct tp_sync *s, char c, const char *what)
{
	tp_waiting_for(what);
	int got = read_byte(s->to_parent[0], TP_WAIT_MS);
	if (got == c)
		return;
	if (got == -1)
		atf_tc_fail("%s: no '%c' from the child in %d ms", what, c,
			    TP_WAIT_MS);
	if (got == -2) {
		/* A child that hung up failed: its own report says why. */
		if (s->child != NULL)
			tp_child_join(s->child, TP_WAIT_MS, what);
		atf_tc_fail("%s: child closed the pipe before '%c'", what, c);
	}
	atf_tc_fail("%s: expected '%c' from the child, got '%c'", what, c, got);
}

int
tp_child_await_siginfo(int sig, int timeout_ms, siginfo_t *si, const char *what)
{
	sigset_t set;
	struct timespec ts = {.tv_sec = timeout_ms / 1000,
			      .tv_nsec = (long)(timeout_ms % 1000) * 1000000};
	sigemptyset(&set);
	sigaddset(&set, sig);
	for (;;) {
		int r = sigtimedwait(&set, si, &ts);
		if (r == sig)
			return 0;
		if (r < 0 && errno == EINTR)
			continue; /* ts is not updated: the bound only grows
				     by the interruptions, which are rare */
		if (r < 0 && errno == EAGAIN)
			return tp_child_fail("%s: signal %d (%s) not received "
					     "within %d ms",
					     what, sig, strsignal(sig),
					     timeout_ms);
		return tp_child_fail("%s: sigtimedwait: %s", what,
				     strerror(errno));
	}
}

int
tp_child_await_signal(int sig, int timeout_ms, const char *what)
{
	return tp_child_await_siginfo(sig, timeout_ms, NULL, what);
}

int
tp_child_wait_exit(pid_t pid, int timeout_ms, int *status, const char *what)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return tp_child_fail("%s: waitpid(%d): %s", what,
					     (int)pid, strerror(errno));
		if (tp_now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return tp_child_fail("%s: process %d still running "
					     "after %d ms",
					     what, (int)pid, timeout_ms);
		}
		tp_backoff(&step);
	}
}

pid_t
tp_child_fork(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* Dies with its parent, and never outlives the case. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		signal(SIGALRM, SIG_DFL);
		alarm(TP_CASE_TIMEOUT_S + 5);
	}
	return pid;
}

void
tp_sync_parent_side(struct tp_sync *s, struct tp_child *c)
{
	s->child = c;
	/* Without this, a dead child would look like a slow one. */
	close(s->to_child[0]);
	close(s->to_parent[1]);
	s->to_child[0] = s->to_parent[1] = -1;
}

void
tp_child_sync_side(struct tp_sync *s)
{
	close(s->to_child[1]);
	close(s->to_parent[0]);
	s->to_child[1] = s->to_parent[0] = -1;
}

/* /proc/PID/syscall of a task that is not running: "NR ARG0 ARG1 ...".
 * Returns the syscall number (-1 for "running" or an unreadable line), or
 * -2 when the file cannot be opened (errno kept in *open_err); *arg0 gets
 * the first argument (or ~0). */
static long
proc_syscall(pid_t pid, bool *running, unsigned long *arg0, int *open_err,
	     char *line, size_t linelen)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	FILE *f = fopen(path, "r");
	*running = false;
	*arg0 = ~0UL;
	line[0] = '\0';
	*open_err = 0;
	if (f == NULL) {
		*open_err = errno;
		return -2;
	}
	long nr = -1;
	if (fgets(line, (int)linelen, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "running", 7) == 0)
			*running = true;
		else if (sscanf(line, "%ld %lx", &nr, arg0) < 1)
			nr = -1;
	}
	fclose(f);
	return nr;
}

/* State letter of /proc/PID/stat, or 0 when the process is gone. */
static char
proc_state(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: the state is
	 * after the last ')'. */
	char *p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' ? p[2] : 0;
}

/* Wait until pid sleeps (state S) in syscall nr or alt_nr, with first
 * argument fd when fd >= 0.  Without /proc/PID/syscall: a sleeping state is
 * enough when exact is false; when exact, the case is skipped (ENOENT: the
 * kernel has no such file) or fails (any other error opening it). */
static void
wait_blocked(pid_t pid, long nr, long alt_nr, int fd, bool exact,
	     const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	bool running;
	unsigned long a0;
	int open_err;
	char line[256];

	tp_waiting_for(what);
	for (;;) {
		long cur = proc_syscall(pid, &running, &a0, &open_err, line,
					sizeof(line));
		char st = proc_state(pid);
		if (st == 0 || st == 'Z')
			atf_tc_fail("%s: process %d exited instead of blocking",
				    what, (int)pid);
		if (cur == -2 && exact && open_err == ENOENT)
			atf_tc_skip("needs /proc/PID/syscall "
				    "(CONFIG_HAVE_ARCH_TRACEHOOK): %s",
				    strerror(open_err));
		if (cur == -2 && exact)
			atf_tc_fail("%s: open /proc/%d/syscall: %s", what,
				    (int)pid, strerror(open_err));
		bool in_call = (cur == nr || cur == alt_nr) &&
			       (fd < 0 || a0 == (unsigned long)fd);
		/* Without /proc/PID/syscall a sleeping state is all we see. */
		if (st == 'S' && (in_call || cur == -2))
			return;
		if (tp_now_ms() > deadline) {
			char call[32] = "";
			if (fd >= 0)
				snprintf(call, sizeof(call), " on fd %d", fd);
			atf_tc_fail("%s: process %d not asleep in syscall %ld%s "
				    "after %d ms (state %c, syscall %ld%s; "
				    "/proc syscall says: %s)",
				    what, (int)pid, nr, call, TP_WAIT_MS, st,
				    cur, running ? ", running" : "", line);
		}
		tp_backoff(&step);
	}
}

void
tp_wait_blocked(pid_t pid, long nr, const char *what)
{
	wait_blocked(pid, nr, nr, -1, false, what);
}

void
tp_wait_blocked_fd(pid_t pid, long nr, int fd, const char *what)
{
	wait_blocked(pid, nr, nr, fd, true, what);
}

void
tp_wait_blocked_poll(pid_t pid, const char *what)
{
#ifdef SYS_poll
	wait_blocked(pid, SYS_poll, SYS_ppoll, -1, true, what);
#else
	/* arm64 (and other new ports) have ppoll only: libc's poll uses it. */
	wait_blocked(pid, SYS_ppoll, SYS_ppoll, -1, true, what);
#endif
}
