/*
 * bisect.h: `ttypot bisect-run` (for `git bisect run`), on top of the
 * one-kernel runner (run_one_kernel.h).
 *
 *   ttypot bisect-run [--cases FILTER] [--tree DIR] [--baseline KERNEL]
 *                     [--reruns N] [--cache DIR] [--suite DIR] [--deadline S]
 *
 * Exit codes (git bisect run): 0 good, 1 bad, 125 skip (the tree does not
 * build, the kernel does not boot to the suite, usage errors); never above
 * 127.  A commit is bad when a selected case fails in the first run and
 * fails again in at least one of the --reruns re-runs (default 2) of the
 * failing cases (fixtures/mutants/README.md says why).
 */
#ifndef TTYPOT_BISECT_H
#define TTYPOT_BISECT_H

#include <stdbool.h>

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

/* The exit status for git bisect run: a pure function of obs. */
int bisect_exit_code(const struct bisect_obs *obs);

/* The bisect-run subcommand (argv[0] is "ttypot", argv[1] "bisect-run"). */
int cmd_bisect_run(int argc, char **argv);

#endif
