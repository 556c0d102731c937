// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_toggle.c: regressions.md #2 (never fixed, characterised): the
 * slave clears ECHO, the master writes a line, the slave sets ECHO again;
 * since 2.6.31 input is processed by a worker, so part of the line may still
 * be echoed.  What does hold: every line reaches the slave intact, and what
 * leaks is, per line, a suffix of that line (termios changes are atomic
 * with respect to a receive chunk: characters processed after ECHO came
 * back are echoed, none before), in order, and nothing else.  The leak
 * count is printed, not judged. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

#define ITER_DEFAULT 200
#define MAX_ITER 5000

static char leak[MAX_ITER * 8 + 64];

TP_CASE_COMMITS(echo_toggle_leaks_only_suffixes, TP_LINUX, "2.6.31",
		"- (characterisation)",
		"#2: race_iterations times: ECHO off, master writes \"LNNNN\\n\", "
		"ECHO on, slave reads the line whole; the master's echo output "
		"is a sequence of line suffixes in order, ending with the echo of "
		"a final line written with ECHO on")
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT);
	struct tp_pty p;
	char line[32], got[64];
	size_t have = 0;

	if (iters > MAX_ITER)
		iters = MAX_ITER;
	tp_canon_open(&p, 0, 0);
	tp_oflag(p.slave, 0, OPOST);
	tp_set_nonblock(p.master, true);
	for (long i = 0; i < iters; i++) {
		snprintf(line, sizeof(line), "L%04ld\n", i);
		tp_lflag(p.slave, 0, ECHO);
		tp_write_str(p.master, line, "line");
		tp_lflag(p.slave, ECHO, 0);
		tp_expect_read(p.slave, line, strlen(line), "line on the slave");
	}
	tp_write_str(p.master, "END\n", "final line, ECHO on");
	tp_expect_read(p.slave, "END\n", 4, "final line on the slave");
	/* Collect the echo output until the final line's echo ends it. */
	long long end = tp_now_ms() + TP_WAIT_MS;
	while (have < 4 || memcmp(leak + have - 4, "END\n", 4) != 0) {
		if (tp_now_ms() > end)
			atf_tc_fail("echo of the final line missing; output "
				    "ends \"%s\"", tp_esc(leak + (have > 40 ?
				    have - 40 : 0), have > 40 ? 40 : have));
		tp_poll1(p.master, POLLIN, 100);
		ssize_t n = read(p.master, got, sizeof(got));
		if (n < 0 && errno == EAGAIN)
			continue;
		ATF_REQUIRE_MSG(n > 0, "master read: %s", strerror(errno));
		if (have + (size_t)n > sizeof(leak))
			atf_tc_fail("more echo output than input");
		memcpy(leak + have, got, (size_t)n);
		have += (size_t)n;
	}
	have -= 4;
	/* Split at NL: each segment is a suffix of a later line than the
	 * previous segment's. */
	long next = 0, leaks = 0;
	size_t start = 0;
	for (size_t k = 0; k < have; k++) {
		if (leak[k] != '\n')
			continue;
		size_t seg = k + 1 - start;
		long j = next;
		for (; j < iters; j++) {
			snprintf(line, sizeof(line), "L%04ld\n", j);
			size_t ll = strlen(line);
			if (seg <= ll &&
			    memcmp(line + ll - seg, leak + start, seg) == 0)
				break;
		}
		if (j == iters)
			atf_tc_fail("echo \"%s\" at offset %zu is not a suffix "
				    "of a line after L%04ld",
				    tp_esc(leak + start, seg), start, next);
		next = j + 1;
		leaks++;
		start = k + 1;
	}
	if (start != have)
		atf_tc_fail("echo output has a partial segment \"%s\"",
			    tp_esc(leak + start, have - start));
	printf("%ld of %ld lines leaked (partly) into the echo\n", leaks,
	       iters);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_toggle_leaks_only_suffixes);
	return atf_no_error();
}
