// SPDX-License-Identifier: GPL-2.0-only
/* t_background.c: a background process group touching its controlling tty
 * gets SIGTTIN / SIGTTOU (POSIX 11.1.4), or EIO where the signal cannot act.
 *
 * Process tree of every case: the case forks a session leader L that takes
 * the slave as controlling tty (its group is the foreground one); L forks B
 * into a new process group of the same session, which is therefore in the
 * background and not orphaned (its parent L is in the same session, another
 * group).  B runs one operation and reports a message (empty = success)
 * through a pipe; L relays it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

enum disp { CATCH, IGNORE, BLOCK };

struct bg {
	struct tp_pty p;
	bool tostop;                   /* set TOSTOP before B runs */
	int sig;                       /* signal whose disposition B sets */
	enum disp disp;
	const char *(*op)(struct bg *); /* B's operation: NULL or why it failed */
};

static volatile sig_atomic_t caught;
static char msg[256];

static void
on_signal(int sig)
{
	caught = sig;
}

static void
set_disposition(int sig, enum disp d)
{
	struct sigaction sa = {0};
	sigemptyset(&sa.sa_mask);
	if (d == BLOCK) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_BLOCK, &set, NULL);
		return;
	}
	/* No SA_RESTART: the interrupted call returns EINTR instead of
	 * restarting and raising the signal again forever. */
	sa.sa_handler = d == IGNORE ? SIG_IGN : on_signal;
	sigaction(sig, &sa, NULL);
}

/* In B: the result of a call that job control must stop with `sig`. */
static const char *
expect_signal(const char *call, ssize_t r, int sig)
{
	if (r >= 0)
		snprintf(msg, sizeof(msg), "background %s succeeded (%zd), "
			 "expected %s", call, r, strsignal(sig));
	else if (errno != EINTR)
		snprintf(msg, sizeof(msg), "background %s: %s, expected EINTR "
			 "by %s", call, strerror(errno), strsignal(sig));
	else if (caught != sig)
		snprintf(msg, sizeof(msg), "background %s: EINTR but caught "
			 "signal %d, expected %s", call, (int)caught,
			 strsignal(sig));
	else
		return NULL;
	return msg;
}

static const char *
expect_errno(const char *call, ssize_t r, int err)
{
	if (r >= 0)
		snprintf(msg, sizeof(msg), "background %s succeeded (%zd), "
			 "expected %s", call, r, strerror(err));
	else if (errno != err)
		snprintf(msg, sizeof(msg), "background %s: %s, expected %s",
			 call, strerror(errno), strerror(err));
	else if (caught)
		snprintf(msg, sizeof(msg), "background %s: signal %d caught",
			 call, (int)caught);
	else
		return NULL;
	return msg;
}

/* A private non-blocking descriptor on the ctty: a read that job control
 * wrongly lets through returns EAGAIN instead of blocking. */
static int
open_ctty(void)
{
	return open("/dev/tty", O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

static const char *
op_read_sigttin(struct bg *b)
{
	(void)b;
	char c;
	int fd = open_ctty();
	if (fd < 0)
		return "open /dev/tty in the background group failed";
	return expect_signal("read", read(fd, &c, 1), SIGTTIN);
}

static const char *
op_read_eio(struct bg *b)
{
	(void)b;
	char c;
	int fd = open_ctty();
	if (fd < 0)
		return "open /dev/tty in the background group failed";
	const char *m = expect_errno("read", read(fd, &c, 1), EIO);
	sigset_t pend;
	sigpending(&pend);
	if (m == NULL && sigismember(&pend, SIGTTIN))
		m = "background read failed EIO but left SIGTTIN pending";
	return m;
}

static const char *
op_write_sigttou(struct bg *b)
{
	return expect_signal("write", write(b->p.slave, "bgw", 3), SIGTTOU);
}

static const char *
op_write_ok(struct bg *b)
{
	ssize_t r = write(b->p.slave, "bgw", 3);
	if (r == 3 && !caught)
		return NULL;
	snprintf(msg, sizeof(msg), "background write returned %zd (%s), "
		 "caught signal %d; expected 3 bytes written, no signal",
		 r, r < 0 ? strerror(errno) : "short", (int)caught);
	return msg;
}

static const char *
op_tcsetattr_sigttou(struct bg *b)
{
	struct termios t;
	if (tcgetattr(b->p.slave, &t) != 0)
		return "tcgetattr in the background group failed";
	t.c_lflag &= ~ECHO;
	return expect_signal("tcsetattr", tcsetattr(b->p.slave, TCSANOW, &t),
			     SIGTTOU);
}

static const char *
op_tcsetpgrp_sigttou(struct bg *b)
{
	return expect_signal("tcsetpgrp",
			     tcsetpgrp(b->p.slave, getpgrp()), SIGTTOU);
}

/* In a child (no ATF calls): set TOSTOP on fd; 0 or a tp_child_fail value. */
static int
child_set_tostop(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) != 0)
		return tp_child_fail("get termios for TOSTOP: %s", strerror(errno));
	t.c_lflag |= TOSTOP;
	if (tcsetattr(fd, TCSANOW, &t) != 0)
		return tp_child_fail("set TOSTOP: %s", strerror(errno));
	return 0;
}

/* L: the session leader. */
static int
leader(void *arg)
{
	struct bg *b = arg;
	int rep[2], status;
	char why[sizeof(msg)] = "";

	if (tp_child_take_ctty(b->p.slave))
		return 1;
	if (b->tostop && child_set_tostop(b->p.slave) != 0)
		return 1;
	if (pipe(rep) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t pid = tp_child_fork();
	if (pid < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		close(rep[0]);
		if (setpgid(0, 0) != 0)
			_exit(2);
		set_disposition(b->sig, b->disp);
		const char *m = b->op(b);
		if (m != NULL && write(rep[1], m, strlen(m)) < 0)
			_exit(3);
		_exit(m == NULL ? 0 : 1);
	}
	close(rep[1]);
	/* Both sides set the group, as a shell does, so B is in the
	 * background before either goes on. */
	setpgid(pid, pid);
	if (tp_child_wait_exit(pid, TP_WAIT_MS, &status,
			       "background process"))
		return 1;
	ssize_t n = read(rep[0], why, sizeof(why) - 1);
	why[n > 0 ? n : 0] = '\0';
	close(rep[0]);
	if (why[0] != '\0')
		return tp_child_fail("%s", why);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return tp_child_fail("background process ended with status "
				     "0x%x",
				     status);
	/* The terminal is still ours and still in L's group's hands. */
	if (tcgetpgrp(b->p.slave) != getpgrp())
		return tp_child_fail("foreground group changed to %d",
				     (int)tcgetpgrp(b->p.slave));
	return 0;
}

static void
run_bg(struct bg *b, const char *what)
{
	struct tp_child c;

	tp_child_start(&c, leader, b);
	tp_child_join(&c, TP_WAIT_MS, what);
}

TP_CASE(bg_read_gets_sigttin, TP_POSIX,
	"A background process reading its controlling tty is sent SIGTTIN "
	"and the read fails EINTR once the handler ran")
{
	struct bg b = {.sig = SIGTTIN, .disp = CATCH, .op = op_read_sigttin};
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background read");
	tp_pty_close(&b.p);
}

TP_CASE(bg_read_eio_if_sigttin_ignored, TP_POSIX,
	"A background read of the controlling tty with SIGTTIN ignored fails "
	"EIO")
{
	struct bg b = {.sig = SIGTTIN, .disp = IGNORE, .op = op_read_eio};
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background read, SIGTTIN ignored");
	tp_pty_close(&b.p);
}

TP_CASE(bg_read_eio_if_sigttin_blocked, TP_LINUX,
	"Linux treats a blocked SIGTTIN as ignored: the background read fails "
	"EIO and no signal is queued")
{
	struct bg b = {.sig = SIGTTIN, .disp = BLOCK, .op = op_read_eio};
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background read, SIGTTIN blocked");
	tp_pty_close(&b.p);
}

TP_CASE(bg_write_tostop_gets_sigttou, TP_POSIX,
	"With TOSTOP set, a background write to the controlling tty is sent "
	"SIGTTOU and writes nothing")
{
	struct bg b = {.tostop = true, .sig = SIGTTOU, .disp = CATCH,
		       .op = op_write_sigttou};
	tp_pty_open(&b.p, TP_RAW);
	run_bg(&b, "background write with TOSTOP");
	/* A write that was stopped must not have queued anything either. */
	int avail = -1;
	ATF_REQUIRE(ioctl(b.p.master, FIONREAD, &avail) == 0);
	ATF_CHECK_MSG(avail == 0, "%d bytes reached the master", avail);
	tp_pty_close(&b.p);
}

TP_CASE(bg_write_without_tostop_succeeds, TP_POSIX,
	"With TOSTOP clear, a background write to the controlling tty "
	"succeeds without a signal and reaches the master")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH, .op = op_write_ok};
	char got[3];
	tp_pty_open(&b.p, TP_RAW);
	tp_lflag(b.p.slave, 0, TOSTOP);
	run_bg(&b, "background write without TOSTOP");
	tp_read_exact(b.p.master, got, 3, 3, "background write on the master");
	ATF_CHECK(memcmp(got, "bgw", 3) == 0);
	tp_pty_close(&b.p);
}

TP_CASE(bg_write_tostop_sigttou_ignored_succeeds, TP_POSIX,
	"With TOSTOP set but SIGTTOU ignored, a background write proceeds")
{
	struct bg b = {.tostop = true, .sig = SIGTTOU, .disp = IGNORE,
		       .op = op_write_ok};
	char got[3];
	tp_pty_open(&b.p, TP_RAW);
	run_bg(&b, "background write with TOSTOP, SIGTTOU ignored");
	tp_read_exact(b.p.master, got, 3, 3, "background write on the master");
	ATF_CHECK(memcmp(got, "bgw", 3) == 0);
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcsetattr_gets_sigttou, TP_POSIX,
	"tcsetattr from a background process is sent SIGTTOU even without "
	"TOSTOP, and the settings stay unchanged")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH,
		       .op = op_tcsetattr_sigttou};
	struct termios t;
	tp_pty_open(&b.p, TP_COOKED);
	tp_lflag(b.p.slave, ECHO, TOSTOP);
	run_bg(&b, "background tcsetattr");
	tp_tc_get(b.p.slave, &t);
	ATF_CHECK_MSG(t.c_lflag & ECHO, "ECHO was cleared by the background "
		      "tcsetattr");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcsetpgrp_gets_sigttou, TP_POSIX,
	"tcsetpgrp from a background process is sent SIGTTOU and the "
	"foreground group stays the leader's")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH,
		       .op = op_tcsetpgrp_sigttou};
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background tcsetpgrp");
	tp_pty_close(&b.p);
}

static const char *
op_tcsetattr_ok(struct bg *b)
{
	struct termios t;
	if (tcgetattr(b->p.slave, &t) != 0)
		return "tcgetattr in the background group failed";
	t.c_lflag &= ~ECHO;
	if (tcsetattr(b->p.slave, TCSANOW, &t) == 0 && !caught)
		return NULL;
	snprintf(msg, sizeof(msg), "background tcsetattr: %s, caught signal "
		 "%d; expected success, no signal", strerror(errno),
		 (int)caught);
	return msg;
}

TP_CASE(bg_write_tostop_sigttou_blocked_succeeds, TP_LINUX,
	"With TOSTOP set and SIGTTOU blocked, a background write proceeds "
	"(Linux treats blocked like ignored) and no signal is queued")
{
	struct bg b = {.tostop = true, .sig = SIGTTOU, .disp = BLOCK,
		       .op = op_write_ok};
	char got[3];
	tp_pty_open(&b.p, TP_RAW);
	run_bg(&b, "background write with TOSTOP, SIGTTOU blocked");
	tp_read_exact(b.p.master, got, 3, 3, "background write on the master");
	ATF_CHECK(memcmp(got, "bgw", 3) == 0);
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcsetattr_sigttou_ignored_succeeds, TP_POSIX,
	"tcsetattr from a background process with SIGTTOU ignored succeeds "
	"and changes the settings")
{
	struct bg b = {.sig = SIGTTOU, .disp = IGNORE, .op = op_tcsetattr_ok};
	struct termios t;
	tp_pty_open(&b.p, TP_COOKED);
	tp_lflag(b.p.slave, ECHO, TOSTOP);
	run_bg(&b, "background tcsetattr, SIGTTOU ignored");
	tp_tc_get(b.p.slave, &t);
	ATF_CHECK_MSG(!(t.c_lflag & ECHO), "ECHO still set after the "
		      "background tcsetattr");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcsetattr_sigttou_blocked_succeeds, TP_POSIX,
	"tcsetattr from a background process with SIGTTOU blocked succeeds "
	"and changes the settings")
{
	struct bg b = {.sig = SIGTTOU, .disp = BLOCK, .op = op_tcsetattr_ok};
	struct termios t;
	tp_pty_open(&b.p, TP_COOKED);
	tp_lflag(b.p.slave, ECHO, TOSTOP);
	run_bg(&b, "background tcsetattr, SIGTTOU blocked");
	tp_tc_get(b.p.slave, &t);
	ATF_CHECK_MSG(!(t.c_lflag & ECHO), "ECHO still set after the "
		      "background tcsetattr");
	tp_pty_close(&b.p);
}

/* ---------------------------------- the other calls that change the tty */

/* POSIX 11.1.4 lists tcdrain, tcflow, tcflush and tcsendbreak with
 * tcsetattr: from a background group each is sent SIGTTOU, TOSTOP or not
 * (Linux: tty_check_change in each ioctl). */
static const char *
op_tcflush_sigttou(struct bg *b)
{
	return expect_signal("tcflush", tcflush(b->p.slave, TCIFLUSH), SIGTTOU);
}

static const char *
op_tcflow_sigttou(struct bg *b)
{
	return expect_signal("tcflow", tcflow(b->p.slave, TCOOFF), SIGTTOU);
}

static const char *
op_tcdrain_sigttou(struct bg *b)
{
	return expect_signal("tcdrain", tcdrain(b->p.slave), SIGTTOU);
}

static const char *
op_tcsendbreak_sigttou(struct bg *b)
{
	return expect_signal("tcsendbreak", tcsendbreak(b->p.slave, 0), SIGTTOU);
}

static const char *
op_tcflush_ok(struct bg *b)
{
	if (tcflush(b->p.slave, TCIFLUSH) == 0 && !caught)
		return NULL;
	snprintf(msg, sizeof(msg), "background tcflush: %s, caught signal %d; "
		 "expected success, no signal", strerror(errno), (int)caught);
	return msg;
}

/* Queries change nothing, so job control lets them through. */
static const char *
op_queries_ok(struct bg *b)
{
	struct termios t;
	struct winsize ws;
	pid_t sid;
	int n;
	const char *failed = NULL;
	if (tcgetattr(b->p.slave, &t) != 0)
		failed = "tcgetattr";
	else if (ioctl(b->p.slave, TIOCGWINSZ, &ws) != 0)
		failed = "TIOCGWINSZ";
	else if (tcgetpgrp(b->p.slave) < 0)
		failed = "tcgetpgrp";
	else if (ioctl(b->p.slave, TIOCGSID, &sid) != 0)
		failed = "TIOCGSID";
	else if (ioctl(b->p.slave, FIONREAD, &n) != 0)
		failed = "FIONREAD";
	if (failed)
		snprintf(msg, sizeof(msg), "background %s: %s", failed,
			 strerror(errno));
	else if (caught)
		snprintf(msg, sizeof(msg), "background queries caught signal %d",
			 (int)caught);
	return failed || caught ? msg : NULL;
}

static const char *
op_tiocswinsz_ok(struct bg *b)
{
	struct winsize ws = {.ws_row = 33, .ws_col = 99};
	if (ioctl(b->p.slave, TIOCSWINSZ, &ws) == 0 && !caught)
		return NULL;
	snprintf(msg, sizeof(msg), "background TIOCSWINSZ: %s, caught signal "
		 "%d; expected success, no signal", strerror(errno),
		 (int)caught);
	return msg;
}

/* A complete line queued on the slave, visible to FIONREAD. */
static void
queue_line(struct bg *b)
{
	tp_write_str(b->p.master, "queued\n", "line for the slave");
	tp_wait_fionread(b->p.slave, 7, TP_WAIT_MS, "queued line on the slave");
}

TP_CASE(bg_tcflush_gets_sigttou, TP_POSIX,
	"tcflush from a background process is sent SIGTTOU even without "
	"TOSTOP, and the queued input line is still there afterwards")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH, .op = op_tcflush_sigttou};
	tp_pty_open(&b.p, TP_COOKED);
	tp_lflag(b.p.slave, 0, TOSTOP);
	queue_line(&b);
	run_bg(&b, "background tcflush");
	ATF_CHECK_EQ_MSG(tp_fionread(b.p.slave), 7, "FIONREAD %d after the "
			 "refused background tcflush, want 7",
			 tp_fionread(b.p.slave));
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcflush_sigttou_ignored_succeeds, TP_POSIX,
	"tcflush from a background process with SIGTTOU ignored succeeds and "
	"discards the queued input line")
{
	struct bg b = {.sig = SIGTTOU, .disp = IGNORE, .op = op_tcflush_ok};
	tp_pty_open(&b.p, TP_COOKED);
	queue_line(&b);
	run_bg(&b, "background tcflush, SIGTTOU ignored");
	ATF_CHECK_EQ_MSG(tp_fionread(b.p.slave), 0, "FIONREAD %d after the "
			 "background tcflush, want 0", tp_fionread(b.p.slave));
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcflow_gets_sigttou, TP_POSIX,
	"tcflow(TCOOFF) from a background process is sent SIGTTOU even "
	"without TOSTOP, and output is not suspended")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH, .op = op_tcflow_sigttou};
	char got[2];
	tp_pty_open(&b.p, TP_RAW);
	tp_lflag(b.p.slave, 0, TOSTOP);
	run_bg(&b, "background tcflow");
	tp_write_str(b.p.slave, "ok", "slave output after the refused tcflow");
	tp_read_exact(b.p.master, got, 2, 2, "slave output on the master");
	ATF_CHECK(memcmp(got, "ok", 2) == 0);
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcdrain_gets_sigttou, TP_POSIX,
	"tcdrain from a background process is sent SIGTTOU even without "
	"TOSTOP")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH, .op = op_tcdrain_sigttou};
	tp_pty_open(&b.p, TP_RAW);
	tp_lflag(b.p.slave, 0, TOSTOP);
	run_bg(&b, "background tcdrain");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tcsendbreak_gets_sigttou, TP_POSIX,
	"tcsendbreak from a background process is sent SIGTTOU even without "
	"TOSTOP")
{
	struct bg b = {.sig = SIGTTOU, .disp = CATCH,
		       .op = op_tcsendbreak_sigttou};
	tp_pty_open(&b.p, TP_RAW);
	tp_lflag(b.p.slave, 0, TOSTOP);
	run_bg(&b, "background tcsendbreak");
	tp_pty_close(&b.p);
}

TP_CASE(bg_queries_get_no_signal, TP_POSIX,
	"With TOSTOP set, a background process may still query the terminal "
	"(tcgetattr, TIOCGWINSZ, tcgetpgrp, TIOCGSID, FIONREAD) with no "
	"SIGTTOU")
{
	struct bg b = {.tostop = true, .sig = SIGTTOU, .disp = CATCH,
		       .op = op_queries_ok};
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background queries");
	tp_pty_close(&b.p);
}

TP_CASE(bg_tiocswinsz_gets_no_signal, TP_LINUX,
	"Linux lets a background process set the window size: TIOCSWINSZ "
	"does no job-control check (even with TOSTOP), and the size changes")
{
	struct bg b = {.tostop = true, .sig = SIGTTOU, .disp = CATCH,
		       .op = op_tiocswinsz_ok};
	struct winsize ws;
	tp_pty_open(&b.p, TP_COOKED);
	run_bg(&b, "background TIOCSWINSZ");
	ATF_REQUIRE(ioctl(b.p.master, TIOCGWINSZ, &ws) == 0);
	ATF_CHECK_MSG(ws.ws_row == 33 && ws.ws_col == 99, "window size %ux%u "
		      "after the background TIOCSWINSZ, want 33x99",
		      ws.ws_row, ws.ws_col);
	tp_pty_close(&b.p);
}

/* ------------------------------------------------ default disposition: stop */

/* In L: wait (bounded) until pid stops or exits; returns its status or -1. */
static int
wait_stopped(pid_t pid, int *status)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	for (;;) {
		pid_t r = waitpid(pid, status, WUNTRACED | WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (tp_now_ms() > deadline)
			return -1;
		tp_backoff(&step);
	}
}

struct stopper {
	struct tp_pty p;
	bool write;   /* B writes "bgw" (TOSTOP set) instead of reading */
};

/* B: one read or write with default dispositions; reports what it got. */
static int
stopper_b(struct stopper *st, int rep)
{
	char buf[16];
	ssize_t n;

	if (setpgid(0, 0) != 0)
		return 2;
	if (st->write)
		n = write(st->p.slave, "bgw", 3);
	else
		n = read(st->p.slave, buf, sizeof(buf));
	if (n < 0)
		snprintf(msg, sizeof(msg), "%s after SIGCONT: %s",
			 st->write ? "write" : "read", strerror(errno));
	else if (st->write ? n != 3 : (n != 3 || memcmp(buf, "hi\n", 3) != 0))
		snprintf(msg, sizeof(msg), "%s after SIGCONT returned %zd",
			 st->write ? "write" : "read", n);
	else
		msg[0] = '\0';
	if (msg[0] != '\0' && write(rep, msg, strlen(msg)) < 0)
		return 3;
	return msg[0] == '\0' ? 0 : 1;
}

static int
stopper_leader(void *arg)
{
	struct stopper *st = arg;
	int rep[2], status;
	int sig = st->write ? SIGTTOU : SIGTTIN;
	char why[sizeof(msg)] = "";

	if (tp_child_take_ctty(st->p.slave))
		return 1;
	if (st->write && child_set_tostop(st->p.slave) != 0)
		return 1;
	if (pipe(rep) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t pid = tp_child_fork();
	if (pid < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		close(rep[0]);
		_exit(stopper_b(st, rep[1]));
	}
	close(rep[1]);
	setpgid(pid, pid);
	if (wait_stopped(pid, &status) != 0)
		return tp_child_fail("background process neither stopped nor "
				     "exited within %d ms", TP_WAIT_MS);
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != sig) {
		ssize_t n = read(rep[0], why, sizeof(why) - 1);
		why[n > 0 ? n : 0] = '\0';
		return tp_child_fail("background %s: status 0x%x (%s), "
				     "expected a stop by %s",
				     st->write ? "write" : "read", status, why,
				     strsignal(sig));
	}
	int avail = -1;
	if (st->write && (ioctl(st->p.master, FIONREAD, &avail) != 0 ||
			  avail != 0))
		return tp_child_fail("stopped write left %d bytes on the "
				     "master", avail);
	/* Bring B to the foreground and continue it, as fg does. */
	if (tcsetpgrp(st->p.slave, pid) != 0)
		return tp_child_fail("tcsetpgrp: %s", strerror(errno));
	if (kill(-pid, SIGCONT) != 0)
		return tp_child_fail("SIGCONT: %s", strerror(errno));
	if (tp_child_wait_exit(pid, TP_WAIT_MS, &status,
			       "continued foreground process"))
		return 1;
	ssize_t n = read(rep[0], why, sizeof(why) - 1);
	why[n > 0 ? n : 0] = '\0';
	close(rep[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return tp_child_fail("continued process: status 0x%x %s",
				     status, why);
	return 0;
}

TP_CASE(bg_read_default_sigttin_stops_then_fg_reads, TP_POSIX,
	"With SIGTTIN at its default, a background read stops the process "
	"(even with a line waiting); once its group is made foreground and "
	"continued, the restarted read returns the line")
{
	struct stopper st = {.write = false};
	struct tp_child c;

	tp_pty_open(&st.p, TP_COOKED);
	tp_lflag(st.p.slave, 0, ECHO);
	tp_write_str(st.p.master, "hi\n", "master write of hi NL");
	tp_wait_fionread(st.p.slave, 3, TP_WAIT_MS, "line on the slave");
	tp_child_start(&c, stopper_leader, &st);
	tp_child_join(&c, TP_WAIT_MS, "stopped background reader");
	tp_pty_close(&st.p);
}

TP_CASE(bg_write_tostop_default_stops_then_fg_writes, TP_POSIX,
	"With TOSTOP and SIGTTOU at its default, a background write stops "
	"the process and writes nothing; made foreground and continued, the "
	"restarted write reaches the master")
{
	struct stopper st = {.write = true};
	struct tp_child c;
	char got[3];

	tp_pty_open(&st.p, TP_RAW);
	tp_child_start(&c, stopper_leader, &st);
	tp_child_join(&c, TP_WAIT_MS, "stopped background writer");
	tp_read_exact(st.p.master, got, 3, 3, "the write after SIGCONT");
	ATF_CHECK(memcmp(got, "bgw", 3) == 0);
	tp_pty_close(&st.p);
}

/* ------------------------------------------------ orphaned process groups */

enum orphan_op { ORPHAN_READ, ORPHAN_WRITE, ORPHAN_TCSETATTR };

struct orphan {
	struct tp_pty p;
	enum orphan_op op;
};

/* B, alone in a group whose parent M has exited: an orphaned group. */
static int
orphan_b(struct orphan *o, pid_t m, int rep)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	ssize_t r;
	char c;
	struct termios t;
	const char *call[] = {"read", "write", "tcsetattr"};

	alarm(TP_CASE_TIMEOUT_S);
	while (getppid() == m) {
		if (tp_now_ms() > deadline) {
			snprintf(msg, sizeof(msg), "parent never exited");
			goto out;
		}
		tp_backoff(&step);
	}
	if (o->op == ORPHAN_READ)
		r = read(o->p.slave, &c, 1);
	else if (o->op == ORPHAN_WRITE)
		r = write(o->p.slave, "orw", 3);
	else {
		tcgetattr(o->p.slave, &t);
		t.c_lflag &= ~ECHO;
		r = tcsetattr(o->p.slave, TCSANOW, &t);
	}
	if (r >= 0)
		snprintf(msg, sizeof(msg), "%s from an orphaned background "
			 "group succeeded, expected EIO", call[o->op]);
	else if (errno != EIO)
		snprintf(msg, sizeof(msg), "%s from an orphaned background "
			 "group: %s, expected EIO", call[o->op],
			 strerror(errno));
	else
		snprintf(msg, sizeof(msg), "ok");
out:
	if (write(rep, msg, strlen(msg)) < 0)
		return 3;
	return 0;
}

static int
orphan_leader(void *arg)
{
	struct orphan *o = arg;
	int rep[2], pidp[2], status;
	char why[sizeof(msg)] = "";
	pid_t b = -1;

	if (tp_child_take_ctty(o->p.slave))
		return 1;
	struct termios t;
	tcgetattr(o->p.slave, &t);
	t.c_lflag |= TOSTOP | ECHO;
	if (tcsetattr(o->p.slave, TCSANOW, &t) != 0)
		return tp_child_fail("set TOSTOP: %s", strerror(errno));
	if (pipe(rep) != 0 || pipe(pidp) != 0)
		return tp_child_fail("pipe: %s", strerror(errno));
	pid_t m = tp_child_fork();
	if (m < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (m == 0) {
		/* M: a new group, one member B, then M exits. */
		close(rep[0]);
		close(pidp[0]);
		if (setpgid(0, 0) != 0)
			_exit(2);
		pid_t self = getpid();
		pid_t bp = fork();
		if (bp == 0) {
			close(pidp[1]);
			_exit(orphan_b(o, self, rep[1]));
		}
		if (bp < 0 || write(pidp[1], &bp, sizeof(bp)) != sizeof(bp))
			_exit(3);
		_exit(0);
	}
	close(rep[1]);
	close(pidp[1]);
	setpgid(m, m);
	if (tp_child_wait_exit(m, TP_WAIT_MS, &status, "middle process"))
		return 1;
	if (read(pidp[0], &b, sizeof(b)) != sizeof(b))
		return tp_child_fail("middle process status 0x%x, no pid",
				     status);
	close(pidp[0]);
	struct pollfd pfd = {.fd = rep[0], .events = POLLIN};
	ssize_t n = 0;
	if (poll(&pfd, 1, TP_WAIT_MS) == 1)
		n = read(rep[0], why, sizeof(why) - 1);
	why[n > 0 ? n : 0] = '\0';
	close(rep[0]);
	if (n <= 0) {
		/* Stopped (or hung) instead of failing EIO: end it. */
		kill(b, SIGKILL);
		return tp_child_fail("orphaned background process reported "
				     "nothing in %d ms (stopped?)", TP_WAIT_MS);
	}
	if (strcmp(why, "ok") != 0)
		return tp_child_fail("%s", why);
	if (tcgetattr(o->p.slave, &t) != 0 || !(t.c_lflag & ECHO))
		return tp_child_fail("orphaned tcsetattr changed the settings");
	return 0;
}

static void
run_orphan(enum orphan_op op, const char *what)
{
	struct orphan o = {.op = op};
	struct tp_child c;

	tp_pty_open(&o.p, TP_RAW);
	tp_child_start(&c, orphan_leader, &o);
	tp_child_join(&c, TP_WAIT_MS, what);
	ATF_CHECK_EQ_MSG(tp_fionread(o.p.master), 0,
			 "the orphaned group's write reached the master");
	tp_pty_close(&o.p);
}

TP_CASE(bg_read_orphaned_group_eio_no_stop, TP_POSIX,
	"A read of the controlling tty from an orphaned background process "
	"group, SIGTTIN at its default, fails EIO instead of stopping")
{
	run_orphan(ORPHAN_READ, "orphaned background read");
}

TP_CASE(bg_write_tostop_orphaned_group_eio_no_stop, TP_POSIX,
	"With TOSTOP, a write from an orphaned background process group, "
	"SIGTTOU at its default, fails EIO instead of stopping, writing "
	"nothing")
{
	run_orphan(ORPHAN_WRITE, "orphaned background write");
}

TP_CASE(bg_tcsetattr_orphaned_group_eio_no_stop, TP_POSIX,
	"tcsetattr from an orphaned background process group fails EIO "
	"instead of stopping, and the settings stay unchanged")
{
	run_orphan(ORPHAN_TCSETATTR, "orphaned background tcsetattr");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, bg_read_gets_sigttin);
	ATF_TP_ADD_TC(tp, bg_read_eio_if_sigttin_ignored);
	ATF_TP_ADD_TC(tp, bg_read_eio_if_sigttin_blocked);
	ATF_TP_ADD_TC(tp, bg_write_tostop_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_write_without_tostop_succeeds);
	ATF_TP_ADD_TC(tp, bg_write_tostop_sigttou_ignored_succeeds);
	ATF_TP_ADD_TC(tp, bg_tcsetattr_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_tcsetpgrp_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_write_tostop_sigttou_blocked_succeeds);
	ATF_TP_ADD_TC(tp, bg_tcsetattr_sigttou_ignored_succeeds);
	ATF_TP_ADD_TC(tp, bg_tcsetattr_sigttou_blocked_succeeds);
	ATF_TP_ADD_TC(tp, bg_tcflush_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_tcflush_sigttou_ignored_succeeds);
	ATF_TP_ADD_TC(tp, bg_tcflow_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_tcdrain_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_tcsendbreak_gets_sigttou);
	ATF_TP_ADD_TC(tp, bg_queries_get_no_signal);
	ATF_TP_ADD_TC(tp, bg_tiocswinsz_gets_no_signal);
	ATF_TP_ADD_TC(tp, bg_read_default_sigttin_stops_then_fg_reads);
	ATF_TP_ADD_TC(tp, bg_write_tostop_default_stops_then_fg_writes);
	ATF_TP_ADD_TC(tp, bg_read_orphaned_group_eio_no_stop);
	ATF_TP_ADD_TC(tp, bg_write_tostop_orphaned_group_eio_no_stop);
	ATF_TP_ADD_TC(tp, bg_tcsetattr_orphaned_group_eio_no_stop);
	return atf_no_error();
}
