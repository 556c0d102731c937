/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schemata.h: many mutants in one source file, each behind its id
 * (mutant schemata, Untch, Offutt and Harrold 1993): an expression becomes
 *     (ttypot_mutant == 12 ? (mutated) : (original))
 * and a statement
 *     { if (ttypot_mutant == 12) { mutated } else { original } }
 * where ttypot_mutant is an int the kernel command line sets
 * (ttypot_mutant=12; 0 is the unmutated kernel).  Nested mutants nest.  The
 * original arm keeps its line breaks and every mutated arm is put on one
 * line, so every line of the file keeps its number (the coverage map, WARN
 * line numbers and object comparisons rely on it).
 * Compiled with -DTTYPOT_MUTANT_CONST=N the guards fold away and the object
 * is mutant N's alone: that is how equivalence is judged (triage).
 */
#ifndef TTYPOT_SCHEMATA_H
#define TTYPOT_SCHEMATA_H

#include <stddef.h>

#include "generate.h"

/* text with the mutants sel[0..n) (all of this file, from one gen_finish)
 * guarded by their ids; malloc'd. */
char *schemata_rewrite(const char *text, const struct gmut *const *sel, size_t n);

/* text with mutant g applied and nothing else (its patch); malloc'd. */
char *schemata_apply_one(const char *text, const struct gmut *g);

/* The declarations every mutated file sees (-include), and what the one
 * defining file (tty_io.c) appends: the variable and its boot parameter. */
extern const char schemata_header[];
extern const char schemata_definition[];

#endif
