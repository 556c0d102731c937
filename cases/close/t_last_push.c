// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_last_push.c: the writer's last output lands while the reader already
 * waits.  A reader child sleeps in read() (or poll()) on the master; only
 * then does the writer child, the only holder of the slave, write 4000
 * bytes and _exit.  Every byte must reach the reader before EIO, and poll
 * must not report the hangup alone while bytes are still to come.
 *
 * This is the order in which emacs, expect and ssh meet a child's exit:
 * they are already waiting when it prints its last lines.  The kernel must
 * push those lines to the reader before it reports the close
 * (fixtures/findings/n_tty-eio-race: n_tty tests TTY_OTHER_CLOSED after
 * its flush, so a last push and a close that both land during the flush
 * give EIO with the lines still queued).  Loops race_iterations times.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

#define LAST_BYTES 4000 /* fits the master's ldisc and flip buffer unread */
#define LAST_CHUNK 100  /* one write per line, as a compiler prints */
#define ITER_DEFAULT 100
/* Race hunts loop: under TCG an iteration costs up to ~150 ms. */
#define LAST_PUSH_TIMEOUT_S 300

/* The reader child's account, in memory shared with the case. */
struct account {
	size_t before_eio; /* bytes read before the first EIO */
	size_t total;      /* bytes read in all (reads go on after EIO) */
	int fionread;      /* FIONREAD right after the first EIO */
	bool hup_alone;    /* POLLHUP without POLLIN with bytes still to come */
	unsigned char buf[LAST_BYTES + 1];
};

struct story {
	struct tp_pty p;
	struct tp_sync s;
	bool poll_first;
	unsigned seed;
	struct account *acc;
};

static int
last_writer(void *arg)
{
	struct story *st = arg;
	unsigned char out[LAST_BYTES];
	int rc;

	tp_child_sync_side(&st->s);
	close(st->p.master);
	tp_pattern(out, sizeof(out), st->seed);
	if ((rc = tp_child_await(&st->s, 'w', "the reader asleep")))
		return rc;
	for (size_t off = 0; off < sizeof(out); off += LAST_CHUNK)
		if (write(st->p.slave, out + off, LAST_CHUNK) != LAST_CHUNK)
			return tp_child_fail("slave write at %zu: %s", off,
					     strerror(errno));
	return 0; /* the exit closes the last slave descriptor */
}

/* Read the master until EIO (after poll with poll_first), then on to EIO
 * again, recording what came after the first EIO. */
static int
waiting_reader(void *arg)
{
	struct story *st = arg;
	struct account *a = st->acc;
	bool eio = false;

	for (;;) {
		if (st->poll_first && !eio) {
			struct pollfd pf = {.fd = st->p.master, .events = POLLIN};
			int r = poll(&pf, 1, TP_WAIT_MS);
			if (r <= 0)
				return tp_child_fail("poll(master): %s", r == 0 ?
						     "timed out" : strerror(errno));
			if ((pf.revents & POLLHUP) && !(pf.revents & POLLIN) &&
			    a->total < LAST_BYTES)
				a->hup_alone = true;
		}
		ssize_t n = read(st->p.master, a->buf + a->total,
				 sizeof(a->buf) - a->total);
		if (n > 0) {
			a->total += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno != EIO)
			return tp_child_fail("read(master) after %zu bytes: %s, "
					     "want data or EIO", a->total,
					     n == 0 ? "0 (EOF)" : strerror(errno));
		if (eio)
			return 0;
		eio = true;
		a->before_eio = a->total;
		if (ioctl(st->p.master, FIONREAD, &a->fionread) != 0)
			a->fionread = -1;
	}
}

enum verdict { WHOLE, EARLY, LOST };

static enum verdict
one_story(struct story *st, char *note, size_t notelen)
{
	struct tp_child w, r;

	memset(st->acc, 0, sizeof(*st->acc));
	tp_pty_open(&st->p, TP_RAW);
	tp_sync_open(&st->s);
	tp_child_start(&w, last_writer, st);
	tp_sync_parent_side(&st->s, &w);
	tp_close_slave(&st->p);
	tp_child_start(&r, waiting_reader, st);
	if (st->poll_first)
		tp_wait_blocked_poll(r.pid, "reader asleep in poll(master)");
	else
		tp_wait_blocked_fd(r.pid, SYS_read, st->p.master,
				   "reader asleep in read(master)");
	tp_sync_post(&st->s, 'w', "let the writer write and exit");
	tp_child_join(&w, TP_WAIT_MS, "writer");
	tp_child_join(&r, TP_WAIT_MS, "reader");
	tp_sync_close(&st->s);
	tp_pty_close(&st->p);

	const struct account *a = st->acc;
	long bad = tp_pattern_check(a->buf, a->total < LAST_BYTES ? a->total :
				    LAST_BYTES, st->seed);
	snprintf(note, notelen, "%zu of %d bytes before EIO, FIONREAD %d then, "
		 "%zu in all%s%s", a->before_eio, LAST_BYTES, a->fionread,
		 a->total, a->hup_alone ? ", poll said POLLHUP without POLLIN" : "",
		 bad >= 0 ? ", a byte differs" : "");
	if (bad >= 0 || a->total != LAST_BYTES)
		return LOST;
	return a->before_eio < LAST_BYTES || a->hup_alone ? EARLY : WHOLE;
}

static void
stories(const atf_tc_t *tc, bool poll_first)
{
	long iters = tp_config_long(tc, "race_iterations", ITER_DEFAULT);
	struct story st = {.poll_first = poll_first};
	long early = 0;
	char note[300], first[340] = "";

	st.acc = mmap(NULL, sizeof(*st.acc), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ATF_REQUIRE_MSG(st.acc != MAP_FAILED, "mmap: %s", strerror(errno));
	for (long i = 0; i < iters; i++) {
		st.seed = (unsigned)i + 5;
		enum verdict v = one_story(&st, note, sizeof(note));
		if (v == LOST)
			atf_tc_fail("iteration %ld: bytes lost or changed: %s", i,
				    note);
		if (v == EARLY && !early++)
			snprintf(first, sizeof(first), "iteration %ld: %s", i, note);
	}
	munmap(st.acc, sizeof(*st.acc));
	if (early)
		tp_fail_eio_race("%s in %ld of %ld iterations, the rest still "
				 "queued (first: %s)", poll_first ? "POLLHUP "
				 "without POLLIN or EIO" : "EIO", early, iters,
				 first);
}

TP_CASE_TIMEOUT(blocked_read_gets_last_push_before_eio, TP_LINUX,
	LAST_PUSH_TIMEOUT_S,
	"A reader asleep in read() on the master while the only slave holder "
	"writes 4000 bytes in 100-byte writes and exits reads all 4000, in "
	"order, before EIO (race_iterations times)")
{
	stories(tc, false);
}

TP_CASE_TIMEOUT(blocked_poll_sees_pollin_with_last_push, TP_LINUX,
	LAST_PUSH_TIMEOUT_S,
	"A poller asleep in poll(POLLIN) on the master while the only slave "
	"holder writes 4000 bytes and exits never sees POLLHUP without POLLIN "
	"while bytes are unread, and reads all 4000 before EIO "
	"(race_iterations times)")
{
	stories(tc, true);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, blocked_read_gets_last_push_before_eio);
	ATF_TP_ADD_TC(tp, blocked_poll_sees_pollin_with_last_push);
	return atf_no_error();
}
