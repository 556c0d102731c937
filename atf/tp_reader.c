// SPDX-License-Identifier: GPL-2.0-only
/* tp_reader.c: one read() run in a child, timed, its result sent back. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

static int
reader_main(void *arg)
{
	struct tp_reader *r = arg;
	struct tp_rd_result res;

	memset(&res, 0, sizeof(res));
	long long t0 = tp_now_ms();
	res.n = read(r->fd, res.data, r->len);
	res.err = res.n < 0 ? errno : 0;
	res.ms = tp_now_ms() - t0;
	if (write(r->pipe[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
		return tp_child_fail("reader report: %s", strerror(errno));
	return 0;
}

void
tp_reader_start(struct tp_reader *r, int fd, size_t len)
{
	r->fd = fd;
	r->len = len < TP_RD_MAX ? len : TP_RD_MAX;
	if (pipe2(r->pipe, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	tp_child_start(&r->child, reader_main, r);
	close(r->pipe[1]);
}

void
tp_reader_result(struct tp_reader *r, struct tp_rd_result *res,
		 const char *what)
{
	tp_wait_poll(r->pipe[0], POLLIN, TP_WAIT_MS, what);
	if (read(r->pipe[0], res, sizeof(*res)) != (ssize_t)sizeof(*res))
		atf_tc_fail("%s: short reader report", what);
	close(r->pipe[0]);
	tp_child_join(&r->child, TP_WAIT_MS, what);
}

void
tp_timed_read(int fd, size_t len, struct tp_rd_result *res, const char *what)
{
	struct tp_reader r;

	tp_reader_start(&r, fd, len);
	tp_reader_result(&r, res, what);
}

void
tp_rd_check(const struct tp_rd_result *res, const char *want, size_t len,
	    const char *what)
{
	if (res->n < 0)
		atf_tc_fail("%s: read failed: %s", what, strerror(res->err));
	if ((size_t)res->n != len || memcmp(res->data, want, len) != 0)
		atf_tc_fail("%s: read returned %zd bytes \"%s\", want %zu \"%s\"",
			    what, res->n, tp_esc(res->data, (size_t)res->n), len,
			    tp_esc(want, len));
}
