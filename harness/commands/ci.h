/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ci.h: `ttypot ci --tree DIR --baseline KERNEL [-o DIR] [--cases FILTER]
 *        [--cache DIR] [--suite DIR] [--deadline S]`
 * One command for CI systems: build the tree (out of tree, the config
 * fragment, ccache), boot it with the whole suite, run the baseline too, and
 * render the two-column matrix (matrix.*, junit-*.xml, kcidb.json) into DIR
 * (default ./reports).
 *
 * Exit codes:
 *   0  no regression against the baseline
 *   1  regressions (a case that passes on the baseline fails on the tree;
 *      a tree that boots but panics or hangs shows as regressions too), or
 *      with --mutants a mutant of the change's lines that survived
 *   2  usage or input errors, or a baseline that gave no results (nothing to
 *      compare against: never reported as "no regression")
 *   3  the tree could not be built (or is not a kernel tree): no results
 */
#ifndef TTYPOT_CI_H
#define TTYPOT_CI_H

#include <stdbool.h>

#define CI_OK 0
#define CI_REGRESSIONS 1
#define CI_USAGE 2
#define CI_BUILD_FAILED 3

struct ci_obs {
	bool usage_error;   /* bad options, unparsable spec, unwritable -o */
	bool tree_built;    /* the tree resolved (built) */
	bool baseline_ran;  /* the baseline column has results */
	int matrix_rc;      /* what the matrix run returned (0, 1, 2) */
	long regressions;   /* regression marks in the tree's column */
	bool survivors;     /* --mutants: a mutant of the change survived */
	bool mutants_error; /* --mutants: its run could not finish (exit 2) */
};

/* The exit status: a pure function of obs. */
int ci_exit_code(const struct ci_obs *obs);

int cmd_ci(int argc, char **argv);

#endif
