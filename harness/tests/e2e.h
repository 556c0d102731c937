/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e2e.h: what the end-to-end harness tests share (t_guest_e2e,
 * t_guest_arch, t_guest_apps, t_guest_panic, t_kmsg_guest): find the built
 * ttypot, run `ttypot matrix` with a deadline, keep its output in a log,
 * check every cell of the matrix.csv it wrote, build a scratch suite of a
 * few programs, and remove the scratch directory afterwards.
 */
#ifndef TTYPOT_TESTS_E2E_H
#define TTYPOT_TESTS_E2E_H

#include <atf-c.h>
#include <stdbool.h>
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

/* The file csv: its header (into header, NULL when no more checks need
 * it) starts "case,area,", and e2e_check_cells.  Fails the case when it is
 * unreadable. */
void e2e_check_csv(const char *csv, const struct e2e_want *want, size_t n,
		   char *header, size_t hlen);

/* The cell of case id in matrix.csv f (header "case,area,<label>") into
 * cell; false when f has no such row. */
bool e2e_csv_cell(FILE *f, const char *id, char *cell, size_t len);

/* The built ttypot (srcdir/../ttypot) into out; fails the case when it is
 * not built. */
void e2e_ttypot(const atf_tc_t *tc, char *out, size_t len);

/* Run argv within deadline_s; fails the case, naming what, with the error
 * and the output, unless it exits 0. */
void e2e_run_ok(char *const argv[], int deadline_s, const char *what);

/* Write text to path (created or truncated); fails the case when it cannot. */
void e2e_put_file(const char *path, const char *text);

/* A scratch suite for `ttypot matrix --suite dir`: the real fixtures/
 * (guest init, reporter, kmsg-watch.sh) copied into dir, and an empty
 * dir/cases/ for e2e_suite_add and e2e_suite_file. */
void e2e_suite_init(const atf_tc_t *tc, const char *dir);

/* The built program srcdir/from copied to dir/cases/to (its folder made);
 * fails the case, naming from, when it is not built. */
void e2e_suite_add(const atf_tc_t *tc, const char *dir, const char *from,
		   const char *to);

/* text written to dir/cases/rel (a Kyuafile, a panic-allowed list). */
void e2e_suite_file(const char *dir, const char *rel, const char *text);

/* Remove the scratch directory dir, unless the Kyua config variable
 * keep_e2e is true (kept for a look). */
void e2e_cleanup(const atf_tc_t *tc, const char *dir);

/* "VAR=value" into out: $VAR when set, else HOME/rel of the user's own home
 * (getpwuid: Kyua gives each case a fresh HOME, which would mean a cold
 * cache, e.g. a kernel build, every time). */
void e2e_user_env(const char *var, const char *rel, char *out, size_t len);

/* "TTYPOT_CACHE=..." of e2e_user_env: the cache ttypot uses outside the
 * tests, where a download or a build is made once. */
void e2e_cache_env(char *out, size_t len);

#endif
