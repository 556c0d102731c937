/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mutant.h: one generated first-order mutant of the tty layer and what
 * became of it.  Generation (sites.c, from Coccinelle rules in
 * fixtures/mutation/, one .cocci per operator), the schemata rewrite (schemata.c), triage
 * (equivalence by object code, coverage) and sampling live in this folder;
 * `ttypot mutants --generate` (commands/) runs them, report/ writes them.
 */
#ifndef TTYPOT_MUTANT_H
#define TTYPOT_MUTANT_H

#include <stdbool.h>
#include <stddef.h>

/* How a survivor's reason starts when its kill did not repeat on a second
 * boot (a flaky case, or a race the mutant seldom loses): outside the
 * kills, listed apart in the report. */
#define MUT_NOT_REPEATED "not repeated on a second boot:"

/* Mutation operators, one Coccinelle rule each. */
enum mut_op {
	OP_ROR,    /* relational/equality operator replaced (< -> <=, == -> !=) */
	OP_NEG,    /* an if/while condition negated */
	OP_CALL,   /* a call statement removed (wake_up, kill_fasync, ...) */
	OP_ERRNO,  /* an errno constant replaced by another (-EIO -> -EAGAIN) */
	OP_OBO,    /* an integer constant off by one (N -> N+1, N -> N-1) */
	OP_FLAG,   /* a flag removed from a bit test or a mask */
	OP_RET,    /* a return value replaced (E -> 0, 0 -> 1, true <-> false) */
	OP__N
};
/* "ror", "neg", "call", "errno", "obo", "flag", "ret"; -1 unknown. */
const char *mut_op_name(enum mut_op op);
int mut_op_parse(const char *name);

enum mut_status {
	MS_PENDING,       /* generated, not yet decided */
	MS_EQUIVALENT,    /* its object code equals the unmutated object's */
	MS_NOT_COVERED,   /* no test program executes its line */
	MS_UNCOMPILABLE,  /* the mutated code does not compile */
	MS_KILLED,        /* a case that passes on id 0 is bad on it */
	MS_KILLED_TIMEOUT,/* its run passed the deadline (a hang counts as a kill) */
	MS_KILLED_WARNING,/* only a kernel WARN/BUG/Oops/taint showed it */
	MS_SURVIVED,      /* every covering program passed */
	MS_ERROR,         /* could not be evaluated (boot failed twice, ...) */
	MS__N
};
/* "pending", "equivalent", "not-covered", "uncompilable", "killed",
 * "timeout", "warning", "survived", "error"; -1 unknown. */
const char *mut_status_name(enum mut_status s);
int mut_status_parse(const char *name);
/* killed, timeout or warning */
bool mut_status_killed(enum mut_status s);

struct mutant {
	unsigned id;          /* schemata id, 1..N in generation order; 0 none */
	char key[160];        /* stable: "drivers/tty/n_tty.c:1234:ror:2" */
	char file[96];        /* relative to the kernel source root */
	int line, col;        /* start of the mutated span (1-based line, 0-based col) */
	int end_line, end_col;/* end of the span (exclusive column) */
	enum mut_op op;
	int ordinal;          /* its number among op's mutants on that line, 1.. */
	char func[64];        /* the function holding it ("" unknown) */
	char orig[200];       /* the span's text, one line, possibly cut */
	char repl[200];       /* the mutated text, one line, possibly cut */

	/* What became of it. */
	enum mut_status status;
	char reason[300];     /* killing case(s), the warning, why equivalent... */
	char covered_by[1600]; /* programs selected to run it (space-separated; room
			       * for the programs a stale map does not know) */
	double secs;          /* boot + programs for this mutant (0 when not run) */
	char earlier[340];    /* "survived (reason)" when a later sitting ran it again
			       * (--rerun-survivors, after cases were added); "" else */
};

#endif
