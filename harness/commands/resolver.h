/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resolver.h: the kernels of a matrix resolved in a child process, one
 * after another, each reported as soon as it is ready, so the columns whose
 * kernels are ready run while later kernels still download or build (one
 * niced kernel build beside one guest keeps both cores busy).
 */
#ifndef TTYPOT_RESOLVER_H
#define TTYPOT_RESOLVER_H

#include <stddef.h>
#include <sys/types.h>

#include "kernel.h"

struct resolver {
	pid_t pid;   /* the child, 0 once reaped */
	int fd;      /* its reports, -1 once closed */
	size_t n;    /* kernels asked for */
	size_t got;  /* kernels reported so far (in order) */
};

/* One kernel's outcome: kernel_resolve's result, its message, the time. */
struct resolved {
	size_t index;
	int rc;
	double seconds;
	char err[1024];
	struct kernel_info ki;
};

/* Start resolving specs[0..n) into cache (NULL: the default cache).
 * 0, or -1 with err. */
int resolver_start(struct resolver *rs, const struct kspec *specs, size_t n,
		   const char *cache, char *err, size_t errlen);

/* Wait up to timeout_ms for the next kernel.  1: *out filled (kernels come
 * in spec order); 0: none yet; -1: no more will come (all reported, or the
 * resolver died: then err says so and names the first kernel it owed). */
int resolver_next(struct resolver *rs, int timeout_ms, struct resolved *out,
		  char *err, size_t errlen);

/* Stop the resolver (its builds and downloads too) and reap it. */
void resolver_stop(struct resolver *rs);

#endif
