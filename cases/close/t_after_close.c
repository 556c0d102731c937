// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_after_close.c: what each side of a pty sees after the other side closes.
 *
 * Linux (measured on 6.18): after the last slave close the master drains the
 * queued data, then read fails with EIO (every time) and poll reports POLLHUP;
 * the master stays writable.  After the master closes, the slave is hung up:
 * read returns 0, write fails with EIO, poll reports everything, and the
 * /dev/pts node is gone.  BSDs return 0 instead of EIO on the master.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

/* poll() events asked for wherever revents are compared exactly. */
#define ALL_EVENTS (POLLIN | POLLRDNORM | POLLPRI | POLLOUT | POLLWRNORM)

/* read() once, after poll says it will not block; returns read's result
 * with errno preserved. */
static ssize_t
read_once(int fd, void *buf, size_t len, const char *what)
{
	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	errno = 0;
	return read(fd, buf, len);
}

static void
expect_read_error(int fd, int want_errno, const char *what)
{
	char c;
	ssize_t n = read_once(fd, &c, 1, what);
	int e = errno;
	ATF_CHECK_MSG(n == -1 && e == want_errno,
		      "%s: read returned %zd (%s), expected -1 %s", what, n,
		      n < 0 ? strerror(e) : "data/EOF", strerror(want_errno));
}

static void
expect_revents(int fd, short events, short want, const char *what)
{
	short got = tp_poll1(fd, events, 0);
	ATF_CHECK_MSG(got == want, "%s: revents 0x%x, expected 0x%x", what,
		      (unsigned)got, (unsigned)want);
}

/* A child's fd table may keep a pty side open: children close what the
 * case closes. */
struct reader_arg {
	int fd;       /* the side the child reads */
	int other;    /* the side the child must not hold */
	int extra;    /* another descriptor to drop, or -1 */
	bool eof_ok;  /* a read result of 0 is acceptable as well as EIO */
};

static int
blocked_reader(void *arg)
{
	struct reader_arg *a = arg;
	char buf[64];

	close(a->other);
	if (a->extra >= 0)
		close(a->extra);
	/* Blocks until the other side goes away; SIGALRM from tp_child_start
	 * is the last-resort bound. */
	errno = 0;
	ssize_t n = read(a->fd, buf, sizeof(buf));
	if (n == -1 && errno == EIO)
		return 0;
	if (n == 0 && a->eof_ok)
		return 0;
	return tp_child_fail("blocked read returned %zd (%s)", n,
			     n < 0 ? strerror(errno) : "no error");
}

/* A devpts instance of our own, mounted over /dev/pts in a private mount
 * namespace: no other process can reuse a freed pty index, so "the node is
 * gone" cannot be confused with a parallel case's new pty.  /dev/ptmx
 * follows the devpts mounted at /dev/pts. */
static void
private_devpts(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		atf_tc_skip("needs a private mount namespace: unshare: %s",
			    strerror(errno));
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		atf_tc_fail("make / private: %s", strerror(errno));
	if (mount("devpts", "/dev/pts", "devpts", 0,
		  "newinstance,ptmxmode=0666,mode=0620") != 0)
		atf_tc_skip("needs a new devpts instance on /dev/pts: %s",
			    strerror(errno));
	int fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_skip("/dev/ptmx does not follow /dev/pts: %s",
			    strerror(errno));
	close(fd);
}

/* ---------------------------------------------------------------- master side */

TP_CASE(master_read_queued_data_then_eio, TP_LINUX,
	"After the last slave close, the master reads all data the slave wrote "
	"before closing, then read fails with EIO, and again with EIO")
{
	struct tp_pty p;
	char out[300], in[400];
	struct tp_drain d;

	tp_pty_open(&p, TP_RAW);
	tp_set_nonblock(p.master, true);
	tp_pattern(out, sizeof(out), 3);
	tp_write_all(p.slave, out, sizeof(out), "slave write of 300 bytes");
	/* No wait for FIONREAD: the kernel must flush pending input before
	 * it reports EIO. */
	tp_close_slave(&p);
	tp_drain(p.master, in, sizeof(out), sizeof(in), TP_WAIT_MS, &d,
		 "master drain after slave close");
	ATF_CHECK_MSG(d.got == sizeof(out), "master read %zu of %zu bytes",
		      d.got, sizeof(out));
	ATF_CHECK_MSG(tp_pattern_check(in, d.got, 3) == -1,
		      "data differs from what the slave wrote");
	ATF_CHECK_MSG(!d.eof && d.err == EIO,
		      "drain ended with %s, expected EIO",
		      d.eof ? "EOF (read 0)" : strerror(d.err));
	expect_read_error(p.master, EIO, "second master read after EIO");
	tp_pty_close(&p);
}

TP_CASE(master_poll_hup_after_slave_close, TP_LINUX,
	"After the last slave close, poll on the master reports "
	"POLLIN|POLLRDNORM|POLLOUT|POLLWRNORM|POLLHUP while data is queued, "
	"and POLLOUT|POLLWRNORM|POLLHUP once it is drained (never POLLERR)")
{
	struct tp_pty p;
	char buf[16];

	tp_pty_open(&p, TP_RAW);
	expect_revents(p.master, ALL_EVENTS, POLLOUT | POLLWRNORM,
		       "master with slave open and nothing queued");
	tp_write_str(p.slave, "hello", "slave write of hello");
	tp_wait_fionread(p.master, 5, TP_WAIT_MS, "hello queued on the master");
	tp_close_slave(&p);
	expect_revents(p.master, ALL_EVENTS,
		       POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM | POLLHUP,
		       "master after slave close, data queued");
	ssize_t n = read_once(p.master, buf, sizeof(buf), "master read of hello");
	ATF_REQUIRE_MSG(n == 5 && memcmp(buf, "hello", 5) == 0,
			"master read %zd bytes", n);
	expect_revents(p.master, ALL_EVENTS, POLLOUT | POLLWRNORM | POLLHUP,
		       "master after slave close, drained");
	tp_pty_close(&p);
}

/* Large enough that an unbounded master write would be obvious. */
#define MASTER_FILL_LIMIT (1024 * 1024)

TP_CASE(master_write_after_slave_close, TP_LINUX,
	"After the last slave close, master writes still succeed (the bytes "
	"go to the closed slave's input queue and are not echoed) until that "
	"queue is full: then a non-blocking write gets EAGAIN, poll keeps "
	"POLLHUP, and POLLOUT is set only when a write then succeeds")
{
	struct tp_pty p;
	static char chunk[4096];

	tp_pty_open(&p, TP_RAW);
	tp_close_slave(&p);
	errno = 0;
	ssize_t n = write(p.master, "abc", 3);
	ATF_CHECK_MSG(n == 3, "first master write after slave close: %zd (%s)",
		      n, n < 0 ? strerror(errno) : "short");
	expect_read_error(p.master, EIO, "master read after its own write");

	tp_set_nonblock(p.master, true);
	memset(chunk, 'w', sizeof(chunk));
	long total = 0;
	int err = 0;
	while (total < MASTER_FILL_LIMIT) {
		n = write(p.master, chunk, sizeof(chunk));
		if (n < 0) {
			err = errno;
			break;
		}
		total += n;
	}
	ATF_CHECK_MSG(err == EAGAIN,
		      "filling the closed slave: stopped after %ld bytes with "
		      "%s, expected EAGAIN before %d bytes",
		      total, err ? strerror(err) : "no error", MASTER_FILL_LIMIT);
	ATF_CHECK_MSG(total > 0, "no master write succeeded after the first");
	/* The slave's buffer work may free room at any moment after EAGAIN,
	 * so POLLOUT may come back; room only grows (nobody else writes), so
	 * when poll says POLLOUT a write must succeed. */
	short rev = tp_poll1(p.master, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG((rev & ~POLLOUT) == POLLHUP,
		      "master with the closed slave's queue full: revents 0x%x, "
		      "expected POLLHUP (and maybe POLLOUT)", (unsigned)rev);
	if (rev & POLLOUT) {
		n = write(p.master, "z", 1);
		ATF_CHECK_MSG(n == 1, "poll said POLLOUT but a 1-byte write gave "
			      "%zd (%s)", n, n < 0 ? strerror(errno) : "short");
	}
	tp_pty_close(&p);
}

TP_CASE(master_eio_only_after_last_slave_close, TP_LINUX,
	"With the slave opened twice, closing one slave descriptor leaves "
	"the master readable-empty (EAGAIN, no POLLHUP); EIO and POLLHUP come "
	"only with the last slave close")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	int s2 = open(p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s2 < 0)
		atf_tc_fail("second open of %s: %s", p.name, strerror(errno));
	tp_set_nonblock(p.master, true);
	tp_close_slave(&p);
	expect_revents(p.master, ALL_EVENTS, POLLOUT | POLLWRNORM,
		       "master after the first of two slave closes");
	errno = 0;
	char c;
	ssize_t n = read(p.master, &c, 1);
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN,
		      "master read after first close: %zd (%s), expected EAGAIN",
		      n, strerror(errno));
	/* The remaining slave still works. */
	tp_write_str(s2, "x", "write on the remaining slave fd");
	tp_read_exact(p.master, &c, 1, 1, "master read of x");
	ATF_CHECK(c == 'x');

	close(s2);
	expect_revents(p.master, ALL_EVENTS, POLLOUT | POLLWRNORM | POLLHUP,
		       "master after the last slave close");
	expect_read_error(p.master, EIO, "master read after the last close");
	tp_pty_close(&p);
}

TP_CASE(slave_reopen_clears_master_eio, TP_LINUX,
	"Reopening the slave after its last close (master still open) clears "
	"the master's EIO and POLLHUP, and data flows again")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_set_nonblock(p.master, true);
	tp_close_slave(&p);
	expect_read_error(p.master, EIO, "master read after slave close");
	/* The master is still open, so the index cannot be reused. */
	p.slave = open(p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p.slave < 0)
		atf_tc_fail("reopen of %s: %s", p.name, strerror(errno));
	expect_revents(p.master, ALL_EVENTS, POLLOUT | POLLWRNORM,
		       "master after the slave was reopened");
	errno = 0;
	ssize_t n = read(p.master, &c, 1);
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN,
		      "master read after reopen: %zd (%s), expected EAGAIN", n,
		      strerror(errno));
	tp_tc_raw(p.slave);
	tp_write_str(p.slave, "y", "write on the reopened slave");
	tp_read_exact(p.master, &c, 1, 1, "master read of y");
	ATF_CHECK(c == 'y');
	tp_pty_close(&p);
}

TP_CASE(blocked_master_reader_wakes_eio, TP_LINUX,
	"A process blocked in read() on the master wakes with EIO when the "
	"last slave descriptor closes")
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_RAW);
	struct reader_arg a = {.fd = p.master, .other = p.slave, .extra = -1,
			       .eof_ok = false};
	tp_child_start(&c, blocked_reader, &a);
	tp_wait_blocked_fd(c.pid, SYS_read, p.master, "child blocked reading the master");
	tp_close_slave(&p);
	tp_child_join(&c, TP_WAIT_MS, "blocked master reader after slave close");
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- slave side */

TP_CASE(slave_read_eof_after_master_close, TP_LINUX,
	"After the master closes, the hung-up slave reads 0 (EOF), twice, "
	"and input that was queued but unread is discarded")
{
	struct tp_pty p;
	char buf[16];

	tp_pty_open(&p, TP_RAW);
	tp_write_str(p.master, "xyz", "master write of xyz");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "xyz queued on the slave");
	tp_close_master(&p);
	ssize_t n = read_once(p.slave, buf, sizeof(buf), "first slave read");
	ATF_CHECK_MSG(n == 0, "first slave read after master close: %zd (%s)",
		      n, n < 0 ? strerror(errno) : "data");
	n = read_once(p.slave, buf, sizeof(buf), "second slave read");
	ATF_CHECK_MSG(n == 0, "second slave read after master close: %zd (%s)",
		      n, n < 0 ? strerror(errno) : "data");
	tp_pty_close(&p);
}

TP_CASE(slave_write_eio_after_master_close, TP_LINUX,
	"After the master closes, write on the slave fails with EIO, and "
	"tcgetattr on it fails with EIO")
{
	struct tp_pty p;
	struct termios t;

	tp_pty_open(&p, TP_RAW);
	tp_close_master(&p);
	errno = 0;
	ssize_t n = write(p.slave, "a", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO,
		      "slave write after master close: %zd (%s), expected EIO", n,
		      strerror(errno));
	errno = 0;
	int r = tcgetattr(p.slave, &t);
	ATF_CHECK_MSG(r == -1 && errno == EIO,
		      "tcgetattr on the hung-up slave: %d (%s), expected EIO", r,
		      strerror(errno));
	tp_pty_close(&p);
}

TP_CASE(slave_poll_after_master_close, TP_LINUX,
	"After the master closes, poll on the slave reports exactly "
	"POLLIN|POLLRDNORM|POLLOUT|POLLWRNORM|POLLERR|POLLHUP (no POLLPRI), "
	"and POLLERR|POLLHUP when no events are asked for")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	expect_revents(p.slave, ALL_EVENTS, POLLOUT | POLLWRNORM,
		       "slave with master open and nothing queued");
	tp_close_master(&p);
	expect_revents(p.slave, ALL_EVENTS,
		       POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM | POLLERR |
			       POLLHUP,
		       "slave after master close");
	expect_revents(p.slave, 0, POLLERR | POLLHUP,
		       "slave after master close, no events asked");
	tp_pty_close(&p);
}

TP_CASE(blocked_slave_reader_wakes, TP_LINUX,
	"A process blocked in read() on the slave wakes when the master "
	"closes, with EIO or 0 (EIO on 6.18), never hanging")
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_RAW);
	/* The case's own slave fd stays open: only the master goes away. */
	struct reader_arg a = {.fd = p.slave, .other = p.master, .extra = -1,
			       .eof_ok = true};
	tp_child_start(&c, blocked_reader, &a);
	tp_wait_blocked_fd(c.pid, SYS_read, p.slave, "child blocked reading the slave");
	tp_close_master(&p);
	tp_child_join(&c, TP_WAIT_MS, "blocked slave reader after master close");
	tp_pty_close(&p);
}

TP_CASE_ROOT(slave_node_gone_after_master_close, TP_LINUX,
	  "Once the master closes, the /dev/pts node disappears: stat and open "
	  "of the slave path fail with ENOENT, whether or not a slave "
	  "descriptor is still open (private devpts instance, needs root)")
{
	struct tp_pty p;
	struct stat st;
	char name[64];

	private_devpts();

	/* A slave descriptor still open when the master closes. */
	tp_pty_open(&p, TP_RAW);
	snprintf(name, sizeof(name), "%s", p.name);
	ATF_REQUIRE_MSG(stat(name, &st) == 0, "stat %s before close: %s", name,
			strerror(errno));
	tp_close_master(&p);
	errno = 0;
	ATF_CHECK_MSG(stat(name, &st) == -1 && errno == ENOENT,
		      "stat %s after master close (slave open): %s", name,
		      strerror(errno));
	errno = 0;
	int fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(fd == -1 && errno == ENOENT,
		      "reopen %s after master close (slave open): %d (%s)", name,
		      fd, strerror(errno));
	if (fd >= 0)
		close(fd);
	tp_pty_close(&p);

	/* No slave descriptor open when the master closes. */
	tp_pty_open(&p, TP_RAW);
	snprintf(name, sizeof(name), "%s", p.name);
	tp_close_slave(&p);
	tp_close_master(&p);
	errno = 0;
	fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(fd == -1 && errno == ENOENT,
		      "reopen %s after master close (slave closed): %d (%s)",
		      name, fd, strerror(errno));
	if (fd >= 0)
		close(fd);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, master_read_queued_data_then_eio);
	ATF_TP_ADD_TC(tp, master_poll_hup_after_slave_close);
	ATF_TP_ADD_TC(tp, master_write_after_slave_close);
	ATF_TP_ADD_TC(tp, master_eio_only_after_last_slave_close);
	ATF_TP_ADD_TC(tp, slave_reopen_clears_master_eio);
	ATF_TP_ADD_TC(tp, blocked_master_reader_wakes_eio);
	ATF_TP_ADD_TC(tp, slave_read_eof_after_master_close);
	ATF_TP_ADD_TC(tp, slave_write_eio_after_master_close);
	ATF_TP_ADD_TC(tp, slave_poll_after_master_close);
	ATF_TP_ADD_TC(tp, blocked_slave_reader_wakes);
	ATF_TP_ADD_TC(tp, slave_node_gone_after_master_close);
	return atf_no_error();
}
