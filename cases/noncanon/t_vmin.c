/* t_vmin.c: non-canonical reads and VMIN (with VTIME=0). */
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

/* Wait until pid sleeps inside read(fd, ...), seen in /proc/PID/syscall
 * ("NR arg0 ..."): the state to reach before feeding a blocked reader. */
static void
wait_blocked_in_read(pid_t pid, int fd, const char *what)
{
	char path[64], line[256];
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	tp_waiting_for(what);
	for (;;) {
		FILE *f = fopen(path, "r");
		if (f == NULL)
			atf_tc_skip("needs %s (CONFIG_HAVE_ARCH_TRACEHOOK): %s",
				    path, strerror(errno));
		bool blocked = false;
		if (fgets(line, sizeof(line), f) != NULL) {
			long nr;
			unsigned long a0;
			if (sscanf(line, "%ld %lx", &nr, &a0) == 2 &&
			    nr == SYS_read && a0 == (unsigned long)fd)
				blocked = true;
		}
		fclose(f);
		if (blocked)
			return;
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: pid %d not blocked in read(%d) after %d "
				    "ms; /proc syscall says: %s",
				    what, (int)pid, fd, TP_WAIT_MS, line);
		tp_backoff(&step);
	}
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

TP_CASE(vmin_waits_for_count, TP_POSIX,
	"VMIN=5 VTIME=0: a blocked reader is not woken by 3 bytes; it returns "
	"once, with all 5 bytes, after 2 more arrive")
{
	struct tp_pty p;
	struct reader r;
	struct rd_result res;
	char echo[8];

	noncanon_open(&p, 5, 0);
	/* The echo on the master shows when the ldisc has taken the input. */
	tp_lflag(p.slave, ECHO, 0);
	reader_start(&r, p.slave, 16);
	wait_blocked_in_read(r.child.pid, p.slave, "reader blocked in read(slave)");
	tp_write_str(p.master, "abc", "master write of abc");
	tp_read_exact(p.master, echo, 3, sizeof(echo), "echo of abc");
	tp_expect_quiet(r.pipe[0], "reader returning with fewer than VMIN bytes");
	tp_write_str(p.master, "de", "master write of de");
	reader_result(&r, &res, "reader with VMIN=5");
	check_result(&res, "abcde", 5, "VMIN=5 read");
	tp_pty_close(&p);
}

TP_CASE(vmin_returns_all_available, TP_POSIX,
	"VMIN=3 VTIME=0 with 6 bytes queued: one read returns all 6, VMIN is "
	"a minimum, not a size")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 3, 0);
	tp_write_str(p.master, "abcdef", "master write of abcdef");
	tp_wait_fionread(p.slave, 6, TP_WAIT_MS, "6 bytes on the slave");
	timed_read(p.slave, 16, &res, "read with VMIN=3");
	check_result(&res, "abcdef", 6, "VMIN=3 read");
	tp_pty_close(&p);
}

TP_CASE(vmin_larger_than_request, TP_POSIX,
	"VMIN=5 VTIME=0 with 2 bytes queued: read(2) returns 2 at once, the "
	"request is satisfied before VMIN")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 5, 0);
	tp_write_str(p.master, "ab", "master write of ab");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "2 bytes on the slave");
	timed_read(p.slave, 2, &res, "read(2) with VMIN=5");
	check_result(&res, "ab", 2, "read(2) with VMIN=5");
	tp_pty_close(&p);
}

TP_CASE(vmin0_vtime0_empty_returns_zero, TP_POSIX,
	"VMIN=0 VTIME=0 with nothing queued: read returns 0 at once (bound "
	"1 s)")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 0, 0);
	timed_read(p.slave, 16, &res, "polling read on an empty slave");
	check_result(&res, "", 0, "VMIN=0 VTIME=0 read");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

TP_CASE(vmin0_vtime0_returns_available, TP_POSIX,
	"VMIN=0 VTIME=0 with 3 bytes queued: read returns those 3 bytes")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 0, 0);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "3 bytes on the slave");
	timed_read(p.slave, 16, &res, "polling read");
	check_result(&res, "abc", 3, "VMIN=0 VTIME=0 read");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vmin_waits_for_count);
	ATF_TP_ADD_TC(tp, vmin_returns_all_available);
	ATF_TP_ADD_TC(tp, vmin_larger_than_request);
	ATF_TP_ADD_TC(tp, vmin0_vtime0_empty_returns_zero);
	ATF_TP_ADD_TC(tp, vmin0_vtime0_returns_available);
	return atf_no_error();
}
