// SPDX-License-Identifier: GPL-2.0-only
/* proc.c: the one runner of external commands (see proc.h). */
#include "proc.h"
#include "rbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Process groups started here and not yet reaped, so a process that is
 * told to stop (a resolver child on SIGTERM) can take its builds and
 * downloads with it: they run in groups of their own, out of reach of a
 * signal to ours. */
#define LIVE_MAX 32
static volatile pid_t live[LIVE_MAX];

static void
live_add(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == 0) {
			live[i] = pid;
			return;
		}
}

static void
live_del(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == pid)
			live[i] = 0;
}

void
proc_kill_live_groups(void)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
}

double
proc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

static void
child_open(const char *path, int flags, int target, int errfd)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);
	if (fd < 0 || dup2(fd, target) < 0) {
		int e = errno;
		if (write(errfd, &e, sizeof e) < 0)
			_exit(126);
		_exit(126);
	}
	close(fd);
}

/* In the child: wire descriptors, then exec.  outfd/errfd are capture pipes
 * (-1: none; errfd -1 with outfd set: stderr joins stdout).  Errors go to
 * statusfd as errno. */
static void
child_exec(const char *const argv[], const struct proc_opts *o, int outfd,
	   int errfd, int statusfd, pid_t parent)
{
	setpgid(0, 0);
	/* Our own process group keeps a caller's group kill from reaching
	 * us, so die with the parent instead (never leave QEMU running). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(125);
	signal(SIGPIPE, SIG_DFL);
	child_open(o && o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY,
		   0, statusfd);
	if (o && o->stdout_path)
		child_open(o->stdout_path,
			   O_WRONLY | O_CREAT |
				   (o->stdout_append ? O_APPEND : O_TRUNC),
			   1, statusfd);
	else if (outfd >= 0)
		dup2(outfd, 1);
	else
		child_open("/dev/null", O_WRONLY, 1, statusfd);
	if (o && o->stderr_inherit)
		;
	else if (o && o->stderr_path)
		child_open(o->stderr_path, O_WRONLY | O_CREAT | O_APPEND, 2,
			   statusfd);
	else if (errfd >= 0)
		dup2(errfd, 2);
	else if (outfd >= 0)
		dup2(outfd, 2);
	else
		dup2(1, 2);
	if (o && o->cwd && chdir(o->cwd) < 0)
		goto fail;
	if (o && o->nice)
		setpriority(PRIO_PROCESS, 0, o->nice);
	if (o && o->envp) {
		/* PATH lookup with the new environment's PATH. */
		environ = (char **)o->envp;
		execvp(argv[0], (char *const *)argv);
	} else {
		execvp(argv[0], (char *const *)argv);
	}
fail:;
	int e = errno;
	if (write(statusfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* Fork and exec; the pid once exec succeeded, else -1 with err filled. */
static pid_t
start(const char *const argv[], const struct proc_opts *o, int outfd,
      int errfd, char *err, size_t errlen)
{
	int sp[2];
	if (pipe2(sp, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(sp[0]), close(sp[1]);
		return -1;
	}
	if (pid == 0) {
		close(sp[0]);
		child_exec(argv, o, outfd, errfd, sp[1], parent);
	}
	setpgid(pid, pid);
	live_add(pid);
	close(sp[1]);
	int e = 0;
	ssize_t n = read(sp[0], &e, sizeof e);
	close(sp[0]);
	if (n == (ssize_t)sizeof e) {
		waitpid(pid, NULL, 0);
		live_del(pid);
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
		return -1;
	}
	return pid;
}

/* Append what a pipe has to b (NULL: discard).  1 read something, 0 end
 * of file or error, -1 nothing there now. */
static int
pump(int fd, struct rbuf *b)
{
	char buf[8192];
	ssize_t k = read(fd, buf, sizeof buf);
	if (k > 0) {
		if (b)
			rbuf_addn(b, buf, (size_t)k);
		return 1;
	}
	return k < 0 && (errno == EINTR || errno == EAGAIN) ? -1 : 0;
}

/* The one runner: start argv, copy its stdout/stderr pipes into out/errb,
 * until it exits or the deadline passes (then its group is killed).
 * Returns the status as proc_result.status. */
static int
run(const char *const argv[], const struct proc_opts *o, struct rbuf *out,
    struct rbuf *errb, bool split, bool *timed_out, char *err, size_t errlen)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1};
	*timed_out = false;
	if (pipe2(po, O_CLOEXEC) < 0 || (split && pipe2(pe, O_CLOEXEC) < 0)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		if (po[0] >= 0)
			close(po[0]), close(po[1]);
		return -1;
	}
	double t0 = proc_now();
	pid_t pid = start(argv, o, po[1], pe[1], err, errlen);
	close(po[1]);
	if (pe[1] >= 0)
		close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		if (pe[0] >= 0)
			close(pe[0]);
		return -1;
	}
	struct pollfd pf[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	struct rbuf *dst[2] = {out, errb};
	int deadline_ms = o ? o->deadline_ms : 0;
	int st = 0;
	bool exited = false;
	for (;;) {
		int wait_ms = 200;
		if (deadline_ms > 0) {
			double left = deadline_ms / 1000.0 - (proc_now() - t0);
			if (left <= 0) {
				*timed_out = true;
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				break;
			}
			if (left * 1000 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		if (pf[0].fd >= 0 || pf[1].fd >= 0) {
			if (poll(pf, 2, wait_ms) > 0)
				for (int i = 0; i < 2; i++)
					if (pf[i].fd >= 0 && pf[i].revents &&
					    pump(pf[i].fd, dst[i]) == 0) {
						close(pf[i].fd);
						pf[i].fd = -1;
					}
		} else {
			struct timespec ts = {0, 20 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (waitpid(pid, &st, WNOHANG) == pid) {
			exited = true;
			/* Drain what is left; grandchildren may hold the
			 * pipes, so only take what is already there. */
			for (int i = 0; i < 2; i++)
				if (pf[i].fd >= 0) {
					fcntl(pf[i].fd, F_SETFL, O_NONBLOCK);
					while (pump(pf[i].fd, dst[i]) > 0)
						;
				}
			kill(-pid, SIGKILL); /* leftovers of the group */
			break;
		}
	}
	for (int i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
	if (!exited)
		waitpid(pid, &st, 0);
	live_del(pid);
	return decode_status(st);
}

int
proc_run(const char *const argv[], const struct proc_opts *o,
	 struct proc_result *r)
{
	memset(r, 0, sizeof *r);
	struct rbuf out = {0};
	r->status = run(argv, o, &out, NULL, false, &r->timed_out, r->err,
			sizeof r->err);
	r->out_len = out.len < sizeof r->out - 1 ? out.len : sizeof r->out - 1;
	memcpy(r->out, rbuf_str(&out), r->out_len);
	r->out[r->out_len] = '\0';
	rbuf_free(&out);
	return r->status;
}

int
proc_check(const char *const argv[], const struct proc_opts *o, char *err,
	   size_t errlen)
{
	struct proc_result *r = malloc(sizeof *r);
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", argv[0]);
		return -1;
	}
	int st = proc_run(argv, o, r);
	if (st != 0) {
		snprintf(err, errlen, "%s exit %d: %.300s", argv[0], st,
			 r->err[0] ? r->err : r->out);
		for (char *p = err; *p; p++)
			if (*p == '\n')
				*p = ' ';
	}
	free(r);
	return st == 0 ? 0 : -1;
}

int
capture_run(char *const argv[], const char *dir, int deadline_s,
	    struct rbuf *out, struct rbuf *errout, char *err, size_t errlen)
{
	/* A clean environment: nothing of the caller's leaks into outputs
	 * that end up in reports.  The caches are passed on: under make check
	 * (harness/run-check.sh) they are the user's, whatever HOME Kyua gives
	 * a case, so that no test downloads or builds a kernel again. */
	const char *home = getenv("HOME");
	char homev[1024], cachev[1024], ccachev[1024];
	snprintf(homev, sizeof homev, "HOME=%s", home ? home : "/root");
	char *envp[8] = {"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
			 homev, "LC_ALL=C", "TERM=dumb", NULL};
	size_t ne = 4;
	const char *c = getenv("TTYPOT_CACHE"), *cc = getenv("CCACHE_DIR");
	if (c && *c && snprintf(cachev, sizeof cachev, "TTYPOT_CACHE=%s", c) < (int)sizeof cachev)
		envp[ne++] = cachev;
	if (cc && *cc &&
	    snprintf(ccachev, sizeof ccachev, "CCACHE_DIR=%s", cc) < (int)sizeof ccachev)
		envp[ne++] = ccachev;
	envp[ne] = NULL;
	struct proc_opts o = {.cwd = dir, .envp = envp,
			      .deadline_ms = deadline_s * 1000};
	struct rbuf ebuf = {0};
	struct rbuf *eb = errout ? errout : &ebuf;
	bool timed_out;
	int st = run((const char *const *)argv, &o, out, eb, true, &timed_out,
		     err, errlen);
	const char *why = rbuf_str(eb);
	char first[256];
	snprintf(first, sizeof first, "%.*s", (int)strcspn(why, "\n"), why);
	rbuf_free(&ebuf);
	if (timed_out) {
		snprintf(err, errlen, "%s: no result within %d s", argv[0],
			 deadline_s);
		return -1;
	}
	if (st < 0)
		return -1; /* could not start: err says why */
	if (st > 128) {
		snprintf(err, errlen, "%s: killed by signal %d", argv[0],
			 st - 128);
		return -1;
	}
	if (st != 0)
		snprintf(err, errlen, "%s: exit %d%s%s", argv[0], st,
			 first[0] ? ": " : "", first);
	return st;
}

pid_t
proc_spawn(const char *const argv[], const struct proc_opts *in, char *err,
	   size_t errlen)
{
	struct proc_opts o = {0};
	if (in)
		o = *in;
	if (!o.stdout_path)
		o.stdout_path = "/dev/null";
	if (!o.stderr_path && !o.stderr_inherit)
		o.stderr_path = "/dev/null";
	return start(argv, &o, -1, -1, err, errlen);
}

bool
proc_poll_exit(pid_t pid, int *status)
{
	int st;
	pid_t w = waitpid(pid, &st, WNOHANG);
	if (w == pid) {
		live_del(pid);
		if (status)
			*status = decode_status(st);
		return true;
	}
	return false;
}

int
proc_kill(pid_t pid, int grace_ms)
{
	int st = 0;
	kill(-pid, SIGTERM);
	double t0 = proc_now();
	while ((proc_now() - t0) * 1000 < grace_ms) {
		if (proc_poll_exit(pid, &st)) {
			kill(-pid, SIGKILL);
			return st;
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	live_del(pid);
	return decode_status(st);
}

const char *proc_first_line(const char *text, char *buf, size_t len)
{
	const char *p = text;
	while (*p == '\n' || *p == ' ')
		p++;
	size_t n = strcspn(p, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return *buf ? buf : "(no output)";
}
