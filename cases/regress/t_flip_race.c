// SPDX-License-Identifier: GPL-2.0-only
/* t_flip_race.c: regressions.md #17, CVE-2022-1462 (71a174b39f10 ->
 * a501ab75e762, 5.19): two paths into pty_write/the flip buffer of one tty
 * ran unlocked against each other: ordinary writes vs TCXONC flow
 * characters (tty_send_xchar), and master writes vs TIOCSTI into the slave.
 * The out-of-bounds access is not visible to a case: these bounded stresses
 * (race_iterations rounds) check that every byte of both sources arrives
 * once, in order, with no error and no hang. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#define ROUNDS_DEFAULT 100
#define CHUNK 256
#define XCHARS_PER_ROUND 4
/* TIOCSTI into a full input buffer is another bug (see the case): the
 * master writer keeps at most this much unread. */
#define IN_FLIGHT_MAX 2048
/* A third bug, not this race: tty_buffer_unlock_exclusive() (after each
 * TIOCSTI) restarts flush_to_ldisc only when the head flip buffer has
 * unread bytes, so a flush that stopped for TIOCSTI's priority just after
 * finishing the head leaves the next buffer's data parked until the next
 * write pushes it.  A throttled writer that sees no progress for this long
 * writes one more letter, which pushes the buffer again (counted, printed). */
#define KICK_AFTER_MS 200

struct race {
	struct tp_pty p;
	long rounds;
	_Atomic size_t data_total;
	size_t x_total;
	unsigned kicks;           /* one-letter writes that restarted a stall */
	_Atomic size_t data_seen;
	size_t x_seen, x_next;
	bool throttle;            /* keep unread data below IN_FLIGHT_MAX */
	atomic_bool x_done;
	char err[200];
};

static void
set_err(struct race *r, const char *fmt, int e)
{
	if (!r->err[0])
		snprintf(r->err, sizeof(r->err), "%s: %s", fmt, strerror(e));
}

/* Write len letters, continuing the alphabet from pos.  False on error. */
static bool
write_letters(struct race *r, int fd, size_t pos, size_t len)
{
	char buf[CHUNK];
	for (size_t k = 0; k < len; k++)
		buf[k] = (char)('a' + (pos + k) % 26);
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			set_err(r, "data write", n < 0 ? errno : EIO);
			return false;
		}
		off += (size_t)n;
	}
	return true;
}

/* Wait, bounded, until the reader is within slack letters of pos (what was
 * written), writing one more letter when it sees no progress for
 * KICK_AFTER_MS: that pushes a parked flush again.  False on an error or
 * when the reader never catches up (r->err says which). */
static bool
await_reader(struct race *r, int fd, size_t *pos, size_t slack,
	     const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	long long still = tp_now_ms();
	size_t seen = r->data_seen;
	int step = 0;
	while (*pos > r->data_seen + slack && !r->err[0]) {
		if (tp_now_ms() > end) {
			set_err(r, what, ETIMEDOUT);
			return false;
		}
		if (r->data_seen != seen) {
			seen = r->data_seen;
			still = tp_now_ms();
		} else if (tp_now_ms() - still > KICK_AFTER_MS) {
			atomic_fetch_add(&r->data_total, 1);
			if (!write_letters(r, fd, *pos, 1))
				return false;
			(*pos)++;
			r->kicks++;
			still = tp_now_ms();
		}
		tp_backoff(&step);
	}
	return !r->err[0];
}

/* Write rounds * CHUNK letters to fd (plus any kick letters). */
static void
letters(struct race *r, int fd)
{
	size_t pos = 0;
	for (long i = 0; i < r->rounds && !r->err[0]; i++) {
		if (r->throttle && !await_reader(r, fd, &pos, IN_FLIGHT_MAX,
						 "reader never caught up"))
			return;
		if (!write_letters(r, fd, pos, CHUNK))
			return;
		pos += CHUNK;
	}
	/* The last letters can park the same way, with no next write to push
	 * them: the throttled writer stays until the reader has them all. */
	if (r->throttle)
		await_reader(r, fd, &pos, 0, "reader never got the last letters");
}

static void *
slave_letters(void *arg)
{
	struct race *r = arg;
	letters(r, r->p.slave);
	return NULL;
}

static void *
master_letters(void *arg)
{
	struct race *r = arg;
	letters(r, r->p.master);
	return NULL;
}

static void *
tcxonc_chars(void *arg)
{
	struct race *r = arg;
	for (size_t i = 0; i < r->x_total && !r->err[0]; i++)
		if (tcflow(r->p.slave, i % 2 ? TCION : TCIOFF) != 0)
			set_err(r, "tcflow", errno);
	atomic_store(&r->x_done, true);
	return NULL;
}

static void *
sti_bytes(void *arg)
{
	struct race *r = arg;
	for (size_t i = 0; i < r->x_total && !r->err[0]; i++) {
		char c = (char)(0x80 + i % 128);
		if (ioctl(r->p.slave, TIOCSTI, &c) != 0)
			set_err(r, "TIOCSTI", errno);
	}
	atomic_store(&r->x_done, true);
	return NULL;
}

/* Read fd until the letters are complete and the other source is done,
 * then until quiet: letters exactly in order; the other source's bytes
 * (want_x(i) is the i-th) in order, each at most once.  Those may be
 * dropped: TIOCSTI and tty_send_xchar do not wait for room. */
static void
collect(struct race *r, int fd, char (*want_x)(size_t))
{
	char buf[CHUNK];
	long long progress = tp_now_ms();
	while (!r->err[0]) {
		bool done = r->data_seen == r->data_total &&
			    atomic_load(&r->x_done);
		/* Short slices: the other source may finish (x_done) after
		 * its last byte has already been read. */
		int wait = done ? TP_QUIET_WINDOW_MS : 100;
		if (!(tp_poll1(fd, POLLIN, wait) & POLLIN)) {
			if (done)
				return;
			if (tp_now_ms() - progress > TP_WAIT_MS) {
				set_err(r, "reader stalled", ETIMEDOUT);
				return;
			}
			continue;
		}
		progress = tp_now_ms();
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			set_err(r, "read", n < 0 ? errno : EIO);
			return;
		}
		for (ssize_t k = 0; k < n; k++) {
			if (buf[k] >= 'a' && buf[k] <= 'z') {
				if (buf[k] != 'a' + (char)(r->data_seen % 26)) {
					set_err(r, "data out of order", EILSEQ);
					return;
				}
				r->data_seen++;
				continue;
			}
			/* Skip what was dropped, up to this byte. */
			size_t e = r->x_next;
			while (e < r->x_total && want_x(e) != buf[k])
				e++;
			if (e == r->x_total) {
				set_err(r, "byte out of order or repeated",
					EILSEQ);
				return;
			}
			r->x_next = e + 1;
			r->x_seen++;
		}
	}
}

static char
want_flow(size_t i)
{
	return i % 2 ? '\021' : '\023';
}

static char
want_high(size_t i)
{
	return (char)(0x80 + i % 128);
}

static void
run(const atf_tc_t *tc, struct race *r, void *(*a)(void *),
    void *(*b)(void *), int read_fd, char (*want_x)(size_t))
{
	pthread_t t[2];

	r->rounds = tp_config_long(tc, "race_iterations", ROUNDS_DEFAULT);
	r->data_total = (size_t)r->rounds * CHUNK;
	r->x_total = (size_t)r->rounds * XCHARS_PER_ROUND;
	ATF_REQUIRE(pthread_create(&t[0], NULL, a, r) == 0);
	ATF_REQUIRE(pthread_create(&t[1], NULL, b, r) == 0);
	tp_waiting_for("both sources to arrive");
	collect(r, read_fd, want_x);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	if (r->err[0])
		atf_tc_fail("%s (data %zu/%zu, extra %zu/%zu, %u kicks)", r->err,
			    (size_t)r->data_seen, (size_t)r->data_total, r->x_seen,
			    r->x_total, r->kicks);
	ATF_CHECK_EQ(r->data_seen, r->data_total);
	printf("%zu of %zu extra bytes arrived; %u stalls restarted by a "
	       "one-letter write\n", r->x_seen, r->x_total, r->kicks);
}

TP_CASE_COMMITS(write_vs_tcxonc_stress, TP_LINUX, "71a174b39f10",
		"a501ab75e762",
		"#17 (stress; the memory error itself is invisible): one thread "
		"writes letters to the raw slave while another sends VSTOP/VSTART "
		"with tcflow TCIOFF/TCION; the master reads every letter once in "
		"order, and flow characters only in the order sent, none twice")
{
	static struct race r;

	memset(&r, 0, sizeof(r));
	tp_pty_open(&r.p, TP_RAW);
	tp_set_nonblock(r.p.master, true);
	run(tc, &r, slave_letters, tcxonc_chars, r.p.master, want_flow);
	tp_pty_close(&r.p);
}

TP_CASE_COMMITS(master_write_vs_tiocsti_stress, TP_LINUX, "71a174b39f10",
		"a501ab75e762",
		"#17 (stress; needs TIOCSTI, skipped where it is refused): one "
		"thread writes letters to the master while another injects bytes "
		"into the raw slave with TIOCSTI; the slave reads every letter "
		"once in order, and injected bytes only in the order sent, none "
		"twice.  The master writer keeps under 2 KiB unread: TIOCSTI into "
		"a full buffer clears n_tty's no_room and can stall the pty "
		"(seen on 6.18; a separate bug, not this race); and a flush "
		"stopped by TIOCSTI can park written data until the next write "
		"(tty_buffer_unlock_exclusive, 6.12/6.18), so a writer that sees "
		"no progress for 200 ms writes one more letter")
{
	static struct race r;
	char c = '#';

	memset(&r, 0, sizeof(r));
	tp_pty_open(&r.p, TP_RAW);
	if (ioctl(r.p.slave, TIOCSTI, &c) != 0)
		atf_tc_skip("TIOCSTI on a slave that is not our ctty refused "
			    "(%s): needs CAP_SYS_ADMIN and, on 6.2-6.4, "
			    "dev.tty.legacy_tiocsti=1", strerror(errno));
	tp_expect_read(r.p.slave, "#", 1, "the probe byte");
	tp_set_nonblock(r.p.slave, true);
	r.throttle = true;
	run(tc, &r, master_letters, sti_bytes, r.p.slave, want_high);
	tp_pty_close(&r.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, write_vs_tcxonc_stress);
	ATF_TP_ADD_TC(tp, master_write_vs_tiocsti_stress);
	return atf_no_error();
}
