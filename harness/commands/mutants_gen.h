/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mutants_gen.h: `ttypot mutants --generate`: mutation analysis of the
 * whole tty layer with generated mutants (fixtures/mutants/README.md,
 * "Generated mutants").  Generate first-order mutants of the tty files of
 * linux-source-6.12 with Coccinelle, draw a seeded stratified sample, set
 * aside those no program executes (the coverage map) and those whose object
 * code is unchanged (equivalent), build one schemata kernel holding the
 * rest, run the unmutated kernel (id 0) once as the baseline, then boot the
 * same image once per mutant (ttypot_mutant=ID) with only the programs that
 * execute its line, stopping at the first kill or at a deadline derived
 * from those programs' baseline time.  The state is saved after every
 * mutant (--resume DIR continues); the reports are written after every
 * mutant too.
 */
#ifndef TTYPOT_MUTANTS_GEN_H
#define TTYPOT_MUTANTS_GEN_H

#include <stdio.h>

int cmd_mutants_generate(int argc, char **argv);
/* Its part of `ttypot mutants --help`: what it does and its options. */
void mutants_gen_help(FILE *f);

#endif
