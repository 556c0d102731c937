// SPDX-License-Identifier: GPL-2.0-only
/* t_no_room.c: regressions.md #15 (42458f41d08f -> 4903fde8047a, 6.5): the
 * n_tty no_room flag could leave a pty writer and an epoll reader of the
 * slave both asleep.  Bounded stress (race_iterations rounds of 1 MiB): a
 * child blasts 1 MiB into the master while the case reads the raw slave
 * through epoll with a small buffer; every epoll_wait must be answered
 * within TP_WAIT_MS and the stream must arrive exactly. */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "ttypot.h"

#define BLAST (1 << 20)
#define SMALL_READ 256
#define ROUNDS_DEFAULT 2

static unsigned char wbuf[BLAST];

static int
blaster(void *arg)
{
	struct tp_pty *p = arg;
	size_t off = 0;

	close(p->slave);
	while (off < BLAST) {
		ssize_t n = write(p->master, wbuf + off, BLAST - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return tp_child_fail("master write at %zu: %s", off,
					     n < 0 ? strerror(errno) : "0");
		off += (size_t)n;
	}
	return 0;
}

TP_CASE_COMMITS(epoll_reader_small_buffer_no_hang, TP_LINUX, "42458f41d08f",
		"4903fde8047a",
		"#15 (stress): a child writes 1 MiB to the master while an epoll "
		"reader drains the raw slave 256 bytes per wakeup; neither side "
		"stalls (each wait answered within TP_WAIT_MS) and the data "
		"arrives exactly, race_iterations / 10 rounds (at least 1)")
{
	long rounds = tp_config_long(tc, "race_iterations", ROUNDS_DEFAULT * 10) / 10;
	unsigned char buf[SMALL_READ];

	for (long r = 0; r < (rounds > 0 ? rounds : 1); r++) {
		struct tp_pty p;
		struct tp_child c;
		size_t got = 0;

		tp_pattern(wbuf, BLAST, (unsigned)r + 15);
		tp_pty_open(&p, TP_RAW);
		tp_set_nonblock(p.slave, true);
		int ep = epoll_create1(EPOLL_CLOEXEC);
		ATF_REQUIRE(ep >= 0);
		struct epoll_event ev = { .events = EPOLLIN, .data.fd = p.slave };
		ATF_REQUIRE(epoll_ctl(ep, EPOLL_CTL_ADD, p.slave, &ev) == 0);
		tp_child_start(&c, blaster, &p);
		tp_waiting_for("epoll reader of the 1 MiB blast");
		while (got < BLAST) {
			int n = epoll_wait(ep, &ev, 1, TP_WAIT_MS);
			if (n < 0 && errno == EINTR)
				continue;
			if (n == 0)
				atf_tc_fail("round %ld: no slave input for %d ms "
					    "after %zu of %d bytes: writer and "
					    "reader both asleep", r, TP_WAIT_MS,
					    got, BLAST);
			ATF_REQUIRE_MSG(n == 1, "epoll_wait: %s", strerror(errno));
			ssize_t k = read(p.slave, buf, sizeof(buf));
			if (k < 0 && errno == EAGAIN)
				continue;
			ATF_REQUIRE_MSG(k > 0, "slave read: %s",
					k < 0 ? strerror(errno) : "EOF");
			if (memcmp(buf, wbuf + got, (size_t)k) != 0)
				atf_tc_fail("round %ld: data differs near byte "
					    "%zu", r, got);
			got += (size_t)k;
		}
		tp_child_join(&c, TP_WAIT_MS, "blaster");
		close(ep);
		tp_pty_close(&p);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, epoll_reader_small_buffer_no_hang);
	return atf_no_error();
}
