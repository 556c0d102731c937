/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h: one kernel's progress on stderr, read from its results file
 * as it grows: "[2/5] deb-6.1: booting", "... boot 3.1 s",
 * "... 57/120 cases, 2 failed".  Lines are printed when the state changes,
 * case counts at most every PROGRESS_EVERY_S seconds.
 */
#ifndef TTYPOT_PROGRESS_H
#define TTYPOT_PROGRESS_H

#include <stdio.h>
#include <sys/types.h>

#include "result.h"

#define PROGRESS_EVERY_S 2.0

struct progress {
	int idx, total;
	char label[128];
	char path[4096];
	off_t off;
	struct column *scratch; /* what was read so far */
	long expected;
	double t_start, t_begin, last_print;
	long last_done;
	FILE *out;
};

double progress_now(void); /* monotonic seconds */
void progress_start(struct progress *p, int idx, int total, const char *label,
		    const char *results_path, long expected, FILE *out);
/* Read what was appended since the last call; print when something changed. */
void progress_poll(struct progress *p);
/* The final line for this kernel; frees the scratch column. */
void progress_finish(struct progress *p, const struct column *c);
/* The line text (for tests): "[i/n] LABEL: ..." */
void progress_text(const struct progress *p, char *out, size_t outlen);

#endif
