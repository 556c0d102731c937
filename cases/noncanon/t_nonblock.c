/* t_nonblock.c: O_NONBLOCK against VMIN/VTIME on a non-canonical slave. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* A non-canonical slave (cfmakeraw) with the given VMIN and VTIME. */
static void
noncanon_open(struct tp_pty *p, int vmin, int vtime)
{
	struct termios t;

	tp_pty_open(p, TP_RAW);
	tp_tc_get(p->slave, &t);
	t.c_cc[VMIN] = (cc_t)vmin;
	t.c_cc[VTIME] = (cc_t)vtime;
	tp_tc_set(p->slave, &t);
}

/* What one read() of at most RD_MAX bytes in the reader child did, and how
 * long it took. */
#define RD_MAX 64
struct rd_result {
	ssize_t n;
	int err;
	long long ms;
	char data[RD_MAX];
};

struct reader {
	struct tp_child child;
	int fd;
	size_t len;
	int pipe[2];
};

static int
reader_main(void *arg)
{
	struct reader *r = arg;
	struct rd_result res;

	memset(&res, 0, sizeof(res));
	long long t0 = tp_now_ms();
	res.n = read(r->fd, res.data, r->len);
	res.err = res.n < 0 ? errno : 0;
	res.ms = tp_now_ms() - t0;
	if (write(r->pipe[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
		return tp_child_fail("reader report: %s", strerror(errno));
	return 0;
}

/* The read runs in a child so that a kernel that blocks where it must not
 * fails the case with a message instead of hanging it. */
static void
reader_start(struct reader *r, int fd, size_t len)
{
	r->fd = fd;
	r->len = len < RD_MAX ? len : RD_MAX;
	if (pipe2(r->pipe, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	tp_child_start(&r->child, reader_main, r);
	close(r->pipe[1]);
}

static void
reader_result(struct reader *r, struct rd_result *res, const char *what)
{
	tp_wait_poll(r->pipe[0], POLLIN, TP_WAIT_MS, what);
	if (read(r->pipe[0], res, sizeof(*res)) != (ssize_t)sizeof(*res))
		atf_tc_fail("%s: short reader report", what);
	close(r->pipe[0]);
	tp_child_join(&r->child, TP_WAIT_MS, what);
}

/* One read of len bytes from fd in a child; returns its result. */
static void
timed_read(int fd, size_t len, struct rd_result *res, const char *what)
{
	struct reader r;

	reader_start(&r, fd, len);
	reader_result(&r, res, what);
}

static void
check_result(const struct rd_result *res, const char *want, size_t len,
	     const char *what)
{
	if (res->n < 0)
		atf_tc_fail("%s: read failed: %s", what, strerror(res->err));
	if ((size_t)res->n != len || memcmp(res->data, want, len) != 0)
		atf_tc_fail("%s: read returned %zd bytes \"%.*s\", want %zu \"%.*s\"",
			    what, res->n, (int)res->n, res->data, len, (int)len, want);
}

static void
check_eagain(const struct rd_result *res, const char *what)
{
	ATF_CHECK_MSG(res->n == -1 && res->err == EAGAIN,
		      "%s: read returned %zd (%s), want -1 EAGAIN", what, res->n,
		      res->n < 0 ? strerror(res->err) : "data");
	ATF_CHECK_MSG(res->ms < 1000, "%s: took %lld ms", what, res->ms);
}

TP_CASE(nonblock_empty_eagain, TP_POSIX,
	"O_NONBLOCK, VMIN=1 VTIME=0, nothing queued: read fails with EAGAIN "
	"at once")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 1, 0);
	tp_set_nonblock(p.slave, true);
	timed_read(p.slave, 16, &res, "non-blocking read");
	check_eagain(&res, "O_NONBLOCK VMIN=1 read");
	tp_pty_close(&p);
}

TP_CASE(nonblock_overrides_vtime, TP_POSIX,
	"O_NONBLOCK, VMIN=0 VTIME=20, nothing queued: read fails with EAGAIN "
	"at once instead of waiting 2 s")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 0, 20);
	tp_set_nonblock(p.slave, true);
	timed_read(p.slave, 16, &res, "non-blocking read with VTIME");
	check_eagain(&res, "O_NONBLOCK VTIME=20 read");
	tp_pty_close(&p);
}

TP_CASE(nonblock_overrides_vmin, TP_POSIX,
	"O_NONBLOCK, VMIN=5 VTIME=0, 3 bytes queued: read returns the 3 bytes "
	"at once instead of waiting for 5")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 5, 0);
	tp_set_nonblock(p.slave, true);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "3 bytes on the slave");
	timed_read(p.slave, 16, &res, "non-blocking read with VMIN=5");
	check_result(&res, "abc", 3, "O_NONBLOCK VMIN=5 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

TP_CASE(nonblock_vmin0_vtime0_returns_zero, TP_LINUX,
	"O_NONBLOCK with VMIN=0 VTIME=0 and nothing queued: Linux returns 0, "
	"not EAGAIN (the zero timeout ends the read before the O_NONBLOCK "
	"check)")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 0, 0);
	tp_set_nonblock(p.slave, true);
	timed_read(p.slave, 16, &res, "non-blocking polling read");
	check_result(&res, "", 0, "O_NONBLOCK VMIN=0 VTIME=0 read");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, nonblock_empty_eagain);
	ATF_TP_ADD_TC(tp, nonblock_overrides_vtime);
	ATF_TP_ADD_TC(tp, nonblock_overrides_vmin);
	ATF_TP_ADD_TC(tp, nonblock_vmin0_vtime0_returns_zero);
	return atf_no_error();
}
