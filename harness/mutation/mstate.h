/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mstate.h: a generated-mutant run's state, DIR/mutation-state.json,
 * rewritten after every mutant so a run can stop anywhere and continue
 * (ttypot mutants --generate --resume DIR): the run's parameters and, per
 * sampled mutant, its key, status, reason, programs and seconds.
 */
#ifndef TTYPOT_MSTATE_H
#define TTYPOT_MSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "generate.h"

struct mstate_params {
	char source[128];      /* the pristine source's unpack mark, one line */
	char rules[65];        /* sha256 of the rules and the generator's version */
	unsigned long long seed;
	size_t sample, generated;
	double wall_s;         /* spent in earlier sittings */
	double build_s;        /* the last sitting's schemata build, 0: none yet */
	double baseline_s;     /* and its id-0 run */
};

/* Write the sampled mutants (pick[i]) of v with p.  0 or -1 with a message. */
int mstate_save(const char *dir, const struct mstate_params *p, const struct gmut *v,
		size_t n, const unsigned char *pick, char *err, size_t errlen);

/* Read dir's state into p and, by key, into v's statuses; pick[] gets the
 * sampled set.  0; -1 with a message naming the file (missing, not a
 * state, a key this generation does not have). */
int mstate_load(const char *dir, struct mstate_params *p, struct gmut *v, size_t n,
		unsigned char *pick, char *err, size_t errlen);

#endif
