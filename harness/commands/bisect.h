/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect.h: `ttypot bisect-run` (for `git bisect run`), on top of the
 * one-kernel runner (run_one_kernel.h).
 *
 *   ttypot bisect-run [--cases FILTER] [--tree DIR] [--baseline KERNEL]
 *                     [--reruns N] [--cache DIR] [--suite DIR] [--deadline S]
 *                     [--base REV] [--map FILE] [--all]
 *
 * Exit codes (git bisect run): 0 good, 1 bad, 125 skip (the tree does not
 * build, the kernel does not boot to the suite, usage errors); never above
 * 127.  A commit is bad when a selected case fails in the first run and
 * fails again in at least one of the --reruns re-runs (default 2) of the
 * failing cases (fixtures/mutants/README.md says why).  The first run
 * stops at its first counted failure (one confirmed failure is all a bad
 * verdict needs; --all runs every case); when no re-run confirms it, every
 * selected case runs before the commit is called good.
 */
#ifndef TTYPOT_BISECT_H
#define TTYPOT_BISECT_H

#include <stdbool.h>

#include "run_one_kernel.h"

#define BISECT_GOOD 0
#define BISECT_BAD 1
#define BISECT_SKIP 125
#define BISECT_DEFAULT_RERUNS 2

/* What one bisect-run step observed (the input of the verdict). */
struct bisect_obs {
	bool usage_error;  /* bad options, a filter selecting no case */
	bool build_failed; /* the tree did not resolve/build */
	bool run_error;    /* QEMU could not start, no initramfs, ... */
	bool begun;        /* the first run reached the suite (begin line) */
	long first_bad;    /* cases bad in the first run (regressions only) */
	int reruns_done;   /* re-runs that reached the suite */
	long confirmed;    /* of first_bad, cases bad again in >= 1 re-run */
};

/* What a step's runs found: the failures that count, of the first run
 * (or of the run of every case that followed an unconfirmed one). */
struct bisect_found {
	char **ids;
	bool *again;       /* ids[i] failed again in a re-run */
	long n;
	bool stopped;      /* that run stopped at its first failure */
	bool widened;      /* the first run's failure was not confirmed, so
			      every selected case ran */
};
void bisect_found_free(struct bisect_found *f);

/* The verdict's observations on a built kernel ki: the first run of filter
 * (stopping at the first case that fails here and not on base, unless
 * all), the re-runs of its failures, and when none is confirmed after a
 * stopped run, a run of every selected case and its re-runs.  Fills obs's
 * run fields (begun, run_error, first_bad, reruns_done, confirmed) and f. */
void bisect_judge(struct kr_env *e, const struct kernel_info *ki, const char *filter,
		  const struct column *base, int reruns, bool all, struct bisect_obs *obs,
		  struct bisect_found *f);

/* The exit status for git bisect run: a pure function of obs. */
int bisect_exit_code(const struct bisect_obs *obs);

/* The bisect-run subcommand (argv[0] is "ttypot", argv[1] "bisect-run"). */
int cmd_bisect_run(int argc, char **argv);

#endif
