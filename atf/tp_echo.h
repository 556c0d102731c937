/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_echo.h: exact-echo checks for the echo and termios areas.
 *
 * A story writes input to the master and reads back what the slave's line
 * discipline echoed.  Stories end with an ordinary sentinel character, so the
 * read stops on state (the sentinel's echo arrived, or as many bytes as the
 * expected echo) and never on a quiet window: a byte too many shows up as a
 * mismatch before the sentinel, a byte too few as a short read.
 */
#ifndef TP_ECHO_H
#define TP_ECHO_H

#include "ttypot.h"

/* A pty pair whose slave termios is exactly iflag/oflag/lflag (cc and cflag as
 * the kernel creates them); the slave is non-blocking. */
void tp_echo_open(struct tp_pty *p, tcflag_t iflag, tcflag_t oflag,
		  tcflag_t lflag);

/* Read from fd until want's length is reached or the last byte of want has
 * been seen as often as want holds it; fail unless exactly want came back,
 * naming the first differing offset. */
void tp_echo_expect_out(int fd, const void *want, size_t wantlen,
			const char *what);

/* Write in to the master, then tp_echo_expect_out(master, want). */
void tp_echo_expect(int master, const void *in, size_t inlen,
		    const void *want, size_t wantlen, const char *what);

/* The same for string literals (NULs excluded). */
#define TP_ECHO(master, in_lit, want_lit, what)                                \
	tp_echo_expect((master), (in_lit), sizeof(in_lit) - 1, (want_lit),     \
		       sizeof(want_lit) - 1, (what))

/* Collect without failing on a mismatch: returns the byte count read into
 * out (at most cap); for table-driven cases that report every mismatch. */
size_t tp_echo_collect(int fd, const void *want, size_t wantlen, char *out,
		       size_t cap, const char *what);

#endif
