/* run_int.h: internals shared by run.c, run_host.c and run_qemu.c. */
#ifndef TTYPOT_RUN_INT_H
#define TTYPOT_RUN_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "guest.h"

/* Watch a started runner (host script or QEMU) until it exits, the deadline
 * passes, or it is done: the results file for the begin/end lines, the
 * console for a kernel panic.  Kills what is left; fills out. */
struct watch {
	pid_t pid;
	double t0;              /* when the runner started */
	int deadline_s;
	const char *results;    /* results file, read from offset onwards */
	long long offset;
	const char *console;    /* scanned for panics when scan_panic */
	bool scan_panic;
	const char *who;        /* for progress lines */
};
void watch_run(struct watch *w, struct run_outcome *out);

/* Split a filter string (spaces or commas) into argv words; returns the
 * count (at most max), words point into buf. */
int split_words(const char *s, char *buf, size_t buflen, const char **words,
		int max);

int run_host(const struct kernel_info *k, const struct run_opts *o,
	     const char *results_path, struct run_outcome *out);
int run_qemu(const struct kernel_info *k, const struct run_opts *o,
	     const char *results_path, struct run_outcome *out);

#endif
