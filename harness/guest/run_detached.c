// SPDX-License-Identifier: GPL-2.0-only
/* run_detached.c: run_suite() in a forked child (run_detached.h). */
#include "run_detached.h"
#include "kutil.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void child(const struct kernel_info *ki, const struct run_opts *ro,
		  const struct detached_paths *p)
{
	struct run_outcome out;
	memset(&out, 0, sizeof out);
	setpgid(0, 0);
	/* QEMU's scratch files go here, so a run stopped with SIGKILL leaves
	 * nothing behind once the parent removes the directory. */
	if (p->tmpdir)
		setenv("TMPDIR", p->tmpdir, 1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (run_suite(ki, ro, p->results, p->console, &out) != 0 && out.end == RUN_DONE)
		out.end = RUN_ERROR;
	char tmp[PATH_MAX + 300];
	snprintf(tmp, sizeof tmp, "%.4200s.tmp", p->outcome);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, &out, sizeof out);
		close(fd);
		if (w == (ssize_t)sizeof out)
			rename(tmp, p->outcome);
	}
	_exit(0);
}

pid_t run_detached(const struct kernel_info *ki, const struct run_opts *ro,
		   const struct detached_paths *p)
{
	unlink(p->outcome);
	int fd = open(p->results, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0)
		child(ki, ro, p);
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

bool run_detached_outcome(const char *outcome, struct run_outcome *out)
{
	memset(out, 0, sizeof *out);
	int fd = open(outcome, O_RDONLY | O_CLOEXEC);
	bool have = fd >= 0 && read(fd, out, sizeof *out) == (ssize_t)sizeof *out;
	if (fd >= 0)
		close(fd);
	return have;
}

void run_detached_kill(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
	char *kids = ku_read_file(path, NULL);
	if (kids) {
		char *save = NULL;
		for (char *t = strtok_r(kids, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
			pid_t k = (pid_t)atoi(t);
			if (k > 1) {
				run_detached_kill(k);
				kill(-k, SIGKILL);
				kill(k, SIGKILL);
			}
		}
		free(kids);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}
