// SPDX-License-Identifier: GPL-2.0-only
/* mjobs.c: mutants decided in child processes, side by side (mjobs.h). */
#include "mjobs.h"
#include "kutil.h"
#include "rbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void mjobs_init(struct mjobs *j, int max)
{
	*j = (struct mjobs){ .max = max > 0 ? max : 1 };
	j->v = xrealloc(NULL, (size_t)j->max * sizeof *j->v);
}

void mjobs_free(struct mjobs *j)
{
	free(j->v);
	*j = (struct mjobs){0};
}

int mjobs_start(struct mjobs *j, void (*fn)(void *ctx, struct mutant *m), void *ctx,
		struct mutant *m)
{
	int p[2];
	if (j->n >= j->max || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		fn(ctx, m);
		/* under PIPE_BUF: one write, whole or not at all */
		ssize_t w = write(p[1], m, sizeof *m);
		_exit(w == (ssize_t)sizeof *m ? 0 : 1);
	}
	close(p[1]);
	j->v[j->n++] = (struct mjob){ .pid = pid, .fd = p[0], .m = m };
	return 0;
}

/* Read job k's report (its end), reap it and drop it from the list. */
static struct mutant *finish(struct mjobs *j, int k)
{
	struct mjob job = j->v[k];
	struct mutant got;
	size_t have = 0;
	while (have < sizeof got) {
		ssize_t r = read(job.fd, (char *)&got + have, sizeof got - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
	}
	close(job.fd);
	int st;
	while (waitpid(job.pid, &st, 0) < 0 && errno == EINTR)
		;
	if (have == sizeof got)
		*job.m = got;
	else
		ku_progress("mutants: %s: its run ended without a verdict (%s %d); it stays "
			    "pending", job.m->key, WIFSIGNALED(st) ? "signal" : "exit status",
			    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	j->v[k] = j->v[--j->n];
	return job.m;
}

struct mutant *mjobs_wait(struct mjobs *j, volatile sig_atomic_t *stop)
{
	if (!j->n)
		return NULL;
	_Static_assert(sizeof(struct mutant) <= PIPE_BUF, "a report is one atomic write");
	struct pollfd pf[64];
	for (;;) {
		if (stop && *stop && !j->stopped) {
			for (int k = 0; k < j->n; k++)
				kill(j->v[k].pid, SIGTERM);
			j->stopped = 1;
		}
		int n = j->n < 64 ? j->n : 64;
		for (int k = 0; k < n; k++)
			pf[k] = (struct pollfd){ .fd = j->v[k].fd, .events = POLLIN };
		/* bounded: a signal or the stop flag is looked at twice a second */
		int r = poll(pf, (nfds_t)n, 500);
		if (r < 0 && errno != EINTR)
			return finish(j, 0);
		for (int k = 0; r > 0 && k < n; k++)
			if (pf[k].revents)
				return finish(j, k);
	}
}
