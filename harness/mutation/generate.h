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
	/* Why the span is where C needs a constant ("a case label" ...), so
	 * that no runtime guard can hold it; NULL elsewhere.  Such a mutant
	 * keeps its key, id and place in a sample's draw (the numbering and
	 * the draw are over every mutant), but `ttypot mutants --generate`
	 * neither lists, samples nor builds it: only --patch writes it. */
	const char *constant;
};

/* Byte offset of 1-based line, 0-based column in text; -1 past the end. */
long gen_offset(const char *text, int line, int col);

/* The mutants of one file's sites (text: the file), appended to *v, each
 * with its constant context (gen_constant_context) when it has one.
 * Sites whose text does not fit their operator are skipped (counted in
 * *skipped).  0, or -1 with a message. */
int gen_expand(const char *text, const struct site *s, size_t n,
	       struct gmut **v, size_t *nv, size_t *skipped, char *err,
	       size_t errlen);

/* Why byte offset a of C text lies where the language needs a constant
 * expression: outside every function (a static table's initialiser, a
 * global's declaration), a case label, a static local's declaration, an
 * enum's value or a BUILD_BUG_ON; NULL when a runtime expression may
 * stand there.  Other constant contexts are found by the compiler when the
 * schemata is built. */
const char *gen_constant_context(const char *text, long a);

/* Sort by file and position; drop exact duplicates and mutants whose span
 * partly overlaps another's (one schemata cannot nest them); number the
 * rest: ordinals, keys and ids 1..N.  Returns the new count; *dropped gets
 * how many went. */
size_t gen_finish(struct gmut *v, size_t n, size_t *dropped);

#endif
