// SPDX-License-Identifier: GPL-2.0-only
/* resolver.c: kernels resolved in a child process (see resolver.h). */
#include "resolver.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STOP_GRACE_MS 5000

/* A stopped resolver takes its make or apt-get with it. */
static void on_term(int sig)
{
	(void)sig;
	proc_kill_live_groups();
	_exit(1);
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The whole record, or how much arrived before the end of file. */
static size_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, p + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static void child(int fd, const struct kspec *specs, size_t n,
		  const char *cache)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	/* Ctrl-C is the parent's to handle: it stops us with SIGTERM. */
	signal(SIGINT, SIG_IGN);
	for (size_t i = 0; i < n; i++) {
		static struct resolved r;
		memset(&r, 0, sizeof r);
		r.index = i;
		fprintf(stderr, "[%zu/%zu] %s: resolving\n", i + 1, n, specs[i].text);
		double t0 = proc_now();
		r.rc = kernel_resolve(&specs[i], cache, &r.ki, r.err, sizeof r.err);
		r.seconds = proc_now() - t0;
		if (write_full(fd, &r, sizeof r) < 0)
			_exit(1); /* the parent is gone */
	}
	_exit(0);
}

int resolver_start(struct resolver *rs, const struct kspec *specs, size_t n,
		   const char *cache, char *err, size_t errlen)
{
	memset(rs, 0, sizeof *rs);
	rs->fd = -1;
	rs->n = n;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "resolver pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "resolver fork: %s", strerror(errno));
		close(p[0]), close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1], specs, n, cache);
	}
	close(p[1]);
	rs->pid = pid;
	rs->fd = p[0];
	return 0;
}

static void reap(struct resolver *rs, int *status)
{
	if (rs->fd >= 0)
		close(rs->fd);
	rs->fd = -1;
	if (rs->pid > 0)
		waitpid(rs->pid, status, 0);
	rs->pid = 0;
}

int resolver_next(struct resolver *rs, int timeout_ms, struct resolved *out,
		  char *err, size_t errlen)
{
	err[0] = '\0';
	if (rs->fd < 0)
		return -1;
	struct pollfd pfd = { .fd = rs->fd, .events = POLLIN };
	int pr = poll(&pfd, 1, timeout_ms);
	if (pr < 0 && errno == EINTR)
		return 0;
	if (pr <= 0)
		return 0;
	size_t got = read_full(rs->fd, out, sizeof *out);
	if (got == sizeof *out && out->index == rs->got) {
		rs->got++;
		return 1;
	}
	/* End of file: all reported, or the child died owing kernels. */
	int st = 0;
	reap(rs, &st);
	if (rs->got < rs->n) {
		if (WIFSIGNALED(st))
			snprintf(err, errlen, "the kernel resolver died (signal %d) while "
				 "resolving kernel %zu of %zu", WTERMSIG(st), rs->got + 1, rs->n);
		else
			snprintf(err, errlen, "the kernel resolver exited (%d) while "
				 "resolving kernel %zu of %zu",
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1, rs->got + 1, rs->n);
	}
	return -1;
}

void resolver_stop(struct resolver *rs)
{
	if (rs->pid > 0) {
		kill(rs->pid, SIGTERM);
		for (int waited = 0; waited < STOP_GRACE_MS; waited += 20) {
			if (waitpid(rs->pid, NULL, WNOHANG) == rs->pid) {
				rs->pid = 0;
				break;
			}
			struct timespec ts = { 0, 20 * 1000000L };
			nanosleep(&ts, NULL);
		}
		if (rs->pid > 0)
			kill(rs->pid, SIGKILL);
	}
	reap(rs, NULL);
}
