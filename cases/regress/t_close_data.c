// SPDX-License-Identifier: GPL-2.0-only
/* t_close_data.c: data written to a pty just before its writer closes it
 * (regressions.md #1, #3, #4, #18), each checked with the catalogue's exact
 * recipe.  close/t_sigchld_data.c covers the variations (exec'd writers,
 * epoll, holders); these are the catalogue rows as written, looped a named
 * number of times (Kyua variable race_iterations). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttypot.h"

#define N_1 1000         /* #1: bytes the child writes */
#define N_3 3000         /* #3 */
#define N_4 65536        /* #4: more than the pty holds: read concurrently */
#define CHUNK_4 4096     /* #4: reads that fill the ldisc buffer exactly */
#define N_18 16384       /* #18: master stream before its close */
#define ITER_DEFAULT 20

static unsigned char wbuf[N_4];
static unsigned char rbuf[N_4];

struct writer_arg {
	int fd;
	size_t n;
};

static int
write_then_exit(void *arg)
{
	struct writer_arg *w = arg;
	size_t off = 0;
	while (off < w->n) {
		ssize_t k = write(w->fd, wbuf + off, w->n - off);
		if (k <= 0)
			return tp_child_fail("slave write at %zu: %s", off,
					     k < 0 ? strerror(errno) : "0");
		off += (size_t)k;
	}
	return 0; /* the child _exits with the slave still open */
}

/* Fork the writer of n bytes on a raw slave; the parent keeps no slave. */
static void
start_writer(struct tp_pty *p, struct tp_child *c, struct writer_arg *w,
	     size_t n, unsigned seed)
{
	tp_pty_open(p, TP_RAW);
	tp_pattern(wbuf, n, seed);
	w->fd = p->slave;
	w->n = n;
	tp_child_start(c, write_then_exit, w);
	tp_close_slave(p);
}

static void
check_all_then_eio(const struct tp_drain *d, size_t n, unsigned seed,
		   long iter, const char *what)
{
	if (d->got != n)
		atf_tc_fail("%s, iteration %ld: read %zu of %zu bytes before %s",
			    what, iter, d->got, n,
			    d->eof ? "EOF" : strerror(d->err));
	long bad = tp_pattern_check(rbuf, n, seed);
	if (bad >= 0)
		atf_tc_fail("%s, iteration %ld: byte %ld differs", what, iter,
			    bad);
	if (d->eof || d->err != EIO)
		atf_tc_fail("%s, iteration %ld: after the data: %s, want EIO",
			    what, iter, d->eof ? "EOF" : strerror(d->err));
}

TP_CASE_COMMITS(data_before_eio_after_waitpid, TP_LINUX, "d945cb9cce20",
		"3a54297478e6",
		"#1 (2.6.31, emacs compile): a child writes 1000 bytes to the raw "
		"slave and _exits; after waitpid the master reads exactly the "
		"1000 bytes, then EIO (race_iterations times)")
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT);

	for (long i = 0; i < iters; i++) {
		struct tp_pty p;
		struct tp_child c;
		struct writer_arg w;
		struct tp_drain d;

		start_writer(&p, &c, &w, N_1, (unsigned)i);
		tp_child_join(&c, TP_WAIT_MS, "writer exit");
		tp_drain(p.master, rbuf, N_1, N_1, TP_WAIT_MS, &d,
			 "master read after waitpid");
		check_all_then_eio(&d, N_1, (unsigned)i, i, "#1");
		tp_pty_close(&p);
	}
}

static void
nonblock_after_exit(const atf_tc_t *tc, bool poll_first)
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT);

	for (long i = 0; i < iters; i++) {
		struct tp_pty p;
		struct tp_child c;
		struct writer_arg w;
		struct tp_drain d;

		start_writer(&p, &c, &w, N_3, (unsigned)i + 7);
		tp_child_join(&c, TP_WAIT_MS, "writer exit");
		tp_set_nonblock(p.master, true);
		if (poll_first) {
			short re = tp_poll1(p.master, POLLIN, 0);
			if (!(re & POLLIN))
				atf_tc_fail("iteration %ld: poll right after "
					    "waitpid: revents 0x%x without "
					    "POLLIN, 3000 bytes unread", i,
					    (unsigned)re);
		}
		tp_drain(p.master, rbuf, N_3, N_3, TP_WAIT_MS, &d,
			 "non-blocking master read after waitpid");
		check_all_then_eio(&d, N_3, (unsigned)i + 7, i, "#3");
		if (d.eagain)
			atf_tc_fail("iteration %ld: %d EAGAIN while slave output "
				    "was still unread (OpenSSH saw EOF)", i,
				    d.eagain);
		tp_pty_close(&p);
	}
}

TP_CASE_COMMITS(nonblock_read_no_eagain_after_exit, TP_LINUX, "f8747d4a466a",
		"0f40fbbcc34e",
		"#3 (OpenSSH): a child writes 3000 bytes to the raw slave and "
		"exits; the parent closes its slave, waits, and a non-blocking "
		"master read loop gets 3000 bytes then EIO, never EAGAIN")
{
	nonblock_after_exit(tc, false);
}

TP_CASE_COMMITS(poll_then_read_after_exit, TP_LINUX, "f8747d4a466a",
		"0f40fbbcc34e",
		"#3 with poll first: right after waitpid, poll(master, 0) reports "
		"POLLIN and the non-blocking read loop gets 3000 bytes then EIO, "
		"never EAGAIN")
{
	nonblock_after_exit(tc, true);
}

TP_CASE_COMMITS(full_buffer_reads_before_eio, TP_LINUX, "-", "1a48632ffed6",
		"#4: a child writes 64 KiB to the raw slave and exits while the "
		"parent reads the master in 4096-byte reads: all 65536 bytes "
		"arrive before EIO (race_iterations / 4 rounds, at least 1)")
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT) / 4;

	for (long i = 0; i < (iters > 0 ? iters : 1); i++) {
		struct tp_pty p;
		struct tp_child c;
		struct tp_drain d;
		struct writer_arg w;

		start_writer(&p, &c, &w, N_4, (unsigned)i + 99);
		tp_drain(p.master, rbuf, N_4, CHUNK_4, TP_WAIT_MS, &d,
			 "4096-byte master reads while the writer runs");
		tp_child_join(&c, TP_WAIT_MS, "writer exit");
		/* EIO with bytes missing that a further read returns:
		 * fixtures/findings/n_tty-eio-race. */
		if (d.got < N_4 && !d.eof && d.err == EIO) {
			ssize_t more = read(p.master, rbuf + d.got, N_4 - d.got);
			if (more > 0) {
				tp_pty_close(&p);
				tp_fail_eio_race("#4, iteration %ld: read %zu of %d "
						 "bytes before EIO; a further read "
						 "returned %zd", i, d.got, N_4, more);
			}
		}
		check_all_then_eio(&d, N_4, (unsigned)i + 99, i, "#4");
		tp_pty_close(&p);
	}
}

/* #18: the slave side reads until the hangup, then checks that what it got
 * is the stream in order: runs of consecutive stream bytes, each run later
 * in the stream than the one before.  A run is re-found by RESYNC bytes
 * matching the pattern at a later position. */
#define RESYNC 32

static unsigned char
stream_byte(size_t j)
{
	unsigned char c;
	/* tp_pattern of one byte at offset j, seed 18. */
	c = (unsigned char)('0' + (j * 7 + 18 + j / 75) % 75);
	return c;
}

static bool
run_matches(size_t k, size_t got, size_t j)
{
	size_t n = got - k < RESYNC ? got - k : RESYNC;
	if (j + n > N_18)
		return false;
	for (size_t i = 0; i < n; i++)
		if (rbuf[k + i] != stream_byte(j + i))
			return false;
	return true;
}

static int
ordered_reader(void *arg)
{
	struct tp_pty *p = arg;
	int fd = p->slave;
	size_t got = 0, j = 0, k = 0;
	int gaps = 0;
	char note[200] = "";

	close(p->master); /* the parent's close must be the last one */
	for (;;) {
		ssize_t n = read(fd, rbuf + got, sizeof(rbuf) - got);
		if (n == 0 || (n < 0 && errno == EIO))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tp_child_fail("slave read: %s", strerror(errno));
		got += (size_t)n;
		if (got > N_18)
			return tp_child_fail("slave read %zu bytes, more than "
					     "the %d written", got, N_18);
	}
	while (k < got) {
		if (j < N_18 && rbuf[k] == stream_byte(j)) {
			k++;
			j++;
			continue;
		}
		size_t next = j + 1;
		while (next < N_18 && !run_matches(k, got, next))
			next++;
		if (next >= N_18)
			return tp_child_fail("slave byte %zu (of %zu) continues "
					     "no later part of the stream: "
					     "reordered, repeated or made up",
					     k, got);
		if (!gaps)
			snprintf(note, sizeof(note), "first gap: byte %zu of "
				 "the read is stream byte %zu", k, next);
		gaps++;
		j = next;
	}
	if (gaps)
		dprintf(1, "#18 seen: %d gap(s) in %zu bytes read (%s)\n", gaps,
			got, note);
	return 0;
}

TP_CASE_COMMITS(master_close_slave_gets_ordered_runs, TP_LINUX,
		"33d4ae988598", "- (fix reverted in 5.12; open)",
		"#18 (open issue, characterised): the master writes a 16 KiB "
		"stream in 1000-byte writes and closes while a raw slave reader "
		"runs; the reader ends with EOF/EIO and gets the stream in order "
		"(nothing reordered, repeated or made up).  The open bug, a "
		"middle chunk dropped at the hangup, shows on 6.18 in about 1 "
		"of 50 rounds: printed, not failed")
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT) / 4;

	tp_pattern(wbuf, N_18, 18);
	for (long i = 0; i < (iters > 0 ? iters : 1); i++) {
		struct tp_pty p;
		struct tp_child c;

		tp_pty_open(&p, TP_RAW);
		tp_child_start(&c, ordered_reader, &p);
		tp_close_slave(&p);
		for (size_t off = 0; off < N_18; off += 1000) {
			size_t n = N_18 - off < 1000 ? N_18 - off : 1000;
			tp_write_all(p.master, wbuf + off, n, "master stream");
		}
		tp_close_master(&p);
		tp_child_join(&c, TP_WAIT_MS, "slave reader");
		tp_pty_close(&p);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, data_before_eio_after_waitpid);
	ATF_TP_ADD_TC(tp, nonblock_read_no_eagain_after_exit);
	ATF_TP_ADD_TC(tp, poll_then_read_after_exit);
	ATF_TP_ADD_TC(tp, full_buffer_reads_before_eio);
	ATF_TP_ADD_TC(tp, master_close_slave_gets_ordered_runs);
	return atf_no_error();
}
