/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e2e.h: what the end-to-end harness tests share (t_guest_e2e,
 * t_guest_arch): run `ttypot matrix` with a deadline, keep its output in a
 * log, and check every cell of the matrix.csv it wrote.
 */
#ifndef TTYPOT_TESTS_E2E_H
#define TTYPOT_TESTS_E2E_H

#include <stddef.h>
#include <stdio.h>

struct e2e_want {
	const char *id;     /* program:case */
	const char *status; /* the cell matrix.csv must hold */
};

/* Run argv (a ttypot matrix command line) within deadline_s, its output
 * into log.  Returns its exit code; fails the case, naming what, when it
 * cannot start or overruns the deadline (its process group is killed). */
int e2e_run(char *const argv[], int deadline_s, const char *log,
	    const char *what);

/* Run argv within deadline_s, its output and its exit code and seconds
 * appended to log and written to stderr (Kyua's report keeps it); returns
 * the exit code, fails the case (naming what) when it cannot run or
 * overruns. */
int e2e_run_logged(char *const argv[], int deadline_s, const char *log,
		   const char *what);

/* matrix.csv f (header already read or not) has exactly these n rows, each
 * cell as wanted; every mismatch is reported, none stops the case. */
void e2e_check_cells(FILE *f, const struct e2e_want *want, size_t n);

/* "VAR=value" into out: $VAR when set, else HOME/rel of the user's own home
 * (getpwuid: Kyua gives each case a fresh HOME, which would mean a cold
 * cache, e.g. a kernel build, every time). */
void e2e_user_env(const char *var, const char *rel, char *out, size_t len);

#endif
