// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_compile.c: the emacs compile-mode story.  A compile-like child
 * (fixtures/tp_compile.c) prints N lines at full speed on its pty and
 * _exits at once, often with output still queued; the libexpect side must
 * read every line, in order, before it sees EOF.  2.6.31 lost that tail.
 *
 * Each case loops over N in {1, 10, 100, 1000, 5000} (or long lines)
 * COMPILE_ITERATIONS times; the race is in the kernel's close path, so the
 * loop is the detector.  Override with kyua -v compile_iterations=N.
 *
 * A compile that gets EOF early with the rest still queued on the master
 * (a further read returns it) and nothing lost fails through
 * tp_fail_eio_race: that is fixtures/findings/n_tty-eio-race, which
 * fixtures/expect/ names on the kernels that have it.  Bytes that never
 * come fail plainly.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp_expect.h"

/* Rounds over all sizes per case: a lost tail is a race, so loop; 5
 * rounds keep a case under 2 s on the host and ~40 s under TCG. */
#define COMPILE_ITERATIONS 5
#define COMPILE_TIMEOUT_S 300

static const long sizes[] = {1, 10, 100, 1000, 5000};

/* Line i as tp_compile prints it, without the newline. */
static size_t
make_line(long i, long maxlen, char *out)
{
	size_t len = (size_t)sprintf(out, "%ld:", i);
	long plen = (i * 37 + 11) % (maxlen + 1);
	for (long j = 0; j < plen; j++)
		out[len++] = (char)('a' + (i + j) % 26);
	return len;
}

/* After an early EOF: is anything still queued on the master?  Bytes
 * there mean the kernel reported EOF with output unread (the 2.6.31
 * symptom); none mean the output was lost before it reached the master. */
static ssize_t
probe_after_eof(int fd, char *out, size_t outlen)
{
	char buf[8192];
	int queued = -1;
	if (ioctl(fd, FIONREAD, &queued) != 0)
		queued = -1;
	tp_set_nonblock(fd, true);
	errno = 0;
	ssize_t n = read(fd, buf, sizeof(buf));
	int err = errno;
	snprintf(out, outlen, "then FIONREAD said %d and a further read %s%zd%s%s", queued,
		 n > 0 ? "returned " : "gave ", n, n > 0 ? " bytes" : ": ",
		 n > 0 ? "" : strerror(err));
	return n;
}

/* One compile: spawn, read N lines, then EOF, then exit status 0. */
static void
compile(const atf_tc_t *tc, long n, long maxlen, const char *mode, long round)
{
	struct tp_exp s;
	char narg[24], larg[24], want[8200], what[160];
	const char *args[] = {narg, larg, mode, NULL};

	snprintf(narg, sizeof(narg), "%ld", n);
	snprintf(larg, sizeof(larg), "%ld", maxlen);
	snprintf(what, sizeof(what), "round %ld, %ld lines of up to %ld, %s writes",
		 round, n, maxlen, mode);
	tp_exp_spawn(&s, tc, "tp_compile", args);
	tp_waiting_for(what);
	size_t matched = 0; /* bytes of the lines read so far, with their \r\n */
	for (long i = 0; i < n; i++) {
		int r = tp_exp_try(&s, exp_exact, "\r\n", TP_WAIT_MS);
		if (r == EXP_EOF) {
			/* How the child ended tells a lost tail (exit 0)
			 * from a child cut short (a failed write: exit
			 * 100 + errno, or a signal such as SIGHUP). */
			char tail[600], how[96], after[300];
			snprintf(tail, sizeof(tail), "%s",
				 tp_esc(exp_buffer,
					(size_t)(exp_buffer_end - exp_buffer)));
			ssize_t more = probe_after_eof(s.fd, after, sizeof(after));
			/* libexpect logs every byte it reads: more than the
			 * lines and the tail means it read and lost some. */
			fflush(s.log);
			size_t taillen = (size_t)(exp_buffer_end - exp_buffer);
			size_t len = strlen(after);
			snprintf(after + len, sizeof(after) - len,
				 "; libexpect read %zu bytes from the master, the "
				 "lines and tail hold %zu", s.loglen,
				 matched + taillen);
			int st = tp_exp_close(&s, what);
			if (WIFSIGNALED(st))
				snprintf(how, sizeof(how), "killed by %s",
					 strsignal(WTERMSIG(st)));
			else if (WEXITSTATUS(st) > 100)
				snprintf(how, sizeof(how), "had a write fail: %s",
					 strerror(WEXITSTATUS(st) - 100));
			else
				snprintf(how, sizeof(how), "exited with %d",
					 WEXITSTATUS(st));
			char early[1200];
			snprintf(early, sizeof(early), "%s: EOF after %ld of %ld "
				 "lines; unterminated tail: \"%s\"; %s; tp_compile %s",
				 what, i, n, tail, after, how);
			bool read_all = s.loglen == matched + taillen;
			bool exited_0 = WIFEXITED(st) && WEXITSTATUS(st) == 0;
			tp_exp_forget(&s);
			if (more <= 0 || !read_all || !exited_0)
				atf_tc_fail("%s", early);
			tp_fail_eio_race("%s", early);
		}
		if (r != 0)
			atf_tc_fail("%s", tp_exp_failure(&s, "\\r\\n", r, what));
		const char *got;
		size_t glen = tp_exp_before(&got);
		size_t wlen = make_line(i, maxlen, want);
		if (glen != wlen || memcmp(got, want, wlen) != 0)
			atf_tc_fail("%s: line %ld is \"%s\", want \"%s\"", what, i,
				    tp_esc(got, glen), tp_esc(want, wlen));
		matched += wlen + 2;
	}
	tp_exp_expect_eof(&s, what);
	const char *extra;
	size_t xlen = tp_exp_before(&extra);
	if (xlen != 0)
		atf_tc_fail("%s: %zu bytes after the last line: \"%s\"", what,
			    xlen, tp_esc(extra, xlen));
	tp_exp_check_exit(tp_exp_wait_exit(&s, what), 0, "tp_compile");
	tp_exp_forget(&s);
}

static void
compile_sizes(const atf_tc_t *tc, long maxlen, const char *mode)
{
	long rounds = tp_config_long(tc, "compile_iterations",
				     COMPILE_ITERATIONS);
	for (long r = 0; r < rounds; r++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			compile(tc, sizes[k], maxlen, mode, r);
}

TP_CASE_TIMEOUT(every_line_before_eof_line_writes, TP_POSIX, COMPILE_TIMEOUT_S,
	"A child writing 1 to 5000 lines (0 to 80 bytes), one write() per "
	"line, then _exit(): every line arrives, in order, before EOF, in "
	"every round")
{
	compile_sizes(tc, 80, "line");
}

TP_CASE_TIMEOUT(every_line_before_eof_block_writes, TP_POSIX, COMPILE_TIMEOUT_S,
	"A child writing 1 to 5000 lines (0 to 200 bytes) in 4096-byte "
	"writes cutting lines anywhere, then _exit(): every line arrives "
	"before EOF, in every round")
{
	compile_sizes(tc, 200, "block");
}

TP_CASE_TIMEOUT(long_lines_before_eof, TP_POSIX, COMPILE_TIMEOUT_S,
	"Lines up to 3000 bytes (a long compiler command line), by line and "
	"by block: the last one arrives whole before EOF")
{
	long rounds = tp_config_long(tc, "compile_iterations",
				     COMPILE_ITERATIONS);
	for (long r = 0; r < rounds; r++) {
		compile(tc, 40, 3000, "line", r);
		compile(tc, 40, 3000, "block", r);
	}
}

TP_CASE(no_output_then_exit_is_plain_eof, TP_POSIX,
	"A child that prints nothing and exits gives EOF with no bytes, and "
	"its exit status 0 is collected")
{
	compile(tc, 0, 10, "line", 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, every_line_before_eof_line_writes);
	ATF_TP_ADD_TC(tp, every_line_before_eof_block_writes);
	ATF_TP_ADD_TC(tp, long_lines_before_eof);
	ATF_TP_ADD_TC(tp, no_output_then_exit_is_plain_eof);
	return atf_no_error();
}
