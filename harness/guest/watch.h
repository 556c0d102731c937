/* SPDX-License-Identifier: GPL-2.0-only */
/* watch.h: the watch loop shared by run_host.c and run_qemu.c. */
#ifndef TTYPOT_WATCH_H
#define TTYPOT_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "guest.h"
#include "hostside.h"
#include "proc.h"

/* Watch a started runner (host script or QEMU) until it exits, the deadline
 * passes, or it is done: the results file for the begin/end lines, the
 * console for a kernel panic (and an Oops followed by silence, when
 * oops_silence_s).  Kills what is left; fills out. */
struct watch {
	pid_t pid;
	double t0;              /* when the runner started */
	int deadline_s;
	int boot_deadline_s;    /* no begin line by then: stopped; 0 none */
	int oops_silence_s;     /* an Oops, then no output this long: stopped
				   as dead (a panic); 0 never (run_opts) */
	int banner_s;           /* no kernel banner by then: stopped as
				   stalled; 0 never (run_opts) */
	int case_silence_s;     /* begun, then no case result this long:
				   stopped as hung; 0 never (run_opts) */
	int after_last_case_s;  /* every case reported, then no end line
				   this long: stopped (run_opts) */
	double ref_boot_s;      /* deadline_s and case_silence_s stretch by
				   the boot's time over this; 0 never
				   (run_opts) */
	const char *results;    /* results file, read from offset onwards */
	long long offset;
	const char *console;    /* scanned for panics when scan_panic */
	bool scan_panic;
	const char *who;        /* for progress lines */
	struct hostside *hs;    /* answers the guest's requests, or NULL */
};
void watch_run(struct watch *w, struct run_outcome *out);

/* Spawn argv (po: where its output goes), then watch it as above, with the
 * run's deadline (o->deadline_s, default an hour), the results file from
 * its current end, the console scanned for panics when scan_panic, the
 * guest's requests answered by hs (NULL: none) while it runs.
 * 0, or -1 when it could not start (out->err says why). */
int watch_spawn(const char *const argv[], const struct proc_opts *po,
		const struct run_opts *o, const char *results_path,
		const char *who, bool scan_panic, struct hostside *hs,
		struct run_outcome *out);

/* Split a filter string (spaces or commas) into argv words; returns the
 * count (at most max), words point into buf. */
int split_words(const char *s, char *buf, size_t buflen, const char **words,
		int max);

#endif
