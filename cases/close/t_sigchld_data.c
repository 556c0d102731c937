// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_sigchld_data.c: a child writes N bytes to the pty slave and exits; once
 * the parent has SIGCHLD / waitpid, every byte must be readable from the
 * master, in order, and only then does the master read fail with EIO.
 *
 * Kernels 2.6.31 .. 4.6 could report EIO (or EAGAIN, or POLLHUP without
 * POLLIN) while the child's last output still sat in the flip buffer
 * (regressions.md #1, #3, #4).  Every case here is one row of a table run by
 * run_scenario(); the holder cases check that EIO waits for the *last*
 * slave descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

/* Largest write of any case. */
#define MAX_N 65536
/* What a pty holds with nobody reading, with margin: the master's ldisc
 * takes 4095 bytes and pty.c caps the flip buffer at 8192.  A child writing
 * more would block, so the parent reads while it waits for the exit. */
#define UNREAD_SAFE_N 8192
/* Reads of 4096 bytes fill the ldisc buffer exactly (regression #4). */
#define READ_CHUNK 4096
/* A blocking read is interrupted this often so tp_drain sees its deadline. */
#define NUDGE_MS 250
/* The writer runs with this descriptor for the slave. */
#define WRITER_FD 3
#define WRITER_FD_STR "3"
/* Last-resort bound on an in-process writer child. */
#define WRITER_ALARM_S 120

enum read_mode {
	RD_BLOCK,    /* blocking read() loop */
	RD_NONBLOCK, /* O_NONBLOCK read() loop: no EAGAIN while data is owed */
	RD_POLL,     /* poll(), then read() */
	RD_EPOLL,    /* epoll_wait(), then read() */
	RD_HANDLER,  /* read() inside the SIGCHLD handler */
};

enum exit_mode {
	EX_FORK_EXIT,   /* forked child writes, _exit(0) */
	EX_EXEC_EXIT,   /* fixtures/tp_writer ... exit */
	EX_EXEC_RETURN, /* fixtures/tp_writer ... return (exit() from main) */
	EX_EXEC_KILL,   /* fixtures/tp_writer ... signal (SIGKILL itself) */
	EX_EXEC_TERM,   /* fixtures/tp_writer ... sigterm */
};

struct scenario {
	enum read_mode rd;
	enum tp_mode tty;
	size_t n;
	enum exit_mode ex;
};

static const char *const exit_arg[] = {
	[EX_EXEC_EXIT] = "exit",
	[EX_EXEC_RETURN] = "return",
	[EX_EXEC_KILL] = "signal",
	[EX_EXEC_TERM] = "sigterm",
};

static unsigned char wbuf[MAX_N]; /* what the in-process writer writes */
static unsigned char rbuf[MAX_N]; /* what the parent read */

/* ------------------------------------------------------------ processes */

/* Fork the writer of n pattern bytes to p->slave; close the parent's copy of
 * the slave (else the master never reports EIO). */
static pid_t
start_writer(const atf_tc_t *tc, struct tp_pty *p, size_t n,
	     enum exit_mode ex)
{
	char path[1024], nstr[32];
	char *argv[] = {"tp_writer", WRITER_FD_STR, nstr, NULL, NULL};

	if (ex == EX_FORK_EXIT) {
		tp_pattern(wbuf, n, 0);
	} else {
		tp_fixture_path(tc, "tp_writer", path, sizeof(path));
		snprintf(nstr, sizeof(nstr), "%zu", n);
		argv[3] = (char *)exit_arg[ex];
	}
	/* The child starts once the parent has dropped its slave copy: a
	 * SIGCHLD handler must not run while the parent still holds it. */
	int gate[2];
	if (pipe2(gate, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		atf_tc_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		/* Async-signal-safe calls only: the case has a watchdog thread. */
		char c;
		signal(SIGALRM, SIG_DFL);
		alarm(WRITER_ALARM_S);
		close(p->master);
		close(gate[1]);
		while (read(gate[0], &c, 1) < 0 && errno == EINTR)
			;
		if (ex != EX_FORK_EXIT) {
			if (p->slave == WRITER_FD)
				fcntl(WRITER_FD, F_SETFD, 0);
			else if (dup2(p->slave, WRITER_FD) != WRITER_FD)
				_exit(126);
			execv(path, argv);
			_exit(127);
		}
		for (size_t off = 0; off < n;) {
			ssize_t w = write(p->slave, wbuf + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(2);
			off += (size_t)w;
		}
		_exit(0);
	}
	tp_track(pid);
	tp_close_slave(p);
	close(gate[0]);
	close(gate[1]); /* EOF on the gate: go */
	return pid;
}

static void
check_writer_status(int status, enum exit_mode ex)
{
	if (ex == EX_EXEC_KILL || ex == EX_EXEC_TERM) {
		int sig = ex == EX_EXEC_KILL ? SIGKILL : SIGTERM;
		ATF_CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == sig,
			      "writer should die of signal %d; wait status 0x%x",
			      sig, (unsigned)status);
	} else {
		ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "writer should exit 0 (2: write failed, 127: "
			      "exec failed); wait status 0x%x",
			      (unsigned)status);
	}
}

/* For writes larger than the pty holds: read while the writer runs, stop
 * reading the moment it has exited and return its status; *got counts the
 * bytes read so far.  EAGAIN is fine here: the writer may be mid-write. */
static int
read_while_writer_runs(int master, pid_t pid, size_t n, size_t *got)
{
	/* Without pidfd (before 5.3) poll in 1 ms steps and ask waitid. */
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	tp_waiting_for("master data while the writer writes");
	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0)
			atf_tc_fail("writer still running after %d ms; read %zu of "
				    "%zu bytes", TP_WAIT_MS, *got, n);
		struct pollfd fds[2] = {{.fd = master, .events = POLLIN},
					{.fd = pfd, .events = POLLIN}};
		if (poll(fds, pfd >= 0 ? 2 : 1, pfd >= 0 ? left : 1) < 0) {
			if (errno == EINTR)
				continue;
			atf_tc_fail("poll: %s", strerror(errno));
		}
		if (pfd >= 0 ? fds[1].revents != 0 : tp_has_exited(pid))
			break;
		if (!(fds[0].revents & POLLIN))
			continue; /* POLLHUP alone: the slave is closed, exit is near */
		size_t want = n - *got < READ_CHUNK ? n - *got : READ_CHUNK;
		if (want == 0)
			atf_tc_fail("more than the %zu bytes written are readable",
				    n);
		ssize_t r = read(master, rbuf + *got, want);
		if (r > 0)
			*got += (size_t)r;
		else if (r == 0)
			atf_tc_fail("read returned 0 after %zu of %zu bytes while "
				    "the writer ran", *got, n);
		else if (errno != EAGAIN && errno != EINTR)
			atf_tc_fail("read after %zu of %zu bytes while the writer "
				    "ran: %s", *got, n, strerror(errno));
	}
	if (pfd >= 0)
		close(pfd);
	return tp_wait_exit(pid, TP_WAIT_MS, "reaping the writer");
}

/* ------------------------------------------------------------ read modes */

static timer_t nudge_timer;

/* What a readiness-driven drain saw besides the bytes. */
struct ready_stats {
	int not_in;     /* readiness reported without POLLIN while data owed */
	short first_ev; /* first readiness report */
	short last_ev;  /* report before the terminating read */
};

/* Read until the read fails, once per readiness report from wait_ready();
 * the descriptor is non-blocking, so an EAGAIN means readiness lied. */
static void
ready_drain(int fd, size_t n, size_t *got, struct tp_drain *d,
	    struct ready_stats *rs, short (*wait_ready)(int, int, void *),
	    void *ctx, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	char spill[1];

	memset(d, 0, sizeof(*d));
	memset(rs, 0, sizeof(*rs));
	tp_waiting_for(what);
	for (bool first = true;; first = false) {
		int left = (int)(deadline - tp_now_ms());
		short ev = left > 0 ? wait_ready(fd, left, ctx) : 0;
		if (ev == 0)
			atf_tc_fail("%s: no readiness within %d ms after %zu of "
				    "%zu bytes", what, TP_WAIT_MS, *got, n);
		if (first)
			rs->first_ev = ev;
		rs->last_ev = ev;
		if (*got < n && !(ev & POLLIN))
			rs->not_in++;
		size_t want = n - *got < READ_CHUNK ? n - *got : READ_CHUNK;
		char *dst = want ? (char *)rbuf + *got : spill;
		ssize_t r = read(fd, dst, want ? want : 1);
		if (r > 0) {
			if (dst == spill)
				atf_tc_fail("%s: more than the %zu bytes written",
					    what, n);
			*got += (size_t)r;
			d->got += (size_t)r;
		} else if (r == 0) {
			d->eof = true;
			return;
		} else if (errno == EAGAIN) {
			d->eagain++;
		} else if (errno != EINTR) {
			d->err = errno;
			return;
		}
	}
}

static short
poll_ready(int fd, int timeout_ms, void *ctx)
{
	(void)ctx;
	return tp_poll1(fd, POLLIN, timeout_ms);
}

static short
epoll_ready(int fd, int timeout_ms, void *ctx)
{
	int ep = *(int *)ctx;
	struct epoll_event ev;
	(void)fd;
	for (;;) {
		int r = epoll_wait(ep, &ev, 1, timeout_ms);
		if (r == 1) {
			/* EPOLLIN/EPOLLHUP have the POLLIN/POLLHUP values. */
			return (short)ev.events;
		}
		if (r == 0)
			return 0;
		if (errno != EINTR)
			atf_tc_fail("epoll_wait: %s", strerror(errno));
	}
}

/* SIGCHLD handler mode: the handler drains the master to EIO by itself. */
static int h_fd = -1;
static size_t h_cap, h_got;
static int h_err, h_eagain, h_extra, h_timeout;
static bool h_eof;
static atomic_int h_done;

static void
on_sigchld(int sig)
{
	int saved = errno;
	struct timespec now;
	char spill[1];

	(void)sig;
	if (atomic_load(&h_done) || h_fd < 0) {
		errno = saved;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	time_t end = now.tv_sec + TP_WAIT_MS / 1000;
	for (;;) {
		size_t want = h_cap - h_got < READ_CHUNK ? h_cap - h_got
							  : READ_CHUNK;
		char *dst = want ? (char *)rbuf + h_got : spill;
		ssize_t r = read(h_fd, dst, want ? want : 1);
		if (r > 0) {
			if (dst == spill) {
				h_extra = 1;
				break;
			}
			h_got += (size_t)r;
			continue;
		}
		if (r == 0) {
			h_eof = true;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			h_err = errno;
			break;
		}
		h_eagain++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end) {
			h_timeout = 1;
			break;
		}
		struct pollfd p = {.fd = h_fd, .events = POLLIN};
		poll(&p, 1, 100);
	}
	atomic_store(&h_done, 1);
	errno = saved;
}

/* ------------------------------------------------------------ the table */

static void
check_data(const char *how, size_t n, size_t got, const struct tp_drain *d,
	   bool no_eagain)
{
	ATF_CHECK_MSG(!d->eof, "%s: read returned 0 after %zu of %zu bytes; "
		      "Linux reports EIO once the slave is closed", how, got, n);
	ATF_CHECK_MSG(d->eof || d->err == EIO,
		      "%s: reading ended with %s after %zu of %zu bytes, "
		      "expected EIO", how, strerror(d->err), got, n);
	ATF_CHECK_MSG(got == n, "%s: %zu of %zu bytes arrived before %s", how,
		      got, n, d->eof ? "EOF" : strerror(d->err));
	long bad = tp_pattern_check(rbuf, got, 0);
	ATF_CHECK_MSG(bad < 0, "%s: byte %ld of %zu differs from what the "
		      "child wrote (lost, duplicated or reordered data)",
		      how, bad, got);
	if (no_eagain)
		ATF_CHECK_MSG(d->eagain == 0,
			      "%s: %d EAGAIN after the child was reaped (at %zu "
			      "of %zu bytes): data owed or EIO due, never "
			      "'try again'", how, d->eagain, got, n);
}

/* After EIO the master stays in error: the next read fails the same way. */
static void
check_eio_sticks(int master)
{
	char c;
	tp_set_nonblock(master, true);
	ssize_t r = read(master, &c, 1);
	ATF_CHECK_MSG(r < 0 && errno == EIO,
		      "read after EIO: got %zd (%s), expected EIO again", r,
		      r < 0 ? strerror(errno) : "data");
}

static void
run_scenario(const atf_tc_t *tc, const struct scenario *sc)
{
	struct tp_pty p;
	struct tp_drain d;
	struct sigaction old_chld;
	size_t got = 0;
	int status;

	ATF_REQUIRE(sc->n <= MAX_N);
	ATF_REQUIRE_MSG(sc->rd != RD_HANDLER || sc->n <= UNREAD_SAFE_N,
			"the handler mode needs a write the pty holds unread");
	tp_pty_open(&p, sc->tty);
	memset(rbuf, 0, sizeof(rbuf));

	if (sc->rd == RD_HANDLER) {
		struct sigaction sa = {.sa_handler = on_sigchld,
				       .sa_flags = SA_RESTART};
		sigemptyset(&sa.sa_mask);
		tp_set_nonblock(p.master, true);
		h_fd = p.master;
		h_cap = sc->n;
		h_got = 0;
		h_err = h_eagain = h_extra = h_timeout = 0;
		h_eof = false;
		atomic_store(&h_done, 0);
		if (sigaction(SIGCHLD, &sa, &old_chld) != 0)
			atf_tc_fail("sigaction(SIGCHLD): %s", strerror(errno));
	}
	if (sc->rd != RD_BLOCK && sc->rd != RD_HANDLER)
		tp_set_nonblock(p.master, true);

	pid_t pid = start_writer(tc, &p, sc->n, sc->ex);

	if (sc->rd == RD_HANDLER) {
		long long deadline = tp_now_ms() + TP_WAIT_MS;
		int step = 0;
		tp_waiting_for("the SIGCHLD handler's drain of the master");
		while (!atomic_load(&h_done)) {
			if (tp_now_ms() > deadline)
				atf_tc_fail("SIGCHLD handler did not finish "
					    "within %d ms", TP_WAIT_MS);
			tp_backoff(&step);
		}
		status = tp_wait_exit(pid, TP_WAIT_MS, "reaping the writer");
		sigaction(SIGCHLD, &old_chld, NULL);
		h_fd = -1;
		ATF_CHECK_MSG(!h_extra, "handler read more than the %zu bytes "
			      "written", sc->n);
		ATF_CHECK_MSG(!h_timeout, "handler saw no EIO within %d ms",
			      TP_WAIT_MS);
		d = (struct tp_drain){.got = h_got, .err = h_err, .eof = h_eof,
				      .eagain = h_eagain};
		check_writer_status(status, sc->ex);
		check_data("read in the SIGCHLD handler", sc->n, h_got, &d,
			   true);
		check_eio_sticks(p.master);
		tp_pty_close(&p);
		return;
	}

	if (sc->n > UNREAD_SAFE_N)
		status = read_while_writer_runs(p.master, pid, sc->n, &got);
	else
		status = tp_wait_exit_now(pid, "the writer's exit");
	check_writer_status(status, sc->ex);

	switch (sc->rd) {
	case RD_BLOCK:
		nudge_timer = tp_nudge_start(NUDGE_MS);
		tp_drain(p.master, rbuf + got, sc->n - got, READ_CHUNK,
			 TP_WAIT_MS, &d, "blocking reads of the master to EIO");
		tp_nudge_stop(nudge_timer);
		got += d.got;
		check_data("blocking read", sc->n, got, &d, false);
		break;
	case RD_NONBLOCK:
		tp_drain(p.master, rbuf + got, sc->n - got, READ_CHUNK,
			 TP_WAIT_MS, &d, "non-blocking reads of the master to EIO");
		got += d.got;
		check_data("non-blocking read", sc->n, got, &d, true);
		break;
	case RD_POLL:
	case RD_EPOLL: {
		struct ready_stats rs;
		int ep = -1;
		const char *how = sc->rd == RD_POLL ? "poll then read"
						    : "epoll then read";
		if (sc->rd == RD_EPOLL) {
			struct epoll_event ev = {.events = EPOLLIN | EPOLLHUP};
			ep = epoll_create1(EPOLL_CLOEXEC);
			if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, p.master,
						&ev) != 0)
				atf_tc_fail("epoll setup: %s", strerror(errno));
		}
		ready_drain(p.master, sc->n, &got, &d, &rs,
			    sc->rd == RD_POLL ? poll_ready : epoll_ready, &ep,
			    how);
		if (ep >= 0)
			close(ep);
		check_data(how, sc->n, got, &d, true);
		ATF_CHECK_MSG(rs.not_in == 0,
			      "%s: %d readiness reports without POLLIN while "
			      "data was owed (first report 0x%x)",
			      how, rs.not_in, (unsigned)rs.first_ev);
		ATF_CHECK_MSG(rs.last_ev & POLLHUP,
			      "%s: the report before EIO was 0x%x, without "
			      "POLLHUP, though the slave is closed",
			      how, (unsigned)rs.last_ev);
		break;
	}
	case RD_HANDLER:
		break;
	}
	check_eio_sticks(p.master);
	tp_pty_close(&p);
}

/* #1 (2.6.31 data loss on close) and #4 (4096-byte ldisc boundary). */
#define BROKE_1 "d945cb9cce20(unverified)"
#define FIXED_1 "3a54297478e6,1a48632ffed6"
/* #3 (EAGAIN/POLLHUP with data owed, 3.12..4.6). */
#define BROKE_3 "f8747d4a466a"
#define FIXED_3 "0f40fbbcc34e"

#define SCENARIO(name, rd, tty, n, ex, broke, fixed, descr)                    \
	TP_CASE_COMMITS(name, TP_LINUX, broke, fixed, descr)                                  \
	{                                                                      \
		static const struct scenario sc = {rd, tty, n, ex};            \
		run_scenario(tc, &sc);                                         \
	}

#define AFTER " bytes to the slave and exits; after waitpid the master gives " \
	      "every byte in order, then EIO"

/* Blocking reads: the 2.6.31 emacs case. */
SCENARIO(block_raw_1, RD_BLOCK, TP_RAW, 1, EX_FORK_EXIT, BROKE_1, FIXED_1,
	 "Blocking reads: a child writes 1" AFTER " (raw slave)")
SCENARIO(block_raw_100, RD_BLOCK, TP_RAW, 100, EX_FORK_EXIT, BROKE_1, FIXED_1,
	 "Blocking reads: a child writes 100" AFTER " (raw slave)")
SCENARIO(block_raw_4095, RD_BLOCK, TP_RAW, 4095, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Blocking reads: a child writes 4095" AFTER
	 " (raw slave; fills the master's ldisc buffer exactly)")
SCENARIO(block_raw_4096, RD_BLOCK, TP_RAW, 4096, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Blocking reads: a child writes 4096" AFTER
	 " (raw slave; one byte stays in the flip buffer)")
SCENARIO(block_raw_4097, RD_BLOCK, TP_RAW, 4097, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Blocking reads: a child writes 4097" AFTER " (raw slave)")
SCENARIO(block_raw_65536, RD_BLOCK, TP_RAW, 65536, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Blocking 4096-byte reads: a child writes 65536" AFTER
	 " (raw slave; the parent reads while the child writes)")
SCENARIO(block_cooked_4096, RD_BLOCK, TP_COOKED, 4096, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Blocking reads: a child writes 4096" AFTER
	 " (default termios on the slave)")
SCENARIO(block_cooked_65536, RD_BLOCK, TP_COOKED, 65536, EX_FORK_EXIT,
	 BROKE_1, FIXED_1, "Blocking reads: a child writes 65536" AFTER
	 " (default termios; the parent reads while the child writes)")

/* Non-blocking reads: the OpenSSH case, EAGAIN while data is owed. */
SCENARIO(nonblock_raw_1, RD_NONBLOCK, TP_RAW, 1, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "O_NONBLOCK reads: a child writes 1" AFTER
	 ", never EAGAIN (raw slave)")
SCENARIO(nonblock_raw_4095, RD_NONBLOCK, TP_RAW, 4095, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "O_NONBLOCK reads: a child writes 4095" AFTER
	 ", never EAGAIN (raw slave)")
SCENARIO(nonblock_raw_4097, RD_NONBLOCK, TP_RAW, 4097, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "O_NONBLOCK reads: a child writes 4097" AFTER
	 ", never EAGAIN (raw slave; bytes past 4095 wait in the flip buffer)")
SCENARIO(nonblock_raw_65536, RD_NONBLOCK, TP_RAW, 65536, EX_FORK_EXIT,
	 BROKE_3, FIXED_3, "O_NONBLOCK reads: a child writes 65536" AFTER
	 ", never EAGAIN once reaped (raw slave; parent reads during the write)")
SCENARIO(nonblock_cooked_100, RD_NONBLOCK, TP_COOKED, 100, EX_FORK_EXIT,
	 BROKE_3, FIXED_3, "O_NONBLOCK reads: a child writes 100" AFTER
	 ", never EAGAIN (default termios on the slave)")
SCENARIO(nonblock_cooked_4096, RD_NONBLOCK, TP_COOKED, 4096, EX_FORK_EXIT,
	 BROKE_3, FIXED_3, "O_NONBLOCK reads: a child writes 4096" AFTER
	 ", never EAGAIN (default termios on the slave)")

/* poll and epoll first: POLLIN while data is owed, POLLHUP at the end. */
SCENARIO(poll_raw_100, RD_POLL, TP_RAW, 100, EX_FORK_EXIT, BROKE_3, FIXED_3,
	 "poll() then read: a child writes 100" AFTER "; POLLIN while data is "
	 "owed, POLLHUP before EIO (raw slave)")
SCENARIO(poll_raw_4097, RD_POLL, TP_RAW, 4097, EX_FORK_EXIT, BROKE_3, FIXED_3,
	 "poll() then read: a child writes 4097" AFTER "; POLLIN while data is "
	 "owed, POLLHUP before EIO (raw slave)")
SCENARIO(poll_cooked_65536, RD_POLL, TP_COOKED, 65536, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "poll() then read: a child writes 65536" AFTER
	 "; POLLIN while data is owed (default termios, parent reads during "
	 "the write)")
SCENARIO(epoll_raw_4096, RD_EPOLL, TP_RAW, 4096, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "epoll_wait(EPOLLIN|EPOLLHUP) then read: a child writes 4096"
	 AFTER "; EPOLLIN while data is owed, EPOLLHUP before EIO (raw slave)")
SCENARIO(epoll_cooked_4097, RD_EPOLL, TP_COOKED, 4097, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "epoll_wait(EPOLLIN|EPOLLHUP) then read: a child writes 4097"
	 AFTER "; EPOLLIN while data is owed (default termios)")
SCENARIO(epoll_raw_65536, RD_EPOLL, TP_RAW, 65536, EX_FORK_EXIT, BROKE_3,
	 FIXED_3, "epoll_wait then read: a child writes 65536" AFTER
	 "; EPOLLIN while data is owed (raw slave, parent reads during the "
	 "write)")

/* Reading inside the SIGCHLD handler: the earliest a parent can look. */
SCENARIO(sigchld_handler_raw_1, RD_HANDLER, TP_RAW, 1, EX_FORK_EXIT, BROKE_1,
	 FIXED_1, "Non-blocking reads inside the SIGCHLD handler: a child "
	 "writes 1" AFTER ", never EAGAIN (raw slave)")
SCENARIO(sigchld_handler_raw_4096, RD_HANDLER, TP_RAW, 4096, EX_FORK_EXIT,
	 BROKE_1, FIXED_1, "Non-blocking reads inside the SIGCHLD handler: a "
	 "child writes 4096" AFTER ", never EAGAIN (raw slave)")
SCENARIO(sigchld_handler_cooked_4097, RD_HANDLER, TP_COOKED, 4097,
	 EX_FORK_EXIT, BROKE_1, FIXED_1, "Non-blocking reads inside the "
	 "SIGCHLD handler: a child writes 4097" AFTER ", never EAGAIN "
	 "(default termios)")

/* How the writer ends: exec'd fixtures/tp_writer. */
SCENARIO(writer_exit_raw_4096, RD_NONBLOCK, TP_RAW, 4096, EX_EXEC_EXIT,
	 BROKE_1, FIXED_1, "An exec'd writer writes 4096 bytes and calls "
	 "_exit; after waitpid non-blocking reads give every byte, then EIO")
SCENARIO(writer_return_cooked_4097, RD_BLOCK, TP_COOKED, 4097,
	 EX_EXEC_RETURN, BROKE_1, FIXED_1, "An exec'd writer writes 4097 bytes "
	 "and returns from main; after waitpid blocking reads give every byte, "
	 "then EIO (default termios)")
SCENARIO(writer_return_raw_65536, RD_NONBLOCK, TP_RAW, 65536, EX_EXEC_RETURN,
	 BROKE_1, FIXED_1, "An exec'd writer writes 65536 bytes and returns "
	 "from main while the parent reads; after waitpid the rest, then EIO")
SCENARIO(writer_sigkill_raw_4096, RD_NONBLOCK, TP_RAW, 4096, EX_EXEC_KILL,
	 BROKE_1, FIXED_1, "An exec'd writer writes 4096 bytes and SIGKILLs "
	 "itself; what it wrote before the signal still arrives, then EIO")
SCENARIO(writer_sigterm_cooked_100, RD_POLL, TP_COOKED, 100, EX_EXEC_TERM,
	 BROKE_1, FIXED_1, "An exec'd writer writes 100 bytes and dies of "
	 "SIGTERM; poll then read give every byte, then EIO")

/* ------------------------------------------------------------ holders */

/* Fail if the master reports input or hangup within the quiet window, then
 * check that a non-blocking read says EAGAIN (not EIO, not data). */
static void
expect_no_hangup(int master, const char *why)
{
	char c;
	short rev = tp_poll1(master, POLLIN, TP_QUIET_WINDOW_MS);
	ATF_CHECK_MSG(rev == 0, "%s: the master reported 0x%x within %d ms, "
		      "expected nothing (no data, no POLLHUP)",
		      why, (unsigned)rev, TP_QUIET_WINDOW_MS);
	tp_set_nonblock(master, true);
	ssize_t r = read(master, &c, 1);
	ATF_CHECK_MSG(r < 0 && errno == EAGAIN,
		      "%s: non-blocking read gave %zd (%s), expected EAGAIN",
		      why, r, r < 0 ? strerror(errno) : "data");
	tp_set_nonblock(master, false);
}

TP_CASE_COMMITS(parent_slave_copy_blocks_eio, TP_LINUX, BROKE_1, FIXED_1,
	   "While the parent still holds its own slave descriptor, the "
	   "child's exit brings its data but no EIO (EAGAIN instead); closing "
	   "the parent's copy then gives EIO")
{
	struct tp_pty p;
	struct tp_drain d;
	const size_t n = 100;

	tp_pty_open(&p, TP_RAW);
	int keep = dup(p.slave); /* start_writer closes p.slave */
	ATF_REQUIRE_MSG(keep >= 0, "dup: %s", strerror(errno));
	pid_t pid = start_writer(tc, &p, n, EX_FORK_EXIT);
	check_writer_status(tp_wait_exit_now(pid, "the writer's exit"),
			    EX_FORK_EXIT);
	tp_read_exact(p.master, rbuf, n, READ_CHUNK, "the child's 100 bytes");
	ATF_CHECK_MSG(tp_pattern_check(rbuf, n, 0) < 0,
		      "the child's bytes differ from what it wrote");
	expect_no_hangup(p.master, "slave still open in the parent");

	close(keep);
	tp_set_nonblock(p.master, true);
	tp_drain(p.master, rbuf, n, READ_CHUNK, TP_WAIT_MS, &d,
		 "EIO after the parent's slave copy closes");
	ATF_CHECK_MSG(d.got == 0, "%zu extra bytes after the last close",
		      d.got);
	ATF_CHECK_MSG(!d.eof && d.err == EIO, "after the last slave close the "
		      "read ended with %s, expected EIO",
		      d.eof ? "EOF" : strerror(d.err));
	ATF_CHECK_MSG(d.eagain == 0, "%d EAGAIN after the last slave close",
		      d.eagain);
	tp_pty_close(&p);
}

#define HOLD_N 100

TP_CASE_COMMITS(grandchild_holds_slave, TP_LINUX, BROKE_1, FIXED_1,
	   "A child writes, forks a grandchild that keeps the slave open, and "
	   "exits: the master gives the data but no EIO while the grandchild "
	   "holds the slave; when it writes more and exits, the rest, then EIO")
{
	struct tp_pty p;
	struct tp_drain d;
	char path[1024], nstr[32], startstr[32];
	char *argv[] = {"tp_writer", WRITER_FD_STR, nstr, "hold", startstr,
			NULL};
	int ctl[2], info[2];
	pid_t gpid = -1;

	/* The grandchild is orphaned by the child's exit: adopt it so it is
	 * reaped here and not by init. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		if (errno == EINVAL)
			atf_tc_skip("needs PR_SET_CHILD_SUBREAPER (Linux 3.4)");
		atf_tc_fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	}
	tp_fixture_path(tc, "tp_writer", path, sizeof(path));
	snprintf(nstr, sizeof(nstr), "%d", HOLD_N);
	snprintf(startstr, sizeof(startstr), "%d", HOLD_N);
	tp_pattern(wbuf, HOLD_N, 0);
	tp_pty_open(&p, TP_RAW);
	if (pipe2(ctl, O_CLOEXEC) != 0 || pipe2(info, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));

	/* Child: write bytes 0..99, fork the holder (which writes 100..199
	 * and waits for 'w' on stdin before writing 200..299), report its
	 * pid, _exit. */
	pid_t pid = fork();
	if (pid < 0)
		atf_tc_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		close(p.master);
		if (write(p.slave, wbuf, HOLD_N) != HOLD_N)
			_exit(2);
		pid_t g = fork();
		if (g == 0) {
			if (dup2(ctl[0], 0) != 0)
				_exit(126);
			if (p.slave == WRITER_FD)
				fcntl(WRITER_FD, F_SETFD, 0);
			else if (dup2(p.slave, WRITER_FD) != WRITER_FD)
				_exit(126);
			execv(path, argv);
			_exit(127);
		}
		if (g < 0 || write(info[1], &g, sizeof(g)) != sizeof(g))
			_exit(3);
		_exit(0);
	}
	tp_track(pid);
	tp_close_slave(&p);
	close(ctl[0]);
	close(info[1]);
	int status = tp_wait_exit_now(pid, "the child's exit");
	ATF_REQUIRE_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			"child failed to write or fork: wait status 0x%x",
			(unsigned)status);
	tp_read_exact(info[0], &gpid, sizeof(gpid), sizeof(gpid),
		      "the grandchild's pid");
	tp_track(gpid);
	close(info[0]);

	tp_read_exact(p.master, rbuf, 2 * HOLD_N, READ_CHUNK,
		      "the child's and the grandchild's first 100 bytes each");
	expect_no_hangup(p.master, "grandchild still holds the slave");

	tp_write_all(ctl[1], "w", 1, "go byte to the grandchild");
	status = tp_wait_exit_now(gpid, "the grandchild's exit");
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "grandchild writer failed: wait status 0x%x",
		      (unsigned)status);
	tp_set_nonblock(p.master, true);
	tp_drain(p.master, rbuf + 2 * HOLD_N, HOLD_N, READ_CHUNK, TP_WAIT_MS,
		 &d, "the grandchild's last bytes, then EIO");
	check_data("after the grandchild's exit", 3 * HOLD_N, 2 * HOLD_N + d.got,
		   &d, true);
	close(ctl[1]);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, block_raw_1);
	ATF_TP_ADD_TC(tp, block_raw_100);
	ATF_TP_ADD_TC(tp, block_raw_4095);
	ATF_TP_ADD_TC(tp, block_raw_4096);
	ATF_TP_ADD_TC(tp, block_raw_4097);
	ATF_TP_ADD_TC(tp, block_raw_65536);
	ATF_TP_ADD_TC(tp, block_cooked_4096);
	ATF_TP_ADD_TC(tp, block_cooked_65536);
	ATF_TP_ADD_TC(tp, nonblock_raw_1);
	ATF_TP_ADD_TC(tp, nonblock_raw_4095);
	ATF_TP_ADD_TC(tp, nonblock_raw_4097);
	ATF_TP_ADD_TC(tp, nonblock_raw_65536);
	ATF_TP_ADD_TC(tp, nonblock_cooked_100);
	ATF_TP_ADD_TC(tp, nonblock_cooked_4096);
	ATF_TP_ADD_TC(tp, poll_raw_100);
	ATF_TP_ADD_TC(tp, poll_raw_4097);
	ATF_TP_ADD_TC(tp, poll_cooked_65536);
	ATF_TP_ADD_TC(tp, epoll_raw_4096);
	ATF_TP_ADD_TC(tp, epoll_cooked_4097);
	ATF_TP_ADD_TC(tp, epoll_raw_65536);
	ATF_TP_ADD_TC(tp, sigchld_handler_raw_1);
	ATF_TP_ADD_TC(tp, sigchld_handler_raw_4096);
	ATF_TP_ADD_TC(tp, sigchld_handler_cooked_4097);
	ATF_TP_ADD_TC(tp, writer_exit_raw_4096);
	ATF_TP_ADD_TC(tp, writer_return_cooked_4097);
	ATF_TP_ADD_TC(tp, writer_return_raw_65536);
	ATF_TP_ADD_TC(tp, writer_sigkill_raw_4096);
	ATF_TP_ADD_TC(tp, writer_sigterm_cooked_100);
	ATF_TP_ADD_TC(tp, parent_slave_copy_blocks_eio);
	ATF_TP_ADD_TC(tp, grandchild_holds_slave);
	return atf_no_error();
}
