/* t_vtime.c: non-canonical read timers (VTIME), alone and as inter-byte timer. */
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

/* Timing bounds for VTIME=2 (0.2 s): the lower bound allows a jiffy of
 * rounding, the upper one TCG scheduling delays while still catching a
 * timer ten times too long (2 s, the HZ * VTIME mistake). */
#define VTIME_DS 2
#define VTIME_MIN_MS 150
#define VTIME_MAX_MS 1000

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

TP_CASE(vtime_read_timeout_when_empty, TP_POSIX,
	"VMIN=0 VTIME=2 with no input: read returns 0 after about 0.2 s "
	"(accepted: 0.15 s to 1 s)")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 0, VTIME_DS);
	timed_read(p.slave, 16, &res, "read timing out on an empty slave");
	check_result(&res, "", 0, "VMIN=0 VTIME=2 read");
	ATF_CHECK_MSG(res.ms >= VTIME_MIN_MS && res.ms < VTIME_MAX_MS,
		      "read returned after %lld ms, want %d..%d", res.ms,
		      VTIME_MIN_MS, VTIME_MAX_MS);
	tp_pty_close(&p);
}

TP_CASE(vtime_returns_when_data_arrives, TP_POSIX,
	"VMIN=0 VTIME=50: a reader blocked on an empty slave returns the byte "
	"that arrives, well before the 5 s timeout")
{
	struct tp_pty p;
	struct reader r;
	struct rd_result res;

	noncanon_open(&p, 0, 50);
	reader_start(&r, p.slave, 16);
	wait_blocked_in_read(r.child.pid, p.slave, "reader blocked in read(slave)");
	tp_write_str(p.master, "x", "master write of x");
	reader_result(&r, &res, "reader with VTIME=50");
	check_result(&res, "x", 1, "VMIN=0 VTIME=50 read");
	ATF_CHECK_MSG(res.ms < 4000, "read took %lld ms: it waited for the timeout",
		      res.ms);
	tp_pty_close(&p);
}

TP_CASE(vtime_interbyte_timer, TP_POSIX,
	"VMIN=2 VTIME=2 with one byte queued: the inter-byte timer expires and "
	"read returns that byte after about 0.2 s (accepted: 0.15 s to 1 s)")
{
	struct tp_pty p;
	struct rd_result res;

	noncanon_open(&p, 2, VTIME_DS);
	tp_write_str(p.master, "a", "master write of a");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "1 byte on the slave");
	timed_read(p.slave, 16, &res, "read with VMIN=2 VTIME=2");
	check_result(&res, "a", 1, "VMIN=2 VTIME=2 read");
	ATF_CHECK_MSG(res.ms >= VTIME_MIN_MS && res.ms < VTIME_MAX_MS,
		      "read returned after %lld ms, want %d..%d", res.ms,
		      VTIME_MIN_MS, VTIME_MAX_MS);
	tp_pty_close(&p);
}

TP_CASE(vtime_interbyte_timer_waits_for_first_byte, TP_POSIX,
	"VMIN=2 VTIME=1 on an empty slave: the timer only starts with the first "
	"byte, so the reader stays blocked past VTIME; 2 bytes then end the read")
{
	struct tp_pty p;
	struct reader r;
	struct rd_result res;

	noncanon_open(&p, 2, 1);
	reader_start(&r, p.slave, 16);
	wait_blocked_in_read(r.child.pid, p.slave, "reader blocked in read(slave)");
	/* The quiet window (200 ms) is twice VTIME. */
	tp_expect_quiet(r.pipe[0], "reader timing out before any byte arrived");
	tp_write_str(p.master, "ab", "master write of ab");
	reader_result(&r, &res, "reader with VMIN=2 VTIME=1");
	check_result(&res, "ab", 2, "VMIN=2 VTIME=1 read");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vtime_read_timeout_when_empty);
	ATF_TP_ADD_TC(tp, vtime_returns_when_data_arrives);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer_waits_for_first_byte);
	return atf_no_error();
}
