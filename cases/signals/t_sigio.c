// SPDX-License-Identifier: GPL-2.0-only
/* t_sigio.c: signal-driven I/O on a pty (O_ASYNC / FIOASYNC, tty_fasync).
 * Input that a read() could take raises SIGIO with POLL_IN (raw: any byte;
 * canonical: only a completed line); a write that fell short raises
 * POLL_OUT once room returns; turning O_ASYNC on makes the foreground
 * process group (or, with none, the caller) the owner.
 *
 * The cases route SIGIO to a blocked realtime signal with F_SETSIG, so each
 * arrives queued with its siginfo (si_code, si_fd, si_band) and is taken
 * with a bounded sigtimedwait; "no signal" is checked over
 * TP_QUIET_WINDOW_MS, and only after a positive event proved delivery
 * works. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

#define IO_SIG (SIGRTMIN + 1)

static void
block_io_sig(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, IO_SIG);
	sigaddset(&set, SIGIO);
	ATF_REQUIRE(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
}

/* O_ASYNC on fd, reporting through IO_SIG to this thread: the case
 * process also runs the ttypot watchdog thread, which must not take it. */
static void
async_on(int fd)
{
	struct f_owner_ex own = {.type = F_OWNER_TID, .pid = gettid()};
	ATF_REQUIRE_MSG(fcntl(fd, F_SETOWN_EX, &own) == 0, "F_SETOWN_EX: %s",
			strerror(errno));
	ATF_REQUIRE_MSG(fcntl(fd, F_SETSIG, IO_SIG) == 0, "F_SETSIG: %s",
			strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	ATF_REQUIRE_MSG(fcntl(fd, F_SETFL, fl | O_ASYNC) == 0,
			"F_SETFL O_ASYNC: %s", strerror(errno));
}

/* One queued IO_SIG within timeout_ms, or false. */
static bool
take_io_sig(int timeout_ms, siginfo_t *si)
{
	sigset_t set;
	struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
	sigemptyset(&set);
	sigaddset(&set, IO_SIG);
	int r;
	do
		r = sigtimedwait(&set, si, &ts);
	while (r < 0 && errno == EINTR);
	return r == IO_SIG;
}

static void
expect_io_sig(int fd, int code, short band, const char *what)
{
	siginfo_t si;
	tp_waiting_for(what);
	if (!take_io_sig(TP_WAIT_MS, &si))
		atf_tc_fail("%s: no SIGIO within %d ms", what, TP_WAIT_MS);
	ATF_CHECK_MSG(si.si_code == code, "%s: si_code %d, want %d", what,
		      si.si_code, code);
	ATF_CHECK_MSG(si.si_fd == fd, "%s: si_fd %d, want %d", what, si.si_fd,
		      fd);
	ATF_CHECK_MSG(si.si_band & band, "%s: si_band 0x%lx lacks 0x%x", what,
		      (long)si.si_band, (unsigned)band);
}

static void
expect_no_io_sig(const char *what)
{
	siginfo_t si;
	if (take_io_sig(TP_QUIET_WINDOW_MS, &si))
		atf_tc_fail("%s: SIGIO (si_code %d) within %d ms", what,
			    si.si_code, TP_QUIET_WINDOW_MS);
}

/* Drop whatever a set-up step queued (echo-free ptys queue nothing, but a
 * stale signal must not satisfy a later wait). */
static void
discard_io_sigs(void)
{
	siginfo_t si;
	while (take_io_sig(0, &si))
		;
}

TP_CASE(raw_input_raises_sigio_poll_in, TP_LINUX,
	"With O_ASYNC on a raw slave, one byte from the master raises SIGIO "
	"(as F_SETSIG's signal) with si_code POLL_IN, si_fd the slave and "
	"POLLIN in si_band")
{
	struct tp_pty p;
	block_io_sig();
	tp_pty_open(&p, TP_RAW);
	async_on(p.slave);
	discard_io_sigs();
	tp_write_str(p.master, "x", "one byte to the slave");
	expect_io_sig(p.slave, POLL_IN, POLLIN, "raw byte on the slave");
	tp_pty_close(&p);
}

TP_CASE(canonical_input_raises_sigio_at_line_end, TP_LINUX,
	"On a canonical slave, a partial line raises no SIGIO (read() could "
	"not return it yet); the newline that completes it does")
{
	struct tp_pty p;
	block_io_sig();
	tp_pty_open(&p, TP_COOKED);
	/* The echo proves n_tty has taken the partial line in. */
	tp_lflag(p.slave, ICANON | ECHO, 0);
	async_on(p.slave);
	discard_io_sigs();
	tp_write_str(p.master, "par", "partial line");
	/* The echo comes a byte at a time: read until all of it is there. */
	TP_EXPECT_BYTES(p.master, "par", "echo of the partial line");
	expect_no_io_sig("partial canonical line");
	tp_write_str(p.master, "t\n", "rest of the line");
	expect_io_sig(p.slave, POLL_IN, POLLIN, "completed canonical line");
	tp_pty_close(&p);
}

TP_CASE(slave_output_raises_sigio_on_master, TP_LINUX,
	"With O_ASYNC on the master, output the slave writes raises SIGIO "
	"POLL_IN for the master's descriptor")
{
	struct tp_pty p;
	block_io_sig();
	tp_pty_open(&p, TP_RAW);
	async_on(p.master);
	discard_io_sigs();
	tp_write_str(p.slave, "out", "slave output");
	expect_io_sig(p.master, POLL_IN, POLLIN, "slave output on the master");
	tp_pty_close(&p);
}

TP_CASE(clearing_o_async_stops_sigio, TP_LINUX,
	"After O_ASYNC is cleared again, input raises no SIGIO (it did while "
	"set)")
{
	struct tp_pty p;
	char buf[4];
	block_io_sig();
	tp_pty_open(&p, TP_RAW);
	async_on(p.slave);
	discard_io_sigs();
	tp_write_str(p.master, "a", "byte while O_ASYNC is set");
	expect_io_sig(p.slave, POLL_IN, POLLIN, "byte while O_ASYNC is set");
	tp_read_exact(p.slave, buf, 1, 1, "the first byte");
	int fl = fcntl(p.slave, F_GETFL);
	ATF_REQUIRE(fcntl(p.slave, F_SETFL, fl & ~O_ASYNC) == 0);
	tp_write_str(p.master, "b", "byte after O_ASYNC is cleared");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "second byte on the slave");
	expect_no_io_sig("byte after O_ASYNC was cleared");
	tp_pty_close(&p);
}

TP_CASE(fioasync_turns_sigio_on_and_off, TP_LINUX,
	"FIOASYNC 1 sets O_ASYNC on the descriptor (F_GETFL shows it) and input "
	"raises SIGIO POLL_IN; FIOASYNC 0 clears it and input raises none")
{
	struct tp_pty p;
	char buf[4];
	block_io_sig();
	tp_pty_open(&p, TP_RAW);
	async_on(p.slave);
	int off = 0, on = 1;
	ATF_REQUIRE_MSG(ioctl(p.slave, FIOASYNC, &off) == 0, "FIOASYNC 0: %s",
			strerror(errno));
	ATF_REQUIRE_MSG(!(fcntl(p.slave, F_GETFL) & O_ASYNC), "O_ASYNC set after "
			"FIOASYNC 0");
	ATF_REQUIRE_MSG(ioctl(p.slave, FIOASYNC, &on) == 0, "FIOASYNC 1: %s",
			strerror(errno));
	ATF_CHECK_MSG(fcntl(p.slave, F_GETFL) & O_ASYNC, "O_ASYNC not set by "
		      "FIOASYNC 1");
	discard_io_sigs();
	tp_write_str(p.master, "a", "byte after FIOASYNC 1");
	expect_io_sig(p.slave, POLL_IN, POLLIN, "byte after FIOASYNC 1");
	tp_read_exact(p.slave, buf, 1, 1, "the first byte");
	ATF_REQUIRE_MSG(ioctl(p.slave, FIOASYNC, &off) == 0, "FIOASYNC 0: %s",
			strerror(errno));
	ATF_CHECK_MSG(!(fcntl(p.slave, F_GETFL) & O_ASYNC), "O_ASYNC still set "
		      "after FIOASYNC 0");
	tp_write_str(p.master, "b", "byte after FIOASYNC 0");
	tp_wait_fionread(p.slave, 1, TP_WAIT_MS, "second byte on the slave");
	expect_no_io_sig("byte after FIOASYNC 0");
	tp_pty_close(&p);
}

/* Fill master -> slave until a non-blocking write falls short. */
static size_t
fill_to_slave(int master)
{
	char buf[4096];
	size_t total = 0;
	memset(buf, 'f', sizeof(buf));
	tp_set_nonblock(master, true);
	for (int i = 0; i < 1024; i++) {
		ssize_t n = write(master, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN)
			return total;
		if (n < 0)
			atf_tc_fail("filling the slave: %s", strerror(errno));
		total += (size_t)n;
	}
	atf_tc_fail("4 MiB went into the slave without EAGAIN");
}

TP_CASE(short_write_raises_sigio_poll_out_once, TP_LINUX,
	"A master write that fell short (EAGAIN) with O_ASYNC set raises "
	"SIGIO POLL_OUT once the slave reads the queue down; a later write "
	"that fit raises none")
{
	struct tp_pty p;
	static char sink[1 << 20];
	block_io_sig();
	tp_pty_open(&p, TP_RAW);
	async_on(p.master);
	size_t queued = fill_to_slave(p.master);
	discard_io_sigs();
	ATF_REQUIRE_MSG(queued <= sizeof(sink), "%zu bytes queued", queued);
	tp_read_exact(p.slave, sink, queued, 4096, "the slave reading the queue");
	expect_io_sig(p.master, POLL_OUT, POLLOUT, "room after a short write");
	/* The wakeup was armed by the short write only. */
	tp_write_str(p.master, "y", "a write that fits");
	tp_read_exact(p.slave, sink, 1, 1, "the byte that fit");
	expect_no_io_sig("read after a write that fit");
	tp_pty_close(&p);
}

TP_CASE(o_async_owner_defaults_to_caller, TP_LINUX,
	"Setting O_ASYNC on a pty that is nobody's controlling tty makes the "
	"caller the owner (F_GETOWN is its pid), with no F_SETOWN")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE_EQ(fcntl(p.slave, F_GETOWN), 0);
	int fl = fcntl(p.slave, F_GETFL);
	ATF_REQUIRE(fcntl(p.slave, F_SETFL, fl | O_ASYNC) == 0);
	int own = fcntl(p.slave, F_GETOWN);
	ATF_CHECK_MSG(own == getpid(), "F_GETOWN %d after O_ASYNC, want the "
		      "caller %d", own, (int)getpid());
	ATF_REQUIRE(fcntl(p.slave, F_SETFL, fl) == 0);
	tp_pty_close(&p);
}

static int
owner_child(void *arg)
{
	struct tp_pty *p = arg;
	if (tp_child_take_ctty(p->slave))
		return 1;
	int fl = fcntl(p->slave, F_GETFL);
	if (fcntl(p->slave, F_SETFL, fl | O_ASYNC) != 0)
		return tp_child_fail("F_SETFL O_ASYNC: %s", strerror(errno));
	int own = fcntl(p->slave, F_GETOWN);
	if (own != -getpgrp())
		return tp_child_fail("F_GETOWN %d on the ctty after O_ASYNC, "
				     "want the foreground group %d", own,
				     -(int)getpgrp());
	return 0;
}

TP_CASE(o_async_owner_is_foreground_group, TP_LINUX,
	"Setting O_ASYNC on a controlling tty makes its foreground process "
	"group the owner (F_GETOWN returns minus the group id)")
{
	struct tp_pty p;
	struct tp_child c;
	tp_pty_open(&p, TP_RAW);
	tp_child_start(&c, owner_child, &p);
	tp_child_join(&c, TP_WAIT_MS, "session leader setting O_ASYNC");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, raw_input_raises_sigio_poll_in);
	ATF_TP_ADD_TC(tp, canonical_input_raises_sigio_at_line_end);
	ATF_TP_ADD_TC(tp, slave_output_raises_sigio_on_master);
	ATF_TP_ADD_TC(tp, clearing_o_async_stops_sigio);
	ATF_TP_ADD_TC(tp, fioasync_turns_sigio_on_and_off);
	ATF_TP_ADD_TC(tp, short_write_raises_sigio_poll_out_once);
	ATF_TP_ADD_TC(tp, o_async_owner_defaults_to_caller);
	ATF_TP_ADD_TC(tp, o_async_owner_is_foreground_group);
	return atf_no_error();
}
