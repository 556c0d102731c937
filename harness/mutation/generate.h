/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * generate.h: from Coccinelle's sites (sites.h) to first-order mutants.
 * A mutant is a span of one file and one or two edits inside it (a token
 * replaced, a "!(" ... ")" wrapped round, a statement emptied); the same
 * edits make its patch (the mutant alone) and its arm of the schemata
 * (schemata.h).  Keys are stable for the same source and rules:
 * FILE:LINE:OP:ORDINAL, the ordinal counting OP's mutants on that line in
 * column order.
 */
#ifndef TTYPOT_GENERATE_H
#define TTYPOT_GENERATE_H

#include <stdbool.h>
#include <stddef.h>

#include "mutant.h"
#include "sites.h"

struct mut_edit {
	long a, b;            /* replace bytes [a, b) of the file ... */
	char text[120];       /* ... with this */
};

struct gmut {
	struct mutant m;
	long s, e;            /* the span as byte offsets of the file */
	bool stmt;            /* the span is a whole statement (ends with ';') */
	struct mut_edit ed[2];
	int ned;
};

/* Byte offset of 1-based line, 0-based column in text; -1 past the end. */
long gen_offset(const char *text, int line, int col);

/* The mutants of one file's sites (text: the file), appended to *v.
 * Sites whose text does not fit their operator are skipped (counted in
 * *skipped).  0, or -1 with a message. */
int gen_expand(const char *text, const struct site *s, size_t n,
	       struct gmut **v, size_t *nv, size_t *skipped, char *err,
	       size_t errlen);

/* Sort by file and position; drop exact duplicates and mutants whose span
 * partly overlaps another's (one schemata cannot nest them); number the
 * rest: ordinals, keys and ids 1..N.  Returns the new count; *dropped gets
 * how many went. */
size_t gen_finish(struct gmut *v, size_t n, size_t *dropped);

#endif
