/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mjobs.h: generated mutants decided side by side (`mutants --generate -j
 * N`).  Each runs in a child process of its own (its boot and the boot that
 * confirms it, as one mutant alone would); the child sends the decided
 * struct mutant back through a pipe and the parent records it.  A child
 * that dies without a word leaves its mutant as it was (pending: --resume
 * runs it again).
 */
#ifndef TTYPOT_MJOBS_H
#define TTYPOT_MJOBS_H

#include <signal.h>
#include <sys/types.h>

#include "mutant.h"

struct mjob {
	pid_t pid;
	int fd;            /* the child's report, read end */
	struct mutant *m;  /* where the decided mutant goes */
};

struct mjobs {
	struct mjob *v;
	int max, n;
	int stopped;       /* SIGTERM passed on to the children */
};

void mjobs_init(struct mjobs *j, int max);
void mjobs_free(struct mjobs *j);

/* Start fn(ctx, m) in a child.  0, or -1 (pipe or fork failed: errno). */
int mjobs_start(struct mjobs *j, void (*fn)(void *ctx, struct mutant *m), void *ctx,
		struct mutant *m);

/* Wait until one job ends and return its mutant, updated in place; NULL
 * when none runs.  Once *stop is set the children get SIGTERM (they stop
 * their guests and report what they have). */
struct mutant *mjobs_wait(struct mjobs *j, volatile sig_atomic_t *stop);

#endif
