// SPDX-License-Identifier: GPL-2.0-only
/* t_canon_read.c: canonical reads that the 3.12 and 5.11 n_tty read rewrites
 * got wrong (regressions.md #5, #14 EOF push; #13 64-byte split; #8 the
 * 4095-character line limit).  canon/t_eof.c, canon/t_line_limit.c and
 * pty/t_overread.c hold the plain recipes; these are the catalogue variants
 * at the edges: a read that ends exactly at the EOF push, line lengths
 * around 64, a long line arriving in pieces. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

#define CANON_LINE_MAX 4096

/* One read of at most len bytes once the slave is readable. */
static ssize_t
read_when_ready(int fd, char *buf, size_t len, const char *what)
{
	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(fd, buf, len);
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	return n;
}

static void
expect_read(int fd, size_t len, const char *want, size_t wlen,
	    const char *what)
{
	char buf[CANON_LINE_MAX];
	ssize_t n = read_when_ready(fd, buf, len, what);
	if ((size_t)n != wlen || memcmp(buf, want, wlen) != 0)
		atf_tc_fail("%s: read(%zu) returned %zd \"%s\", want %zu \"%s\"",
			    what, len, n, tp_esc(buf, (size_t)n), wlen,
			    tp_esc(want, wlen));
}

TP_CASE_COMMITS(eof_push_read_exact_then_next_line, TP_LINUX, "40d5e0905a03",
		"ac8f3bf8832a",
		"#5: ICANON -ECHO; the master writes \"abcd^D\", read(slave, 4) "
		"returns abcd; then \"xy\\n\" is written and the next read "
		"returns 3 bytes, not a spurious 0")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_write_str(p.master, "abcd\004", "abcd ^D");
	expect_read(p.slave, 4, "abcd", 4, "read(4) of the pushed abcd");
	tp_write_str(p.master, "xy\n", "xy NL");
	expect_read(p.slave, 64, "xy\n", 3, "next read after the push");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(eof_push_queued_reads_exact, TP_LINUX, "359303076163",
		"65a8b287023d",
		"#14: with \"ab^Dcd^Dxy\\n\" all queued, reads of exactly 2 return "
		"ab, cd, then a 64-byte read returns xy NL: no read returns 0 "
		"for a push consumed at a buffer's end")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_write_str(p.master, "ab\004cd\004xy\n", "ab ^D cd ^D xy NL");
	tp_wait_fionread(p.slave, 6, TP_WAIT_MS, "all input queued");
	expect_read(p.slave, 2, "ab", 2, "read(2) of the first push");
	expect_read(p.slave, 2, "cd", 2, "read(2) of the second push");
	expect_read(p.slave, 64, "xy\n", 3, "read of the line");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(lines_around_64_read_whole, TP_LINUX, "3b830a9c34d5",
		"359303076163",
		"#13 at the edges: ICANON -ECHO; lines of 63, 64 and 65 'a' plus "
		"NL, then \"bb\\n\", each come back whole from one 4096-byte read")
{
	struct tp_pty p;
	char line[67];

	tp_canon_open(&p, 0, 0);
	memset(line, 'a', sizeof(line));
	for (size_t n = 63; n <= 65; n++) {
		line[n] = '\n';
		tp_write_all(p.master, line, n + 1, "line of a's");
		line[n] = 'a';
	}
	tp_write_str(p.master, "bb\n", "bb NL");
	for (size_t n = 63; n <= 65; n++) {
		line[n] = '\n';
		expect_read(p.slave, CANON_LINE_MAX, line, n + 1, "long line");
		line[n] = 'a';
	}
	expect_read(p.slave, CANON_LINE_MAX, "bb\n", 3, "bb line");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(line_limit_in_pieces, TP_LINUX, "-", "- (characterisation)",
		"#8: 5000 'x' written in 1000-byte pieces, then NL, on a "
		"canonical slave: FIONREAD 4096 and one read of 4095 'x' + NL; "
		"a second over-long line is cut the same way")
{
	static char piece[1000], buf[2 * CANON_LINE_MAX];
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	memset(piece, 'x', sizeof(piece));
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 5; i++)
			tp_write_all(p.master, piece, sizeof(piece), "1000 x");
		tp_write_str(p.master, "\n", "NL");
		tp_wait_fionread(p.slave, CANON_LINE_MAX, TP_WAIT_MS,
				 "the cut line");
		ATF_CHECK_EQ_MSG(tp_fionread(p.slave), CANON_LINE_MAX,
				 "FIONREAD of line %d", round + 1);
		ssize_t n = read_when_ready(p.slave, buf, sizeof(buf), "line");
		ATF_REQUIRE_EQ_MSG(n, CANON_LINE_MAX, "read of line %d "
				   "returned %zd", round + 1, n);
		ATF_CHECK_MSG(buf[n - 1] == '\n', "line does not end in NL");
		for (ssize_t i = 0; i < n - 1; i++)
			if (buf[i] != 'x')
				atf_tc_fail("byte %zd is 0x%02x", i,
					    (unsigned char)buf[i]);
	}
	tp_expect_not_readable(p.slave, "nothing after the cut lines");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, eof_push_read_exact_then_next_line);
	ATF_TP_ADD_TC(tp, eof_push_queued_reads_exact);
	ATF_TP_ADD_TC(tp, lines_around_64_read_whole);
	ATF_TP_ADD_TC(tp, line_limit_in_pieces);
	return atf_no_error();
}
