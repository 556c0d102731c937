/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mutants.h: `ttypot mutants [-o DIR] [--runs N] [--race-runs N]
 *             [--cases FILTER] [--cache DIR] [--suite DIR] [--deadline S]
 *             [PATCH...]`
 * Kernel mutation testing (fixtures/mutants/README.md): copy the pristine
 * linux-source-6.12 once into CACHE/mutant/src, build and run it as the
 * baseline, then for each patch apply it, rebuild incrementally (ccache, the
 * same build dir), boot it with the suite, revert it, and record which cases
 * fail that pass on the baseline.  Writes DIR/mutants.md and mutants.json
 * (after every mutant, so an interrupted run keeps what it measured).
 * --stop-on-kill stops a mutant's suite at its first kill (faster under TCG;
 * the kill matrix then lists that first killer only).
 * Exit: 0 every mutant killed, 1 a mutant survived (a hole) or could not be
 * evaluated, 2 usage/input errors or no usable baseline.
 */
#ifndef TTYPOT_MUTANTS_H
#define TTYPOT_MUTANTS_H

#include <stdbool.h>
#include <stddef.h>

/* What a patch's header says (the lines before the diff). */
struct mutant_header {
	char name[128];     /* "ttypot mutant NAME", else the file name */
	char bug[512];      /* "Bug:" */
	char commits[512];  /* "Commits:" */
	char expected[512]; /* "Killed by (expected):" */
	bool race;          /* a race: the name or the bug says "race" */
};

/* Parse a patch's header from its text.  0, or -1 when there is no diff. */
int mutant_parse_header(const char *text, const char *fallback_name,
			struct mutant_header *h);

/* The programs named by the expected killers ("close/t_close_race:*,
 * close/t_sigchld_data:*poll*" -> "close/t_close_race close/t_sigchld_data"). */
void mutant_expected_programs(const char *expected, char *out, size_t outlen);

/* Does a case id match one of the comma-separated expected patterns? */
bool mutant_expected_match(const char *expected, const char *id);

int cmd_mutants(int argc, char **argv);

#endif
