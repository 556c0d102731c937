/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arid.h: the "arid" lines of C source, where a mutant tells a patch's
 * author nothing (Petrovic and Ivankovic, "State of Mutation Testing at
 * Google", ICSE-SEIP 2018: mutants of logging and assertions are the ones
 * reviewers called unproductive).  `ttypot mutants --generate --diff`
 * mutates a patch's changed lines except these; a line is arid when all of
 * its code is, and why:
 *
 *   - blank, or only a comment: nothing runs there;
 *   - a log call as a whole statement (printk*, pr_*, dev_err/warn/info/
 *     dbg/notice/crit/alert/emerg/printk/vdbg[_once|_ratelimited],
 *     tty_err/warn/info/notice/debug*): what it prints is for a person
 *     reading dmesg, not a contract a test checks;
 *   - an assertion as a whole statement (WARN*, BUG*, BUILD_BUG*,
 *     lockdep_assert*, might_sleep*): it states what must hold, so a mutant
 *     of it only makes a debug check wrong.  Its value used in code (`if
 *     (WARN_ON(x)) return -EINVAL;`) is logic and stays live;
 *   - a tracepoint call as a whole statement (trace_*): tracing output;
 *   - a pure declaration (`int i;`, `struct tty_struct *tty;`: names,
 *     `*`, `,`, `[N]` only): no operator has anything to change in it, and
 *     gcov lists no count for it, so it must not read as a line no program
 *     executes.  A declaration with an initialiser is logic and stays live.
 *
 * The scan skips strings, character constants and comments; a statement
 * is what follows `;`, `{`, `}`, a label, `else`, `do` or the `)` of an
 * if/for/while/switch header.
 */
#ifndef TTYPOT_ARID_H
#define TTYPOT_ARID_H

#include <stdbool.h>
#include <stddef.h>

struct arid {
	const char **why;    /* why[l] for lines 1..nlines: NULL live, else the rule */
	int nlines;
};

/* Classify every line of text. */
void arid_scan(const char *text, struct arid *a);
void arid_free(struct arid *a);

/* Why line l is arid ("a comment", "a log call" ...), NULL when it is live
 * (or outside the text). */
const char *arid_why(const struct arid *a, int line);

/* Are all lines l1..l2 arid? */
bool arid_span(const struct arid *a, int l1, int l2);

#endif
