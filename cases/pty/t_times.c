// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_times.c: the times of a tty's device node, as w(1) and who -u read
 * them for a user's idle time.  A read that returns bytes moves the node's
 * atime to now, a write that writes bytes moves its mtime; a read or write
 * that moves no byte leaves them.  The kernel moves a time only when it
 * leaves its 8-second window (tty_update_time), so the node never tells
 * another user exactly when a key was pressed (CVE-2013-0160).
 *
 * Each case sets the slave node's times back OLD_AGE_S with utimensat, so
 * "moved" and "left" are far apart, and looks at the pts node only: the
 * master's I/O is on /dev/ptmx's inode.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

#define OLD_AGE_S 1000000
/* A time set by the kernel "now": its age when the case looks, allowing
 * for a slow guest (and a clock read on either side of a second). */
#define RECENT_MIN_S (-2)
#define RECENT_MAX_S 60

static void
set_times(const char *path, time_t atime, time_t mtime)
{
	struct timespec ts[2] = { { .tv_sec = atime }, { .tv_sec = mtime } };
	ATF_REQUIRE_MSG(utimensat(AT_FDCWD, path, ts, 0) == 0,
			"utimensat %s: %s", path, strerror(errno));
}

static struct stat
node(const char *path)
{
	struct stat st;
	ATF_REQUIRE_MSG(stat(path, &st) == 0, "stat %s: %s", path,
			strerror(errno));
	return st;
}

static void
check_recent(time_t t, const char *what)
{
	long age = (long)(time(NULL) - t);
	ATF_CHECK_MSG(age >= RECENT_MIN_S && age < RECENT_MAX_S,
		      "%s is %ld s old, want now", what, age);
}

static void
check_left(time_t t, time_t want, const char *what)
{
	ATF_CHECK_MSG(t == want, "%s moved: %ld s old, was set %ld s old",
		      what, (long)(time(NULL) - t), (long)(time(NULL) - want));
}

TP_CASE(read_moves_atime, TP_LINUX,
	"A read() that returns bytes from a pty slave sets the slave node's "
	"atime to now (its user is not idle) and leaves its mtime")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	time_t old = time(NULL) - OLD_AGE_S;
	tp_write_all(p.master, "x", 1, "a byte for the slave");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "the byte on the slave");
	set_times(p.name, old, old);
	tp_read_exact(p.slave, &c, 1, 1, "the byte on the slave");
	struct stat st = node(p.name);
	check_recent(st.st_atim.tv_sec, "the slave node's atime after a read");
	check_left(st.st_mtim.tv_sec, old, "the slave node's mtime after a read");
	tp_pty_close(&p);
}

TP_CASE(empty_read_leaves_atime, TP_LINUX,
	"A non-blocking read() of a pty slave with no input fails with EAGAIN "
	"and leaves the slave node's atime: a read that returns no byte is no "
	"activity")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	int fl = fcntl(p.slave, F_GETFL);
	ATF_REQUIRE(fl >= 0 && fcntl(p.slave, F_SETFL, fl | O_NONBLOCK) == 0);
	time_t old = time(NULL) - OLD_AGE_S;
	set_times(p.name, old, old);
	errno = 0;
	ssize_t n = read(p.slave, &c, 1);
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN,
		      "read of an empty slave: %zd (%s), want EAGAIN", n,
		      strerror(errno));
	struct stat st = node(p.name);
	check_left(st.st_atim.tv_sec, old, "the slave node's atime after EAGAIN");
	check_left(st.st_mtim.tv_sec, old, "the slave node's mtime after EAGAIN");
	tp_pty_close(&p);
}

TP_CASE(write_moves_mtime, TP_LINUX,
	"A write() of bytes to a pty slave sets the slave node's mtime to now "
	"and leaves its atime; bytes the master writes to the slave move "
	"neither")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	time_t old = time(NULL) - OLD_AGE_S;
	set_times(p.name, old, old);
	tp_write_all(p.master, "m", 1, "a byte for the slave");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "the master's byte on the slave");
	struct stat st = node(p.name);
	check_left(st.st_atim.tv_sec, old, "the slave node's atime after a master write");
	check_left(st.st_mtim.tv_sec, old, "the slave node's mtime after a master write");
	tp_write_all(p.slave, "s", 1, "a byte from the slave");
	tp_read_exact(p.master, &c, 1, 1, "the slave's byte on the master");
	st = node(p.name);
	check_recent(st.st_mtim.tv_sec, "the slave node's mtime after a write");
	check_left(st.st_atim.tv_sec, old, "the slave node's atime after a write");
	tp_pty_close(&p);
}

TP_CASE(times_move_in_8s_steps, TP_LINUX,
	"A read() or write() on a pty slave whose node times lie in the "
	"current 8-second window (the same tv_sec >> 3) leaves them as they "
	"were: the kernel moves them only to leave that window, so a time "
	"never shows when exactly a key was pressed (CVE-2013-0160)")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	/* The window may end between setting the times and the I/O: then
	 * the kernel must move them and the attempt says nothing.  A window
	 * is 8 s, so the next attempt starts in a fresh one. */
	int attempt = 0, window_ended;
	do {
		attempt++;
		tp_write_all(p.master, "x", 1, "a byte for the slave");
		tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "the byte on the slave");
		time_t t0 = time(NULL);
		/* In t0's window, 4 s away from t0: never the "now" that a
		 * kernel moving the times would write. */
		time_t set = (t0 & ~(time_t)7) | ((t0 + 4) & 7);
		set_times(p.name, set, set);
		tp_read_exact(p.slave, &c, 1, 1, "the byte on the slave");
		tp_write_all(p.slave, "s", 1, "a byte from the slave");
		window_ended = ((t0 ^ time(NULL)) & ~(time_t)7) != 0;
		if (!window_ended) {
			struct stat st = node(p.name);
			check_left(st.st_atim.tv_sec, set, "atime set in the "
				   "current window, after a read");
			check_left(st.st_mtim.tv_sec, set, "mtime set in the "
				   "current window, after a write");
		}
	} while (window_ended && attempt < 3);
	ATF_REQUIRE_MSG(!window_ended, "the 8-second window ended during each "
			"of 3 attempts (a very slow machine)");
	char out[3];
	tp_read_exact(p.master, out, (size_t)attempt, 1,
		      "the slave's bytes on the master");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, read_moves_atime);
	ATF_TP_ADD_TC(tp, empty_read_leaves_atime);
	ATF_TP_ADD_TC(tp, write_moves_mtime);
	ATF_TP_ADD_TC(tp, times_move_in_8s_steps);
	return atf_no_error();
}
