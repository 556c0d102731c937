// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_overread.c: readers that ask for more (or less) than one write's worth.
 *
 * kdesu-style programs read the master with a large buffer and parse a
 * prompt out of whatever comes back.  Separate writes may coalesce into one
 * read; the kernel must still deliver every byte once, in order, and a
 * canonical read must still stop at a line end.  Also the 5.11 read rework
 * regressions: reads capped at 64 bytes (#10) and 64-char lines split (#13).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* read() once, after poll says it will not block. */
static ssize_t
read_once(int fd, void *buf, size_t len, const char *what)
{
	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	errno = 0;
	ssize_t n = read(fd, buf, len);
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	return n;
}

/* In a child: write all of buf, blocking (the child's alarm bounds it). */
static int
child_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return tp_child_fail("slave write: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---------------------------------------------------------------- coalescing */

/* Record sizes around the 64-byte and 4096-byte boundaries of the tty
 * layer, written one write() each. */
static const size_t record_sizes[] = {1,   2,   3,    7,    10,   63,
				      64,  65,  100,  511,  512,  1000,
				      4095, 4096, 4097, 8191, 1,   13};
#define RECORD_SEED 11

struct records_arg {
	struct tp_pty *p;
	const char *data;
};

static int
write_records(void *arg)
{
	struct records_arg *a = arg;
	size_t off = 0;

	close(a->p->master);
	for (size_t i = 0; i < sizeof(record_sizes) / sizeof(record_sizes[0]);
	     i++) {
		if (child_write(a->p->slave, a->data + off, record_sizes[i]))
			return 1;
		off += record_sizes[i];
	}
	return 0;
}

/* One exchange: a child writes the records to the raw slave and exits;
 * the case reads the master in reads of bufsize bytes until EIO: every
 * byte, in order, then EIO.  EIO before the last bytes while a further
 * read returns them is fixtures/findings/n_tty-eio-race (tp_fail_eio_race);
 * any other shortfall fails plainly. */
static void
read_records_with(size_t bufsize)
{
	struct tp_pty p;
	struct tp_child c;
	struct tp_drain d;
	size_t total = 0;

	for (size_t i = 0; i < sizeof(record_sizes) / sizeof(record_sizes[0]);
	     i++)
		total += record_sizes[i];
	char *out = malloc(total), *in = malloc(total);
	ATF_REQUIRE(out != NULL && in != NULL);
	tp_pattern(out, total, RECORD_SEED);
	tp_pty_open(&p, TP_RAW);
	tp_set_nonblock(p.master, true);
	struct records_arg a = {.p = &p, .data = out};
	tp_child_start(&c, write_records, &a);
	/* Only the writer holds the slave: EIO marks its exit. */
	tp_close_slave(&p);
	tp_drain(p.master, in, total, bufsize, TP_WAIT_MS, &d,
		 "master reads of the writer's records");
	/* Short of the total: is the rest still queued (EOF reported with
	 * output unread) or gone (lost before it reached the master)? */
	int queued = -1;
	ssize_t more = 0;
	if (d.got < total) {
		if (ioctl(p.master, FIONREAD, &queued) != 0)
			queued = -1;
		more = read(p.master, in + d.got, total - d.got);
	}
	tp_child_join(&c, TP_WAIT_MS, "record writer");
	tp_pty_close(&p);
	if (d.got < total) {
		char early[300];
		snprintf(early, sizeof(early), "read %zu of %zu bytes before %s; then "
			 "FIONREAD said %d and a further read returned %zd", d.got,
			 total, d.eof ? "EOF" : strerror(d.err), queued, more);
		free(out);
		free(in);
		if (d.eof || d.err != EIO || more <= 0)
			atf_tc_fail("%s", early);
		tp_fail_eio_race("%s", early);
	}
	long bad = tp_pattern_check(in, d.got, RECORD_SEED);
	ATF_CHECK_MSG(bad == -1, "byte %ld differs (lost, duplicated or "
				 "reordered data)", bad);
	ATF_CHECK_MSG(!d.eof && d.err == EIO, "reads ended with %s, not EIO",
		      d.eof ? "EOF" : strerror(d.err));
	ATF_CHECK_MSG((size_t)d.max_read <= bufsize,
		      "a read returned %d bytes with a %zu-byte buffer",
		      d.max_read, bufsize);
	free(out);
	free(in);
}

TP_CASE(coalesced_records_buf1, TP_POSIX,
	"18 records of 1..8191 bytes written to the raw slave are read on the "
	"master 1 byte at a time: every byte once, in order, then EIO")
{
	read_records_with(1);
}

TP_CASE(coalesced_records_buf7, TP_POSIX,
	"18 records of 1..8191 bytes written to the raw slave are read on the "
	"master with a 7-byte buffer: every byte once, in order, then EIO")
{
	read_records_with(7);
}

TP_CASE(coalesced_records_buf4096, TP_POSIX,
	"18 records of 1..8191 bytes written to the raw slave are read on the "
	"master with a 4096-byte buffer: every byte once, in order, then EIO")
{
	read_records_with(4096);
}

TP_CASE(coalesced_records_buf64k, TP_POSIX,
	"18 records of 1..8191 bytes written to the raw slave are read on the "
	"master with a 64 KiB buffer: every byte once, in order, then EIO")
{
	read_records_with(65536);
}

/* ---------------------------------------------------------------- canonical */

/* 6000 bytes (400 lines of 15) written to the master, 4095 of them queued
 * on the slave (273 lines; its buffer, less one), the rest waiting in the
 * pty; a read of one line (or, non-canonical, of 15 bytes) makes room, and
 * the waiting input must move in without another read: FIONREAD back at
 * 4095.  Then all 6000 bytes, in order. */
static void
full_queue_refills(bool canonical)
{
	struct tp_pty p;
	static char out[6000], in[6000];

	if (canonical)
		tp_canon_open(&p, 0, 0);
	else
		tp_noncanon_open(&p, 1, 0);
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = i % 15 == 14 ? '\n' : (char)('a' + (i / 15) % 26);
	tp_write_all(p.master, out, sizeof(out), "master write of 6000 bytes");
	tp_wait_fionread(p.slave, 4095, TP_WAIT_MS, "4095 bytes queued on the slave");
	ATF_REQUIRE_EQ_MSG(read(p.slave, in, 15), 15, "a read of one line (15 "
			   "bytes) from a full queue");
	tp_wait_fionread(p.slave, 4095, TP_WAIT_MS, "the queue back at 4095 "
			 "after the read made room");
	size_t got = 15;
	while (got < sizeof(in)) {
		tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "the rest of the 6000 bytes");
		ssize_t n = read(p.slave, in + got, sizeof(in) - got);
		ATF_REQUIRE_MSG(n > 0, "read after %zu of 6000 bytes: %zd (%s)",
				got, n, n < 0 ? strerror(errno) : "end");
		got += (size_t)n;
	}
	ATF_CHECK_MSG(memcmp(in, out, sizeof(in)) == 0, "the 6000 bytes read "
		      "back differ from what was written");
	tp_pty_close(&p);
}

TP_CASE(small_read_of_a_full_queue_lets_waiting_input_in, TP_LINUX,
	"6000 bytes (400 lines of 15) written to the master: the slave's line "
	"discipline holds 4095 of them (its buffer, less one) and the rest "
	"wait in the pty; a read of one line in canonical mode, and of 15 "
	"bytes in non-canonical mode, makes room, and the waiting input moves "
	"in without another read (FIONREAD is back at 4095); then all 6000 "
	"bytes read back once, in order")
{
	full_queue_refills(true);
	full_queue_refills(false);
}

TP_CASE(canon_big_buffer_reads_one_line, TP_POSIX,
	"With several lines queued, each canonical read with a 64 KiB buffer "
	"returns exactly one line")
{
	struct tp_pty p;
	static char buf[65536];
	static const char *lines[] = {"one\n", "two\n", "three\n"};

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_write_str(p.master, "one\ntwo\nthree\n", "master write of 3 lines");
	tp_wait_fionread(p.slave, 14, TP_WAIT_MS, "3 lines queued on the slave");
	for (int i = 0; i < 3; i++) {
		ssize_t n = read_once(p.slave, buf, sizeof(buf), "slave line read");
		size_t want = strlen(lines[i]);
		ATF_CHECK_MSG((size_t)n == want && memcmp(buf, lines[i], want) == 0,
			      "read %d returned %zd bytes \"%.*s\", expected %s",
			      i + 1, n, (int)(n > 20 ? 20 : n), buf, lines[i]);
	}
	int left = -1;
	ioctl(p.slave, FIONREAD, &left);
	ATF_CHECK_MSG(left == 0, "%d bytes left after the three lines", left);
	tp_pty_close(&p);
}

TP_CASE(canon_line_4095_plus_newline, TP_LINUX,
	"A canonical line of exactly 4095 characters plus newline fills the "
	"4096-byte line buffer: one big read returns all 4096 bytes intact, "
	"and the following queued line comes in the next read")
{
	struct tp_pty p;
	static char out[4101], buf[65536];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_pattern(out, 4095, 5);
	out[4095] = '\n';
	memcpy(out + 4096, "next\n", 5);
	tp_write_all(p.master, out, sizeof(out), "master write of 4096+5 bytes");
	tp_wait_fionread(p.slave, 4096, TP_WAIT_MS, "4096-byte line on the slave");
	ssize_t n = read_once(p.slave, buf, sizeof(buf), "read of the long line");
	ATF_CHECK_MSG(n == 4096, "long line read returned %zd bytes", n);
	if (n == 4096) {
		ATF_CHECK_MSG(tp_pattern_check(buf, 4095, 5) == -1 &&
				      buf[4095] == '\n',
			      "long line content differs");
	}
	n = read_once(p.slave, buf, sizeof(buf), "read of the next line");
	ATF_CHECK_MSG(n == 5 && memcmp(buf, "next\n", 5) == 0,
		      "next line read returned %zd bytes", n);
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- prompts */

#define PROMPT "Password: "
#define ANSWER "secret\n"

struct prompt_arg {
	struct tp_pty *p;
	bool wait_answer;  /* su-like: wait for the answer before going on */
};

/* A su-like child: echo off first (as getpass does), prompt, maybe wait
 * for the answer, more output, exit. */
static int
prompter(void *arg)
{
	struct prompt_arg *a = arg;
	int s = a->p->slave;
	struct termios t;
	char buf[64];

	close(a->p->master);
	if (tcgetattr(s, &t) != 0)
		return tp_child_fail("tcgetattr: %s", strerror(errno));
	t.c_lflag &= ~(tcflag_t)ECHO;
	if (tcsetattr(s, TCSANOW, &t) != 0)
		return tp_child_fail("tcsetattr: %s", strerror(errno));
	if (child_write(s, PROMPT, strlen(PROMPT)))
		return 1;
	if (a->wait_answer) {
		struct pollfd pfd = {.fd = s, .events = POLLIN};
		if (poll(&pfd, 1, TP_WAIT_MS) != 1)
			return tp_child_fail("no answer within %d ms", TP_WAIT_MS);
		ssize_t n = read(s, buf, sizeof(buf));
		if (n != (ssize_t)strlen(ANSWER) || memcmp(buf, ANSWER, (size_t)n))
			return tp_child_fail("answer read returned %zd bytes", n);
		return child_write(s, "\nAuthenticated.\nsome output\n", 28);
	}
	return child_write(s, "\nmore output after the prompt\n", 30);
}

TP_CASE(prompt_then_output_big_reads, TP_POSIX,
	"A su-like child prints a prompt, waits for the answer, then prints "
	"more: a reader using 64 KiB reads gets the prompt, then the rest, each "
	"exactly once and in order, with no echo of the answer")
{
	struct tp_pty p;
	struct tp_child c;
	struct tp_drain d;
	static char buf[65536];
	const char *rest = "\r\nAuthenticated.\r\nsome output\r\n";
	size_t got = 0;

	tp_pty_open(&p, TP_COOKED);
	tp_set_nonblock(p.master, true);
	struct prompt_arg a = {.p = &p, .wait_answer = true};
	tp_child_start(&c, prompter, &a);
	tp_close_slave(&p);
	while (got < strlen(PROMPT)) {
		tp_wait_poll(p.master, POLLIN, TP_WAIT_MS, "the prompt");
		ssize_t n = read(p.master, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n <= 0)
			atf_tc_fail("reading the prompt: %zd (%s) after %zu bytes",
				    n, strerror(errno), got);
		got += (size_t)n;
	}
	/* The child waits for the answer: nothing beyond the prompt yet. */
	ATF_REQUIRE_MSG(got == strlen(PROMPT) &&
				memcmp(buf, PROMPT, strlen(PROMPT)) == 0,
			"prompt read as \"%.*s\"", (int)got, buf);
	tp_write_str(p.master, ANSWER, "the answer");
	tp_drain(p.master, buf, sizeof(buf), sizeof(buf), TP_WAIT_MS, &d,
		 "output after the answer");
	tp_child_join(&c, TP_WAIT_MS, "su-like prompter");
	ATF_CHECK_MSG(d.got == strlen(rest) && memcmp(buf, rest, d.got) == 0,
		      "after the answer read %zu bytes \"%.*s\", expected \"%s\"",
		      d.got, (int)(d.got > 80 ? 80 : d.got), buf, rest);
	ATF_CHECK_MSG(!d.eof && d.err == EIO, "reads ended with %s, not EIO",
		      d.eof ? "EOF" : strerror(d.err));
	tp_pty_close(&p);
}

TP_CASE(read_exactly_prompt_keeps_rest, TP_POSIX,
	"A reader that reads exactly the prompt's length, while more output "
	"is already queued behind it, gets that output in its next read")
{
	struct tp_pty p;
	struct tp_child c;
	struct tp_drain d;
	static char buf[65536];
	const char *rest = "\r\nmore output after the prompt\r\n";

	tp_pty_open(&p, TP_COOKED);
	tp_set_nonblock(p.master, true);
	struct prompt_arg a = {.p = &p, .wait_answer = false};
	tp_child_start(&c, prompter, &a);
	tp_close_slave(&p);
	tp_wait_fionread(p.master, (int)(strlen(PROMPT) + strlen(rest)),
			 TP_WAIT_MS, "prompt and more output queued");
	ssize_t n = read(p.master, buf, strlen(PROMPT));
	ATF_REQUIRE_MSG(n == (ssize_t)strlen(PROMPT) &&
				memcmp(buf, PROMPT, strlen(PROMPT)) == 0,
			"prompt read returned %zd", n);
	tp_drain(p.master, buf, sizeof(buf), sizeof(buf), TP_WAIT_MS, &d,
		 "output after the prompt");
	tp_child_join(&c, TP_WAIT_MS, "prompter");
	ATF_CHECK_MSG(d.got == strlen(rest) && memcmp(buf, rest, d.got) == 0,
		      "after the prompt read %zu bytes \"%.*s\", expected \"%s\"",
		      d.got, (int)(d.got > 80 ? 80 : d.got), buf, rest);
	ATF_CHECK_MSG(!d.eof && d.err == EIO, "reads ended with %s, not EIO",
		      d.eof ? "EOF" : strerror(d.err));
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- regressions */

TP_CASE_META(read_not_capped_at_64, TP_LINUX,
	  "Regression #10: with 4000 bytes queued on the master, one "
	  "read(8192) returns all 4000 (5.11 returned at most 64 per read)",
	     TP_TAG_COMMITS(tc, "3b830a9c34d5 (5.11)",
	       "15ea8ae8e03f, d7fe75cbc23c, e71a8d5cf4b4"))
{
	struct tp_pty p;
	static char out[4000], buf[8192];

	tp_pty_open(&p, TP_RAW);
	tp_pattern(out, sizeof(out), 9);
	tp_write_all(p.slave, out, sizeof(out), "raw slave write of 4000 bytes");
	int avail = tp_wait_fionread(p.master, 4000, TP_WAIT_MS,
				     "4000 bytes queued on the master");
	ATF_REQUIRE_MSG(avail == 4000, "FIONREAD(master) = %d", avail);
	ssize_t n = read_once(p.master, buf, sizeof(buf), "read(master, 8192)");
	ATF_CHECK_MSG(n == 4000, "one read returned %zd of 4000 bytes", n);
	ATF_CHECK(tp_pattern_check(buf, n > 0 ? (size_t)n : 0, 9) == -1);
	tp_pty_close(&p);
}

TP_CASE_META(canon_64_char_line_not_split, TP_LINUX,
	  "Regression #13: a canonical line of 64 chars + newline then "
	  "\"bb\\n\" read with a 4096-byte buffer gives reads of 65 (ending "
	  "in newline) then 3",
	     TP_TAG_COMMITS(tc, "3b830a9c34d5 (5.11)", "359303076163 (5.17)"))
{
	struct tp_pty p;
	char out[65], buf[4096];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	memset(out, 'a', 64);
	out[64] = '\n';
	tp_write_all(p.master, out, sizeof(out), "master write of 64 a + NL");
	tp_write_str(p.master, "bb\n", "master write of bb");
	tp_wait_fionread(p.slave, 68, TP_WAIT_MS, "both lines on the slave");
	ssize_t n = read_once(p.slave, buf, sizeof(buf), "first line read");
	ATF_CHECK_MSG(n == 65 && memcmp(buf, out, 65) == 0,
		      "first read returned %zd bytes, last 0x%02x", n,
		      n > 0 ? (unsigned char)buf[n - 1] : 0);
	n = read_once(p.slave, buf, sizeof(buf), "second line read");
	ATF_CHECK_MSG(n == 3 && memcmp(buf, "bb\n", 3) == 0,
		      "second read returned %zd bytes", n);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, coalesced_records_buf1);
	ATF_TP_ADD_TC(tp, coalesced_records_buf7);
	ATF_TP_ADD_TC(tp, coalesced_records_buf4096);
	ATF_TP_ADD_TC(tp, coalesced_records_buf64k);
	ATF_TP_ADD_TC(tp, small_read_of_a_full_queue_lets_waiting_input_in);
	ATF_TP_ADD_TC(tp, canon_big_buffer_reads_one_line);
	ATF_TP_ADD_TC(tp, canon_line_4095_plus_newline);
	ATF_TP_ADD_TC(tp, prompt_then_output_big_reads);
	ATF_TP_ADD_TC(tp, read_exactly_prompt_keeps_rest);
	ATF_TP_ADD_TC(tp, read_not_capped_at_64);
	ATF_TP_ADD_TC(tp, canon_64_char_line_not_split);
	return atf_no_error();
}
