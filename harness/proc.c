/* proc.c: bounded fork/exec with output capture (see proc.h). */
#include "proc.h"

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

/* In the child: wire descriptors, then exec.  Errors go to errfd as errno. */
static void
child_exec(const char *const argv[], const struct proc_opts *o, int capfd,
	   int errfd, pid_t parent)
{
	setpgid(0, 0);
	/* Our own process group keeps a caller's group kill from reaching
	 * us, so die with the parent instead (never leave QEMU running). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(125);
	signal(SIGPIPE, SIG_DFL);
	child_open(o && o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY,
		   0, errfd);
	if (o && o->stdout_path)
		child_open(o->stdout_path,
			   O_WRONLY | O_CREAT |
				   (o->stdout_append ? O_APPEND : O_TRUNC),
			   1, errfd);
	else if (capfd >= 0)
		dup2(capfd, 1);
	else
		child_open("/dev/null", O_WRONLY, 1, errfd);
	if (o && o->stderr_inherit)
		;
	else if (o && o->stderr_path)
		child_open(o->stderr_path, O_WRONLY | O_CREAT | O_APPEND, 2,
			   errfd);
	else if (capfd >= 0)
		dup2(capfd, 2);
	else
		dup2(1, 2);
	if (o && o->cwd && chdir(o->cwd) < 0)
		goto fail;
	if (o && o->nice)
		setpriority(PRIO_PROCESS, 0, o->nice);
	if (o && o->envp)
		execvpe(argv[0], (char *const *)argv, o->envp);
	else
		execvp(argv[0], (char *const *)argv);
fail:;
	int e = errno;
	if (write(errfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

int
proc_run(const char *const argv[], const struct proc_opts *o,
	 struct proc_result *r)
{
	int cap[2] = {-1, -1}, ep[2];
	memset(r, 0, sizeof *r);
	r->status = -1;
	if (pipe2(cap, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0) {
		snprintf(r->err, sizeof r->err, "pipe: %s", strerror(errno));
		return -1;
	}
	double t0 = proc_now();
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(r->err, sizeof r->err, "fork: %s", strerror(errno));
		close(cap[0]), close(cap[1]), close(ep[0]), close(ep[1]);
		return -1;
	}
	if (pid == 0) {
		close(cap[0]);
		close(ep[0]);
		child_exec(argv, o, cap[1], ep[1], parent);
	}
	setpgid(pid, pid);
	close(cap[1]);
	close(ep[1]);
	int e = 0;
	ssize_t n = read(ep[0], &e, sizeof e);
	close(ep[0]);
	if (n == (ssize_t)sizeof e) {
		waitpid(pid, NULL, 0);
		close(cap[0]);
		snprintf(r->err, sizeof r->err, "cannot run %s: %s", argv[0],
			 strerror(e));
		return -1;
	}
	int deadline_ms = o ? o->deadline_ms : 0;
	bool open_pipe = true;
	int st = 0;
	bool exited = false;
	for (;;) {
		int wait_ms = 200;
		if (deadline_ms > 0) {
			double left = deadline_ms / 1000.0 - (proc_now() - t0);
			if (left <= 0) {
				r->timed_out = true;
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				break;
			}
			if (left * 1000 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		if (open_pipe) {
			struct pollfd p = {.fd = cap[0], .events = POLLIN};
			int pr = poll(&p, 1, wait_ms);
			if (pr > 0) {
				char buf[4096];
				ssize_t k = read(cap[0], buf, sizeof buf);
				if (k > 0) {
					size_t room = sizeof r->out - 1 -
						      r->out_len;
					size_t c = (size_t)k < room ? (size_t)k
								     : room;
					memcpy(r->out + r->out_len, buf, c);
					r->out_len += c;
				} else if (k == 0 || errno != EINTR) {
					open_pipe = false;
				}
			}
		} else {
			struct timespec ts = {0, 20 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			exited = true;
			/* Drain what is left; grandchildren may hold the pipe,
			 * so only take what is already there. */
			char buf[4096];
			fcntl(cap[0], F_SETFL, O_NONBLOCK);
			ssize_t k;
			while (open_pipe &&
			       (k = read(cap[0], buf, sizeof buf)) > 0) {
				size_t room = sizeof r->out - 1 - r->out_len;
				size_t c = (size_t)k < room ? (size_t)k : room;
				memcpy(r->out + r->out_len, buf, c);
				r->out_len += c;
			}
			kill(-pid, SIGKILL); /* leftovers of the group */
			break;
		}
	}
	close(cap[0]);
	if (!exited)
		waitpid(pid, &st, 0);
	r->out[r->out_len] = '\0';
	r->status = decode_status(st);
	return r->status;
}

pid_t
proc_spawn(const char *const argv[], const struct proc_opts *in, char *err,
	   size_t errlen)
{
	int ep[2];
	if (pipe2(ep, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	struct proc_opts o = {0};
	if (in)
		o = *in;
	if (!o.stdout_path)
		o.stdout_path = "/dev/null";
	if (!o.stderr_path && !o.stderr_inherit)
		o.stderr_path = "/dev/null";
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(ep[0]), close(ep[1]);
		return -1;
	}
	if (pid == 0) {
		close(ep[0]);
		child_exec(argv, &o, -1, ep[1], parent);
	}
	setpgid(pid, pid);
	close(ep[1]);
	int e = 0;
	ssize_t n = read(ep[0], &e, sizeof e);
	close(ep[0]);
	if (n == (ssize_t)sizeof e) {
		waitpid(pid, NULL, 0);
		snprintf(err, errlen, "cannot run %s: %s", argv[0],
			 strerror(e));
		return -1;
	}
	return pid;
}

bool
proc_poll_exit(pid_t pid, int *status)
{
	int st;
	pid_t w = waitpid(pid, &st, WNOHANG);
	if (w == pid) {
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
	return decode_status(st);
}
