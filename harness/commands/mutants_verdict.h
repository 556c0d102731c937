/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mutants_verdict.h: what `ttypot mutants --generate --diff` tells a
 * patch's author: each surviving mutant of the patch's lines as
 *
 *     drivers/tty/n_tty.c:1234: a < b -> a <= b survived: no case checks n_tty_read
 *
 * the changed lines no program executes (by the function holding them: a
 * coverage map is of the source before the patch), the changed files not
 * mutated, and the patch's score, killed / (killed + survived).  Printed
 * on stdout and written at the end of mutation.md.
 */
#ifndef TTYPOT_MUTANTS_VERDICT_H
#define TTYPOT_MUTANTS_VERDICT_H

#include "cover.h"
#include "generate.h"
#include "patchsel.h"
#include "rbuf.h"

struct verdict_in {
	const struct ps_change *change;
	const struct gmut *v;           /* every generated mutant ... */
	size_t n;
	const unsigned char *pick;      /* ... of which the patch's */
	const char *(*file_text)(const void *ctx, const char *file);
	const void *ctx;
	const struct cover_map *map;    /* NULL: no map */
	const struct ps_counts *counts;
	const char *others;             /* changed files not mutated, space-separated */
};

/* The verdict as Markdown lines into out. */
void verdict_write(const struct verdict_in *in, struct rbuf *out);

#endif
