// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_write.c: how much one write() to a pty writes.  The tty layer hands a
 * large write to the line discipline in chunks (2 KiB by default), but the
 * caller sees one write: a blocking write returns only once every byte is
 * queued, and a signal that interrupts it after some bytes makes it return
 * that count, never more and never -1.  Programs that write a whole buffer
 * to a terminal without a loop rely on the first rule; the second is what
 * lets a loop resume at the right byte.  Writers to one tty take turns
 * (the tty's write lock, held for a whole write()): a second writer waits
 * for the first write to end, so two processes' writes never interleave,
 * and a signal ends its wait with EINTR, nothing written.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

/* Larger than any pty's buffers (16 KiB of flip buffer + 4 KiB of line
 * discipline), so the writer must wait for the reader. */
#define BIG (256 * 1024)
#define CHUNK 4096

struct big_write {
	int fd;       /* where the child writes BIG pattern bytes at once */
	int count_w;  /* the child writes write()'s result here */
	int end_fd;   /* -1, or: after the write, one 'E' here as an end mark */
};

/* One write() of BIG bytes; its result goes to the case. */
static int
write_big(void *arg)
{
	struct big_write *w = arg;
	static unsigned char buf[BIG];
	int rc = tp_child_interruptible(SIGUSR1);

	if (rc != 0)
		return rc;
	tp_pattern(buf, BIG, 7);
	ssize_t n = write(w->fd, buf, BIG);
	int err = errno;
	if (write(w->count_w, &n, sizeof n) != sizeof n)
		return tp_child_fail("count pipe: %s", strerror(errno));
	if (n < 0)
		return tp_child_fail("write of %d bytes: %s", BIG, strerror(err));
	/* Blocks until the case reads: the pty is still full. */
	if (w->end_fd >= 0 && write(w->end_fd, "E", 1) != 1)
		return tp_child_fail("end mark: %s", strerror(errno));
	return 0;
}

static ssize_t
read_count(int fd)
{
	ssize_t n;
	tp_read_exact(fd, &n, sizeof n, sizeof n, "write()'s result from the writer");
	return n;
}

/* A writer on from, the case reading all BIG bytes on to. */
static void
whole_write(int from, int to, const char *dir)
{
	static unsigned char got[BIG];
	int cp[2];
	struct tp_child c;

	ATF_REQUIRE(pipe(cp) == 0);
	struct big_write w = { .fd = from, .count_w = cp[1], .end_fd = -1 };
	tp_child_start(&c, write_big, &w);
	close(cp[1]);
	tp_read_exact(to, got, BIG, CHUNK, dir);
	ssize_t n = read_count(cp[0]);
	ATF_CHECK_MSG(n == BIG, "%s: one blocking write() of %d bytes returned "
		      "%zd, want all of them", dir, BIG, n);
	long bad = tp_pattern_check(got, BIG, 7);
	ATF_CHECK_MSG(bad < 0, "%s: byte %ld differs from what was written",
		      dir, bad);
	tp_child_join(&c, TP_WAIT_MS, "the writer");
	close(cp[0]);
}

TP_CASE(blocking_write_is_whole, TP_LINUX,
	"One blocking write() of 256 KiB to a raw pty, slave to master and "
	"master to slave, while the other side reads, returns 262144: the "
	"tty layer's chunking never shows as a short write")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	whole_write(p.slave, p.master, "slave to master");
	whole_write(p.master, p.slave, "master to slave");
	tp_pty_close(&p);
}

TP_CASE(interrupted_write_returns_count, TP_POSIX,
	"A blocking write() of 256 KiB to a pty slave nobody reads, "
	"interrupted by a caught signal (no SA_RESTART) once it sleeps, "
	"returns the bytes it queued (more than 0, fewer than all), and the "
	"master reads exactly those bytes, in order, before what is written "
	"next")
{
	static unsigned char got[BIG + 1];
	struct tp_pty p;
	struct tp_child c;
	int cp[2];

	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE(pipe(cp) == 0);
	struct big_write w = { .fd = p.slave, .count_w = cp[1], .end_fd = p.slave };
	tp_child_start(&c, write_big, &w);
	close(cp[1]);
	tp_wait_blocked(c.pid, SYS_write, "writer asleep in write(2), the pty full");
	ATF_REQUIRE(kill(c.pid, SIGUSR1) == 0);
	ssize_t n = read_count(cp[0]);
	ATF_REQUIRE_MSG(n > 0 && n < BIG, "interrupted write() returned %zd, "
			"want the bytes queued before the signal (0 < n < %d)",
			n, BIG);
	/* The n bytes, then the end mark written after the write returned:
	 * a byte queued beyond the count would stand where 'E' should. */
	tp_read_exact(p.master, got, (size_t)n + 1, CHUNK,
		      "the interrupted write's bytes and the end mark");
	long bad = tp_pattern_check(got, (size_t)n, 7);
	ATF_CHECK_MSG(bad < 0, "byte %ld of the %zd written differs", bad, n);
	ATF_CHECK_MSG(got[n] == 'E', "after the %zd bytes write() reported "
		      "comes 0x%02x, not the end mark: more was queued than "
		      "reported", n, got[n]);
	tp_child_join(&c, TP_WAIT_MS, "the interrupted writer");
	close(cp[0]);
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- writers take turns */

#define SMALL 64

struct small_write {
	int fd;
	int res_w; /* write()'s result and errno */
};

/* One write() of SMALL 'B's, interruptible by SIGUSR1. */
static int
write_small(void *arg)
{
	struct small_write *w = arg;
	char buf[SMALL];
	int rc = tp_child_interruptible(SIGUSR1);

	if (rc != 0)
		return rc;
	memset(buf, 'B', sizeof buf);
	ssize_t r[2];
	r[0] = write(w->fd, buf, sizeof buf);
	r[1] = errno;
	if (write(w->res_w, r, sizeof r) != sizeof r)
		return tp_child_fail("result pipe: %s", strerror(errno));
	return 0;
}

struct two_writers {
	struct tp_child big, small;
	int big_r, small_r; /* their results */
};

/* The first writer asleep in its BIG write to the slave nobody reads (the
 * pty full), then the second asleep in its write behind it. */
static void
start_two_writers(struct tp_pty *p, struct two_writers *t)
{
	int cp[2];
	ATF_REQUIRE(pipe(cp) == 0);
	struct big_write w = { .fd = p->slave, .count_w = cp[1], .end_fd = -1 };
	tp_child_start(&t->big, write_big, &w);
	close(cp[1]);
	t->big_r = cp[0];
	tp_wait_blocked(t->big.pid, SYS_write, "the first writer asleep in write(2), the pty full");
	ATF_REQUIRE(pipe(cp) == 0);
	struct small_write s = { .fd = p->slave, .res_w = cp[1] };
	tp_child_start(&t->small, write_small, &s);
	close(cp[1]);
	t->small_r = cp[0];
	tp_wait_blocked(t->small.pid, SYS_write,
			"the second writer asleep in write(2) behind the first");
}

static void
small_result(struct two_writers *t, ssize_t r[2])
{
	tp_read_exact(t->small_r, r, 2 * sizeof *r, 2 * sizeof *r,
		      "the second write()'s result");
}

TP_CASE(second_writer_waits_for_the_first_write, TP_LINUX,
	"While one write() of 256 KiB to a pty slave sleeps (the pty full), a "
	"second process's write() of 64 bytes to it sleeps too, and its bytes "
	"come only after all of the first write's: the master reads the 256 "
	"KiB unbroken, then the 64; both writes return their whole count")
{
	static unsigned char got[BIG + SMALL];
	struct tp_pty p;
	struct two_writers t;
	ssize_t r[2];

	tp_pty_open(&p, TP_RAW);
	start_two_writers(&p, &t);
	tp_read_exact(p.master, got, sizeof got, CHUNK, "both writes' bytes");
	long bad = tp_pattern_check(got, BIG, 7);
	ATF_CHECK_MSG(bad < 0, "byte %ld of the first write differs: the second "
		      "write's bytes came in between", bad);
	size_t bs = 0;
	for (size_t i = BIG; i < sizeof got; i++)
		bs += got[i] == 'B';
	ATF_CHECK_MSG(bs == SMALL, "after the first write's %d bytes come %zu of the "
		      "second's %d", BIG, bs, SMALL);
	ATF_CHECK_EQ_MSG(read_count(t.big_r), BIG, "the first write() returned less");
	small_result(&t, r);
	ATF_CHECK_MSG(r[0] == SMALL, "the second write() returned %zd (%s), want %d",
		      r[0], strerror((int)r[1]), SMALL);
	tp_child_join(&t.big, TP_WAIT_MS, "the first writer");
	tp_child_join(&t.small, TP_WAIT_MS, "the second writer");
	close(t.big_r);
	close(t.small_r);
	tp_pty_close(&p);
}

TP_CASE(writer_waiting_behind_another_ends_eintr, TP_POSIX,
	"A write() to a pty slave asleep behind another process's write() "
	"(the pty full), interrupted by a caught signal (no SA_RESTART), fails "
	"with EINTR having written nothing: the master reads the other write's "
	"bytes and then only what is written next")
{
	static unsigned char got[BIG + 1];
	struct tp_pty p;
	struct two_writers t;
	ssize_t r[2];

	tp_pty_open(&p, TP_RAW);
	start_two_writers(&p, &t);
	ATF_REQUIRE(kill(t.small.pid, SIGUSR1) == 0);
	small_result(&t, r);
	ATF_CHECK_MSG(r[0] == -1 && r[1] == EINTR, "the interrupted write() "
		      "returned %zd (%s), want -1 EINTR", r[0],
		      r[0] < 0 ? strerror((int)r[1]) : "no error");
	tp_read_exact(p.master, got, BIG, CHUNK, "the first write's bytes");
	ATF_CHECK_EQ_MSG(read_count(t.big_r), BIG, "the first write() returned less");
	tp_write_all(p.slave, "E", 1, "the end mark");
	tp_read_exact(p.master, got + BIG, 1, 1, "the end mark");
	long bad = tp_pattern_check(got, BIG, 7);
	ATF_CHECK_MSG(bad < 0, "byte %ld of the first write differs", bad);
	ATF_CHECK_MSG(got[BIG] == 'E', "after the first write comes 0x%02x, not the "
		      "end mark: the interrupted write queued bytes", got[BIG]);
	tp_child_join(&t.big, TP_WAIT_MS, "the first writer");
	tp_child_join(&t.small, TP_WAIT_MS, "the interrupted writer");
	close(t.big_r);
	close(t.small_r);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, blocking_write_is_whole);
	ATF_TP_ADD_TC(tp, interrupted_write_returns_count);
	ATF_TP_ADD_TC(tp, second_writer_waits_for_the_first_write);
	ATF_TP_ADD_TC(tp, writer_waiting_behind_another_ends_eintr);
	return atf_no_error();
}
