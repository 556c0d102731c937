/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.h: a seeded, per-file stratified sample of generated mutants.
 * Each file gets a share of the sample proportional to its mutants (at
 * least a few, so every file has a score of its own), drawn without
 * replacement with splitmix64 from the seed: the same seed and mutants give
 * the same sample on every machine.
 */
#ifndef TTYPOT_SAMPLE_H
#define TTYPOT_SAMPLE_H

#include <stddef.h>

#include "generate.h"

/* The smallest share of a file that has that many mutants. */
#define SAMPLE_MIN_PER_FILE 12

/* Mark (pick[i] = 1) want of the n mutants (sorted by file, as gen_finish
 * leaves them); all of them when want >= n.  Returns how many were picked. */
size_t sample_pick(const struct gmut *v, size_t n, size_t want,
		   unsigned long long seed, unsigned char *pick);

/* Mark want of n (all when want >= n), drawn with the same generator but
 * without strata: a patch's mutants (`--diff --sample`), often of one file
 * and fewer than a file's floor.  Returns how many were picked. */
size_t sample_plain(size_t n, size_t want, unsigned long long seed, unsigned char *pick);

#endif
