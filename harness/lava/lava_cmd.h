/* SPDX-License-Identifier: GPL-2.0-only */
/* lava_cmd.h: what the parts of `ttypot lava` share (cmd_lava.c parses the
 * options; lava_submit.c and lava_collect.c do the work). */
#ifndef TTYPOT_LAVA_CMD_H
#define TTYPOT_LAVA_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Options of submit and collect (one struct; each has its own table). */
struct lava_opts {
	const char *server, *token_file, *device_type, *cases, *outdir, *cache, *suite;
	const char *image_url_base, *kernel_url, *expect, *baseline, *tag;
	bool dry_run, wait;
	int deadline_s, job_minutes;
};

/* SIGINT/SIGTERM set lava_interrupted: waits stop, what was collected is
 * rendered. */
extern volatile sig_atomic_t lava_interrupted;
void lava_catch_signals(void);

/* Exit status as for matrix: 0 no regression, 1 regressions, 2 errors. */
int lava_cmd_collect(const struct lava_opts *o, const char *argv0, const long *ids, size_t n);
int lava_cmd_submit(const struct lava_opts *o, const char *argv0, char **specs, int nspecs);

#endif
