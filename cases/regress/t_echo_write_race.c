// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_write_race.c: regressions.md #6, CVE-2014-0196: with ECHO on and
 * OPOST off, n_tty_write (raw output) raced the echo path over the same pty
 * buffer and overflowed the heap.  A heap splat is not visible to a case:
 * this bounded stress (race_iterations rounds) checks what user space sees:
 * no error, no hang, the slave's output reaching the master exactly, the
 * master's input reaching the slave exactly, and echoes that are only the
 * master's own bytes (echoes may be dropped under pressure, never made up). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

#define ROUNDS_DEFAULT 100
#define CHUNK 512

struct race {
	struct tp_pty p;
	long rounds;
	size_t total;             /* bytes each writer writes */
	size_t up_seen, low_seen; /* master: slave output, echoes */
	size_t slave_got;
	char err[200];
};

static void
set_err(struct race *r, const char *what, int e)
{
	if (!r->err[0])
		snprintf(r->err, sizeof(r->err), "%s: %s", what, strerror(e));
}

static void
write_stream(struct race *r, int fd, char base, const char *what)
{
	char buf[CHUNK];
	size_t pos = 0;
	for (long i = 0; i < r->rounds; i++) {
		for (size_t k = 0; k < CHUNK; k++)
			buf[k] = (char)(base + (pos + k) % 26);
		size_t off = 0;
		while (off < CHUNK) {
			ssize_t n = write(fd, buf + off, CHUNK - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				set_err(r, what, n < 0 ? errno : EIO);
				return;
			}
			off += (size_t)n;
		}
		pos += CHUNK;
	}
}

static void *
slave_writer(void *arg)
{
	struct race *r = arg;
	write_stream(r, r->p.slave, 'A', "slave write");
	return NULL;
}

static void *
master_writer(void *arg)
{
	struct race *r = arg;
	write_stream(r, r->p.master, 'a', "master write");
	return NULL;
}

static void *
slave_reader(void *arg)
{
	struct race *r = arg;
	char buf[CHUNK];
	while (r->slave_got < r->total) {
		ssize_t n = read(r->p.slave, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			set_err(r, "slave read", n < 0 ? errno : EIO);
			return NULL;
		}
		for (ssize_t k = 0; k < n; k++)
			if (buf[k] != 'a' + (char)((r->slave_got + (size_t)k) % 26)) {
				set_err(r, "slave input out of order", EILSEQ);
				return NULL;
			}
		r->slave_got += (size_t)n;
	}
	return NULL;
}

/* The master reads everything: slave output (upper case) must be exact;
 * echoes (lower case) must be master bytes; anything else is garbage. */
static void *
master_reader(void *arg)
{
	struct race *r = arg;
	char buf[CHUNK];
	for (;;) {
		int wait = r->up_seen < r->total ? TP_WAIT_MS : TP_QUIET_WINDOW_MS;
		if (!(tp_poll1(r->p.master, POLLIN, wait) & POLLIN)) {
			if (r->up_seen < r->total)
				set_err(r, "master output stalled", ETIMEDOUT);
			return NULL;
		}
		ssize_t n = read(r->p.master, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			set_err(r, "master read", n < 0 ? errno : EIO);
			return NULL;
		}
		for (ssize_t k = 0; k < n; k++) {
			char c = buf[k];
			if (c >= 'A' && c <= 'Z') {
				if (c != 'A' + (char)(r->up_seen % 26)) {
					set_err(r, "slave output out of order",
						EILSEQ);
					return NULL;
				}
				r->up_seen++;
			} else if (c >= 'a' && c <= 'z') {
				r->low_seen++;
			} else {
				set_err(r, "garbage byte on the master", EILSEQ);
				return NULL;
			}
		}
	}
}

TP_CASE_COMMITS(echo_vs_write_stress_keeps_streams, TP_LINUX, "-",
		"4291086b1f08",
		"#6 (CVE-2014-0196, stress; a heap overflow itself is invisible "
		"here): ECHO on, OPOST off, non-canonical; threads write the "
		"slave, write the master, read both, race_iterations rounds of "
		"512 bytes: no error or hang, both data streams exact, echoes "
		"only master bytes")
{
	static struct race r;
	pthread_t t[4];

	memset(&r, 0, sizeof(r));
	r.rounds = tp_config_long(tc, "race_iterations", ROUNDS_DEFAULT);
	r.total = (size_t)r.rounds * CHUNK;
	tp_pty_open(&r.p, TP_RAW);
	tp_lflag(r.p.slave, ECHO, 0);
	/* The master reader polls, so it can stop once the output is quiet;
	 * the master writer then sees EAGAIN as a short write: keep the
	 * master blocking and let the reader poll. */
	void *(*fn[4])(void *) = { master_reader, slave_reader, slave_writer,
				   master_writer };
	for (int i = 0; i < 4; i++)
		ATF_REQUIRE(pthread_create(&t[i], NULL, fn[i], &r) == 0);
	tp_waiting_for("the four stress threads");
	for (int i = 3; i >= 0; i--)
		pthread_join(t[i], NULL);
	if (r.err[0])
		atf_tc_fail("%s (slave output %zu/%zu, slave input %zu/%zu)",
			    r.err, r.up_seen, r.total, r.slave_got, r.total);
	ATF_CHECK_EQ(r.up_seen, r.total);
	ATF_CHECK_EQ(r.slave_got, r.total);
	ATF_CHECK_MSG(r.low_seen <= r.total, "%zu echoes of %zu bytes",
		      r.low_seen, r.total);
	printf("%zu of %zu master bytes echoed\n", r.low_seen, r.total);
	tp_pty_close(&r.p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_vs_write_stress_keeps_streams);
	return atf_no_error();
}
