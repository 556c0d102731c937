// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_kdesu.c: a kdesu-like reader (fixtures/tp_kdesu.c) on a raw pty reads
 * in 4096-byte chunks and splits protocol lines itself.  The case writes
 * numbered protocol lines into the master in bursts of many sizes; every
 * line must arrive exactly once, in order and intact, however the reads
 * cut the stream (the 2.6.31 rework broke readers like kdesu's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_expect.h"

/* The fixture's read size: lines longer than this must span reads. */
#define KDESU_CHUNK 4096

struct stream {
	char *buf;
	size_t len, cap;
	long lines;
};

static void
add_line(struct stream *st, long payload)
{
	size_t need = st->len + (size_t)payload + 64;
	if (need > st->cap) {
		st->cap = need * 2;
		st->buf = realloc(st->buf, st->cap);
		ATF_REQUIRE(st->buf != NULL);
	}
	long seq = st->lines;
	st->len += (size_t)sprintf(st->buf + st->len, "L %ld %ld ", seq, payload);
	for (long i = 0; i < payload; i++)
		st->buf[st->len++] = (char)('a' + (seq * 7 + i) % 26);
	st->buf[st->len++] = '\n';
	st->lines++;
}

static void
add_end(struct stream *st)
{
	char end[64];
	int n = snprintf(end, sizeof(end), "END %ld\n", st->lines);
	st->buf = realloc(st->buf, st->len + (size_t)n + 1);
	ATF_REQUIRE(st->buf != NULL);
	memcpy(st->buf + st->len, end, (size_t)n);
	st->len += (size_t)n;
}

struct summary {
	long lines, reads, max_read, max_lines, split;
};

/* Start the reader (gather = 0: no waiting), send the stream in pieces of
 * the sizes returned by piece(i) (0: all at once), and read the verdict. */
static void
run(const atf_tc_t *tc, struct stream *st, long gather,
    size_t (*piece)(size_t i), struct summary *sum)
{
	struct tp_exp s;
	char garg[32];
	const char *args[] = {garg, NULL};

	snprintf(garg, sizeof(garg), "%ld", gather);
	tp_exp_spawn(&s, tc, "tp_kdesu", gather ? args : NULL);
	tp_exp_expect_exact(&s, "kdesu ready\n", "reader in raw mode");
	for (size_t off = 0, i = 0; off < st->len; i++) {
		size_t n = piece ? piece(i) : st->len;
		if (n > st->len - off)
			n = st->len - off;
		tp_exp_send_bytes(&s, st->buf + off, n, "protocol lines");
		off += n;
	}
	tp_exp_expect(&s, "kdesu * across reads\n", "reader's verdict");
	const char *m;
	size_t mlen = tp_exp_matched(&m);
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)mlen, m);
	if (sscanf(line, "kdesu got %ld lines, %ld reads, max read %ld, max "
			 "lines in a read %ld, %ld lines split", &sum->lines,
		   &sum->reads, &sum->max_read, &sum->max_lines,
		   &sum->split) != 5)
		atf_tc_fail("the reader found a problem: %s",
			    tp_esc(line, strlen(line)));
	ATF_CHECK_EQ_MSG(sum->lines, st->lines, "reader got %ld of %ld lines",
			 sum->lines, st->lines);
	tp_exp_check_exit(tp_exp_wait_exit(&s, "reader exit"), 0, "reader");
	tp_exp_forget(&s);
	free(st->buf);
}

TP_CASE(burst_of_lines_in_one_write, TP_POSIX,
	"300 lines of 60 bytes (19 KB) written at once: the reader's 4096-byte "
	"reads cut lines anywhere, and it still gets each line once, in order")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 300; i++)
		add_line(&st, 60);
	add_end(&st);
	run(tc, &st, 0, NULL, &sum);
}

TP_CASE(busy_reader_overreads_many_lines, TP_POSIX,
	"A reader that comes back after 3000 bytes are queued gets dozens of "
	"lines in one read (it over-reads) and splits them all correctly")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 120; i++)
		add_line(&st, 40);
	add_end(&st);
	/* Lines are 50-52 bytes: 3000 queued bytes hold at least 57 lines. */
	run(tc, &st, 3000, NULL, &sum);
	ATF_CHECK_MSG(sum.max_read >= 3000,
		      "largest read %ld bytes, though 3000 were queued",
		      sum.max_read);
	ATF_CHECK_MSG(sum.max_lines >= 57,
		      "at most %ld lines in one read: the reader did not "
		      "over-read", sum.max_lines);
}

static size_t
odd_pieces(size_t i)
{
	static const size_t sizes[] = {1, 7, 4095, 13, 2, 4097, 100, 3, 999};
	return sizes[i % (sizeof(sizes) / sizeof(sizes[0]))];
}

TP_CASE(lines_cut_at_odd_write_boundaries, TP_POSIX,
	"The stream written in pieces of 1, 7, 4095, 13, 2, 4097, 100, 3 and "
	"999 bytes, cutting lines and numbers anywhere, arrives intact")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 400; i++)
		add_line(&st, (i * 53) % 170);
	add_end(&st);
	run(tc, &st, 0, odd_pieces, &sum);
}

TP_CASE(lines_longer_than_a_read, TP_POSIX,
	"Lines of 5000 to 12000 bytes, longer than the reader's 4096-byte "
	"read, are reassembled from several reads each")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 12; i++)
		add_line(&st, 5000 + i * 631);
	add_end(&st);
	run(tc, &st, 0, NULL, &sum);
	ATF_CHECK_MSG(sum.split >= 12,
		      "only %ld lines spanned reads, all 12 are longer than one",
		      sum.split);
	ATF_CHECK_MSG(sum.max_read <= KDESU_CHUNK, "a read of %ld bytes",
		      sum.max_read);
}

TP_CASE(many_tiny_lines, TP_POSIX,
	"3000 lines of 6 to 12 bytes (empty payloads included) in one burst: "
	"none lost, none doubled")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 3000; i++)
		add_line(&st, i % 4);
	add_end(&st);
	run(tc, &st, 0, NULL, &sum);
}

static size_t
line_bursts(size_t i)
{
	/* Bursts of 1 to 9 protocol lines' worth of bytes, roughly. */
	return 60 + (i * 271) % 700;
}

TP_CASE(mixed_sizes_in_bursts, TP_POSIX,
	"Lines of 0 to 699 bytes written in bursts of 60 to 759 bytes arrive "
	"exactly once, in order")
{
	struct stream st = {0};
	struct summary sum;

	for (int i = 0; i < 500; i++)
		add_line(&st, (i * 131) % 700);
	add_end(&st);
	run(tc, &st, 0, line_bursts, &sum);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, burst_of_lines_in_one_write);
	ATF_TP_ADD_TC(tp, busy_reader_overreads_many_lines);
	ATF_TP_ADD_TC(tp, lines_cut_at_odd_write_boundaries);
	ATF_TP_ADD_TC(tp, lines_longer_than_a_read);
	ATF_TP_ADD_TC(tp, many_tiny_lines);
	ATF_TP_ADD_TC(tp, mixed_sizes_in_bursts);
	return atf_no_error();
}
