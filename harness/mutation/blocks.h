/* SPDX-License-Identifier: GPL-2.0-only */
/* blocks.h: the brace structure of a C source file, for the lines that
 * come before a line on every path to it.
 *
 * gcov gives some statements no counter of their own (a return after a
 * switch, a break); the coverage map lends them the programs of a counted
 * line nearby.  The textually nearest line before `return -ENOIOCTLCMD;`
 * after a switch is the switch's last case, which only one program takes;
 * every program that reaches the return passed the switch's head.  Reading
 * the braces finds that head without a compiler: going back from a line,
 * the lines of a block that closed before it are skipped, and the heads of
 * the blocks that hold it are kept; a label (a case, a goto's target) is
 * entered from elsewhere, so the lines before it in its block are not
 * kept, only the label and its block's head.  Comments, string and character
 * literals are skipped; preprocessor conditionals are not followed (a
 * brace in both arms of an #if counts twice). */
#ifndef TTYPOT_BLOCKS_H
#define TTYPOT_BLOCKS_H

#include <stdbool.h>

struct blocks {
	int nlines;
	int *start; /* [line]: brace depth where the line starts (1-based) */
	int *low;   /* [line]: the lowest depth within the line */
	bool *label; /* [line]: starts with a label ("case X:", "out:"): a
			join, which the lines before it need not reach */
};

/* Read text's braces; 0, or -1 out of memory. */
int blocks_read(const char *text, struct blocks *b);
void blocks_free(struct blocks *b);

/* The lines before line, nearest first and not before first, that every
 * path to it passes through or that head a block holding it, as far as
 * braces tell; take(l, arg) is asked of each until it returns true.  That
 * line, or 0. */
int blocks_before(const struct blocks *b, int line, int first,
		  bool (*take)(int line, void *arg), void *arg);

#endif
