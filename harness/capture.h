/*
 * capture.h: run an external command with fork/exec (no shell), a clean
 * environment and a deadline, capturing its output.
 */
#ifndef TTYPOT_CAPTURE_H
#define TTYPOT_CAPTURE_H

#include "rbuf.h"

/* Run argv[0] (looked up in a fixed PATH) in dir (NULL: current), stdin
 * /dev/null, stdout into out, stderr into errout (either may be NULL: then
 * discarded).  The whole process group is killed at the deadline.  Returns
 * the exit status (0..255), or -1 with a message in err (could not start,
 * killed by a signal, deadline passed). */
int capture_run(char *const argv[], const char *dir, int deadline_s,
		struct rbuf *out, struct rbuf *errout, char *err, size_t errlen);

#endif
