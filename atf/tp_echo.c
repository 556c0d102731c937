// SPDX-License-Identifier: GPL-2.0-only
/* tp_echo.c: exact-echo checks (tp_echo.h). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "tp_echo.h"

void
tp_echo_open(struct tp_pty *p, tcflag_t iflag, tcflag_t oflag, tcflag_t lflag)
{
	struct termios t;

	tp_pty_open(p, TP_COOKED);
	tp_tc_get(p->slave, &t);
	t.c_iflag = iflag;
	t.c_oflag = oflag;
	t.c_lflag = lflag;
	tp_tc_set(p->slave, &t);
	tp_set_nonblock(p->slave, true);
}

static size_t
count_byte(const unsigned char *b, size_t len, unsigned char c)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += b[i] == c;
	return n;
}

size_t
tp_echo_collect(int fd, const void *want, size_t wantlen, char *out,
		size_t cap, const char *what)
{
	const unsigned char *w = want;
	unsigned char last = wantlen ? w[wantlen - 1] : 0;
	size_t need_last = wantlen ? count_byte(w, wantlen, last) : 0;
	size_t got = 0;
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	tp_waiting_for(what);
	while (got < wantlen &&
	       count_byte((unsigned char *)out, got, last) < need_last) {
		int left = (int)(deadline - tp_now_ms());

		if (got >= cap)
			break;
		if (left <= 0 ||
		    !(tp_poll1(fd, POLLIN, left) & (POLLIN | POLLHUP | POLLERR)))
			break;
		ssize_t n = read(fd, out + got, cap - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

void
tp_echo_expect_out(int fd, const void *want, size_t wantlen, const char *what)
{
	char got[1024];
	size_t n, i;

	ATF_REQUIRE(wantlen < sizeof(got));
	n = tp_echo_collect(fd, want, wantlen, got, sizeof(got), what);
	for (i = 0; i < n && i < wantlen; i++)
		if (got[i] != ((const char *)want)[i])
			break;
	if (n != wantlen || i != wantlen)
		atf_tc_fail("%s: echo \"%s\" (%zu bytes), want \"%s\" (%zu "
			    "bytes), first difference at offset %zu",
			    what, tp_esc(got, n), n, tp_esc(want, wantlen),
			    wantlen, i);
}

void
tp_echo_expect(int master, const void *in, size_t inlen, const void *want,
	       size_t wantlen, const char *what)
{
	tp_write_all(master, in, inlen, what);
	tp_echo_expect_out(master, want, wantlen, what);
}
