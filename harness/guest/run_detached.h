/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_detached.h: run_suite() in a forked child, so that the caller can
 * watch the results file grow, show progress, and stop the run (deadline,
 * Ctrl-C, a first kill) without waiting for QEMU.  The child leaves its
 * run_outcome in a file; the caller collects it after the child exits.
 */
#ifndef TTYPOT_RUN_DETACHED_H
#define TTYPOT_RUN_DETACHED_H

#include <stdbool.h>
#include <sys/types.h>

#include "guest.h"

struct detached_paths {
	const char *results;  /* truncated here, then appended by the run */
	const char *console;
	const char *outcome;  /* the child's run_outcome */
	const char *tmpdir;   /* TMPDIR for the child (QEMU's scratch), or NULL */
};

/* Fork the runner in its own process group.  The pid, or -1 (errno). */
pid_t run_detached(const struct kernel_info *ki, const struct run_opts *ro,
		   const struct detached_paths *p);
/* The outcome the child left; false when it left none. */
bool run_detached_outcome(const char *outcome, struct run_outcome *out);
/* SIGKILL the runner and everything under it (QEMU runs in a process
 * group of its own, so a group kill of the runner would miss it). */
void run_detached_kill(pid_t pid);

#endif
