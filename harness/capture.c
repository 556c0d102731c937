/* capture.c: bounded fork/exec with captured output. */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int capture_run(char *const argv[], const char *dir, int deadline_s,
		struct rbuf *out, struct rbuf *errout, char *err, size_t errlen)
{
	int po[2], pe[2];
	if (pipe2(po, O_CLOEXEC) < 0)
		goto fail_errno;
	if (pipe2(pe, O_CLOEXEC) < 0) {
		close(po[0]);
		close(po[1]);
		goto fail_errno;
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		goto fail_errno;
	}
	if (pid == 0) {
		/* A clean environment: nothing of the caller's leaks into
		 * outputs that end up in reports. */
		const char *home = getenv("HOME");
		char homev[1024];
		snprintf(homev, sizeof homev, "HOME=%s", home ? home : "/root");
		char *envp[] = { "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
				 homev, "LC_ALL=C", "TERM=dumb", NULL };
		setpgid(0, 0);
		int devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (dir && chdir(dir) < 0) {
			dprintf(2, "chdir %s: %s\n", dir, strerror(errno));
			_exit(127);
		}
		environ = envp;
		execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(po[1]);
	close(pe[1]);
	struct pollfd pf[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	struct rbuf ebuf = {0};
	double end = now_s() + deadline_s;
	int timed_out = 0, open_fds = 2;
	while (open_fds > 0) {
		double left = end - now_s();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int r = poll(pf, 2, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			char chunk[8192];
			ssize_t n = read(pf[i].fd, chunk, sizeof chunk);
			if (n <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			struct rbuf *dst = i == 0 ? out : (errout ? errout : &ebuf);
			if (dst)
				rbuf_addn(dst, chunk, (size_t)n);
		}
	}
	for (int i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
	if (timed_out)
		kill(-pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* the group may hold stragglers that kept no pipe open */
	kill(-pid, SIGKILL);
	const char *why = errout ? rbuf_str(errout) : rbuf_str(&ebuf);
	char first[256];
	snprintf(first, sizeof first, "%.*s", (int)strcspn(why, "\n"), why);
	if (timed_out) {
		snprintf(err, errlen, "%s: no result within %d s", argv[0], deadline_s);
		rbuf_free(&ebuf);
		return -1;
	}
	if (WIFSIGNALED(st)) {
		snprintf(err, errlen, "%s: killed by signal %d", argv[0], WTERMSIG(st));
		rbuf_free(&ebuf);
		return -1;
	}
	if (WEXITSTATUS(st) == 127 && first[0]) {
		snprintf(err, errlen, "%s", first);
		rbuf_free(&ebuf);
		return -1;
	}
	if (WEXITSTATUS(st) != 0)
		snprintf(err, errlen, "%s: exit %d%s%s", argv[0], WEXITSTATUS(st),
			 first[0] ? ": " : "", first);
	rbuf_free(&ebuf);
	return WEXITSTATUS(st);
fail_errno:
	snprintf(err, errlen, "%s: %s", argv[0], strerror(errno));
	return -1;
}
