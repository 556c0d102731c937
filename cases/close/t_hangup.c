// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_hangup.c: hangup of a pty slave that is a controlling terminal.
 *
 * Closing the master hangs the slave up (tty_vhangup): the session leader
 * gets SIGHUP (and SIGCONT), every open slave descriptor reads 0 and writes
 * EIO, and the session loses its controlling tty.  The foreground process
 * group gets its SIGHUP only when the controlling process then exits.
 * TIOCVHANGUP and vhangup() (CAP_SYS_ADMIN) do the same without a close.
 * Job-control children setsid(): they escape Kyua's process-group kill, so
 * each case reaps them itself (tp_child_* and tp_track).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

/* poll() events asked for wherever revents are compared exactly. */
#define ALL_EVENTS (POLLIN | POLLRDNORM | POLLPRI | POLLOUT | POLLWRNORM)
/* What a hung-up tty reports for ALL_EVENTS (hung_up_tty_poll). */
#define HUNG_UP_REVENTS                                                        \
	(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM | POLLERR | POLLHUP)

/* ---------------------------------------------------------------- child side */

/* Everything here runs in forked children: no ATF calls, report through
 * tp_child_fail. */

struct leader_arg {
	struct tp_pty *p;
	int ready_w;     /* one byte once the slave is our ctty */
	bool ignore_hup; /* SIG_IGN instead of waiting for SIGHUP */
	bool check_fd;   /* after SIGHUP, check the #11 read/write/poll results */
};

static int
become_ctty_leader(struct leader_arg *a)
{
	/* The master must be closed by the case alone. */
	close(a->p->master);
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (ioctl(a->p->slave, TIOCSCTTY, 0) != 0)
		return tp_child_fail("TIOCSCTTY: %s", strerror(errno));
	return 0;
}

static int
ready(int fd)
{
	if (write(fd, "r", 1) != 1)
		return tp_child_fail("ready pipe: %s", strerror(errno));
	close(fd);
	return 0;
}

/* Wait (bounded) until fd is hung up.  POLLHUP alone comes first, when
 * pty_close() marks the other side closed; the hangup that follows swaps
 * the file to hung_up_tty_fops, whose poll adds POLLERR. */
static int
wait_hup(int fd)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int step = 0;
	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		int r = poll(&pfd, 1, left < 0 ? 0 : left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && (pfd.revents & POLLERR))
			return 0;
		if (left <= 0)
			return tp_child_fail("slave not hung up (no POLLERR) within "
					     "%d ms (revents 0x%x)",
					     TP_WAIT_MS, r > 0 ? pfd.revents : 0);
		/* POLLHUP without POLLERR: closed, hangup not done yet. */
		tp_backoff(&step);
	}
}

/* The results a hung-up slave descriptor must give (regression #11). */
static int
check_hung_up(int fd, const char *which)
{
	char buf[16];
	struct pollfd pfd = {.fd = fd, .events = ALL_EVENTS};

	if (poll(&pfd, 1, 0) != 1 || pfd.revents != HUNG_UP_REVENTS)
		return tp_child_fail("%s: poll revents 0x%x, expected 0x%x",
				     which, pfd.revents, HUNG_UP_REVENTS);
	errno = 0;
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n != 0)
		return tp_child_fail("%s: read returned %zd (%s), expected 0",
				     which, n, n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(fd, "x", 1);
	if (n != -1 || errno != EIO)
		return tp_child_fail("%s: write returned %zd (%s), expected EIO",
				     which, n, strerror(errno));
	return 0;
}

static int
no_ctty(void)
{
	errno = 0;
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 || errno != ENXIO)
		return tp_child_fail("open /dev/tty after hangup: %d (%s), "
				     "expected ENXIO (no controlling tty)",
				     fd, strerror(errno));
	return 0;
}

/* Session leader with the slave as ctty, SIGHUP blocked so the case can
 * see it with sigtimedwait instead of dying. */
static int
leader_waits_sighup(void *arg)
{
	struct leader_arg *a = arg;
	sigset_t set;
	siginfo_t si;
	struct timespec ts = {.tv_sec = TP_WAIT_MS / 1000};

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (become_ctty_leader(a) || ready(a->ready_w))
		return 1;
	int sig;
	while ((sig = sigtimedwait(&set, &si, &ts)) < 0 && errno == EINTR)
		;
	if (sig != SIGHUP)
		return tp_child_fail("no SIGHUP within %d ms of the master "
				     "close (%s)",
				     TP_WAIT_MS, strerror(errno));
	if (si.si_code != SI_KERNEL)
		return tp_child_fail("SIGHUP si_code %d, expected SI_KERNEL",
				     si.si_code);
	if (a->check_fd && check_hung_up(a->p->slave, "ctty slave after SIGHUP"))
		return 1;
	return no_ctty();
}

/* Session leader that ignores SIGHUP: it must survive the hangup. */
static int
leader_ignores_sighup(void *arg)
{
	struct leader_arg *a = arg;

	signal(SIGHUP, SIG_IGN);
	if (become_ctty_leader(a) || ready(a->ready_w))
		return 1;
	if (wait_hup(a->p->slave))
		return 1;
	if (check_hung_up(a->p->slave, "ctty slave, SIGHUP ignored"))
		return 1;
	return no_ctty();
}

/* ---------------------------------------------------------------- case side */

/* Wait for the child's ready byte; if it exits instead, report why. */
static void
wait_ready(int fd, struct tp_child *c, const char *what)
{
	char r;

	tp_waiting_for(what);
	if (tp_poll1(fd, POLLIN, TP_WAIT_MS) & (POLLIN | POLLHUP) &&
	    read(fd, &r, 1) == 1)
		return;
	tp_child_join(c, TP_WAIT_MS, what);
	atf_tc_fail("%s: child exited without getting ready", what);
}

static void
start_leader(struct tp_child *c, struct leader_arg *a, struct tp_pty *p,
	     tp_child_fn fn, bool ignore, bool check_fd)
{
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	a->p = p;
	a->ready_w = pfd[1];
	a->ignore_hup = ignore;
	a->check_fd = check_fd;
	tp_child_start(c, fn, a);
	close(pfd[1]);
	wait_ready(pfd[0], c, "child session leader with ctty ready");
	close(pfd[0]);
}

TP_CASE_META(master_close_sends_sighup_to_leader, TP_POSIX,
	  "A session leader whose controlling tty is the slave gets SIGHUP "
	  "(si_code SI_KERNEL) when the master closes, and loses its ctty "
	  "(open /dev/tty fails with ENXIO)",
	     TP_TAG_COMMITS(tc, "5.11 tty read/write conversions",
	       "ddc5fda74561, 17749851eb9c"))
{
	struct tp_pty p;
	struct tp_child c;
	struct leader_arg a;

	tp_pty_open(&p, TP_COOKED);
	start_leader(&c, &a, &p, leader_waits_sighup, false, false);
	tp_close_master(&p);
	tp_child_join(&c, TP_WAIT_MS, "session leader after master close");
	tp_pty_close(&p);
}

TP_CASE_META(hung_up_slave_read_eof_write_eio, TP_LINUX,
	  "Regression #11: after the master closes, every slave descriptor, "
	  "not only the ctty one, reads 0, writes EIO and polls "
	  "IN|OUT|ERR|HUP (+RDNORM|WRNORM)",
	     TP_TAG_COMMITS(tc, "5.11 tty read/write conversions",
	       "ddc5fda74561, 17749851eb9c"))
{
	struct tp_pty p;
	struct tp_child c;
	struct leader_arg a;
	char buf[8];

	tp_pty_open(&p, TP_COOKED);
	start_leader(&c, &a, &p, leader_waits_sighup, false, true);
	tp_close_master(&p);
	tp_child_join(&c, TP_WAIT_MS, "session leader after master close");
	/* The case's own O_NOCTTY slave descriptor is hung up as well. */
	short rev = tp_poll1(p.slave, ALL_EVENTS, 0);
	ATF_CHECK_MSG(rev == HUNG_UP_REVENTS,
		      "case's slave fd: revents 0x%x, expected 0x%x",
		      (unsigned)rev, (unsigned)HUNG_UP_REVENTS);
	errno = 0;
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 0, "case's slave fd: read %zd (%s), expected 0", n,
		      n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(p.slave, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO,
		      "case's slave fd: write %zd (%s), expected EIO", n,
		      strerror(errno));
	tp_pty_close(&p);
}

TP_CASE(hung_up_slave_refuses_async_io, TP_LINUX,
	"On a slave descriptor hung up by its master's close, turning "
	"signal-driven I/O on fails ENOTTY, through fcntl(F_SETFL, O_ASYNC) "
	"and FIOASYNC 1 alike, and O_ASYNC stays off; FIOASYNC 0, which "
	"changes nothing, succeeds")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	tp_close_master(&p);
	ATF_REQUIRE_MSG(tp_poll1(p.slave, POLLHUP, 0) & POLLHUP, "the slave is not "
			"hung up after the master's close");
	int fl = fcntl(p.slave, F_GETFL);
	errno = 0;
	int r = fcntl(p.slave, F_SETFL, fl | O_ASYNC);
	ATF_CHECK_MSG(r < 0 && errno == ENOTTY, "F_SETFL O_ASYNC on the hung-up "
		      "slave: %d (%s), want ENOTTY", r, strerror(errno));
	int on = 1, off = 0;
	errno = 0;
	r = ioctl(p.slave, FIOASYNC, &on);
	ATF_CHECK_MSG(r < 0 && errno == ENOTTY, "FIOASYNC 1 on the hung-up slave: "
		      "%d (%s), want ENOTTY", r, strerror(errno));
	ATF_CHECK_MSG(!(fcntl(p.slave, F_GETFL) & O_ASYNC), "O_ASYNC set on the "
		      "hung-up slave");
	ATF_CHECK_MSG(ioctl(p.slave, FIOASYNC, &off) == 0, "FIOASYNC 0 on the "
		      "hung-up slave: %s", strerror(errno));
	tp_pty_close(&p);
}

TP_CASE(sighup_ignored_leader_survives, TP_LINUX,
	"A session leader that ignores SIGHUP survives the master close and "
	"then reads 0, gets EIO on write and the hung-up poll result from "
	"its ctty, which it no longer has")
{
	struct tp_pty p;
	struct tp_child c;
	struct leader_arg a;

	tp_pty_open(&p, TP_COOKED);
	start_leader(&c, &a, &p, leader_ignores_sighup, true, true);
	tp_close_master(&p);
	/* join fails if the child was killed by a signal. */
	tp_child_join(&c, TP_WAIT_MS, "SIGHUP-ignoring leader after master close");
	tp_pty_close(&p);
}

/* The foreground job: the leader's child in its own process group. */
struct fg_arg {
	struct tp_pty *p;
	int ready_w;  /* the fg process writes its pid once it is foreground */
	int report_w; /* the fg process writes 'H' when SIGHUP arrives */
	int query_r;  /* -1, or: one byte here asks the fg process whether a
			 SIGHUP is pending now ('H') or not ('N') */
	bool leader_lives; /* the leader ignores SIGHUP and outlives the hangup */
};

/* The answer to a query on a->query_r: 'H' when SIGHUP (blocked) is
 * pending, 'N' when not; 'T' when no query came in time. */
static char
sighup_pending_on_query(struct fg_arg *a)
{
	char q;
	sigset_t pend;
	if (!(tp_poll1(a->query_r, POLLIN, TP_WAIT_MS) & (POLLIN | POLLHUP)) ||
	    read(a->query_r, &q, 1) != 1)
		return 'T';
	if (sigpending(&pend) != 0)
		return 'E';
	return sigismember(&pend, SIGHUP) ? 'H' : 'N';
}

static int
fg_member(struct fg_arg *a)
{
	sigset_t set;
	struct timespec ts = {.tv_sec = TP_WAIT_MS / 1000};
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	pid_t me = getpid();

	alarm(TP_CASE_TIMEOUT_S + 5); /* alarms are not inherited */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (setpgid(0, 0) != 0)
		_exit(2);
	/* The leader makes us the foreground group: wait for that state. */
	while (tcgetpgrp(a->p->slave) != me) {
		if (tp_now_ms() > deadline)
			_exit(3);
		tp_backoff(&step);
	}
	if (write(a->ready_w, &me, sizeof(me)) != sizeof(me))
		_exit(4);
	char r;
	if (a->query_r >= 0) {
		r = sighup_pending_on_query(a);
	} else {
		int sig;
		while ((sig = sigtimedwait(&set, NULL, &ts)) < 0 && errno == EINTR)
			;
		r = sig == SIGHUP ? 'H' : 'T';
	}
	if (write(a->report_w, &r, 1) != 1)
		_exit(5);
	_exit(0);
}

static int
leader_with_fg_job(void *arg)
{
	struct fg_arg *a = arg;
	struct leader_arg la = {.p = a->p};

	/* The hangup must kill us, whatever disposition we inherited, unless
	 * the case wants a controlling process that lives on. */
	signal(SIGHUP, a->leader_lives ? SIG_IGN : SIG_DFL);
	if (become_ctty_leader(&la))
		return 1;
	pid_t fg = fork();
	if (fg < 0)
		return tp_child_fail("fork: %s", strerror(errno));
	if (fg == 0)
		fg_member(a);
	/* Only the fg process may answer on these pipes. */
	close(a->ready_w);
	close(a->report_w);
	/* Both sides call setpgid so neither races the other. */
	setpgid(fg, fg);
	/* Giving the terminal away makes us a background process. */
	signal(SIGTTOU, SIG_IGN);
	if (tcsetpgrp(a->p->slave, fg) != 0)
		return tp_child_fail("tcsetpgrp: %s", strerror(errno));
	/* Default SIGHUP action: the hangup kills us (ignored: the case
	 * kills us); the alarm from tp_child_start bounds this wait. */
	for (;;)
		pause();
}

TP_CASE(foreground_pgrp_gets_sighup, TP_POSIX,
	"When the master closes, the controlling process dies of SIGHUP and "
	"the foreground process group (another group of the session) then "
	"gets SIGHUP too")
{
	struct tp_pty p;
	struct tp_child c;
	int rp[2], rr[2];
	pid_t fg;
	char r;

	/* The fg process outlives its parent: become its reaper. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		atf_tc_fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	tp_pty_open(&p, TP_COOKED);
	if (pipe2(rp, O_CLOEXEC) != 0 || pipe2(rr, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	struct fg_arg a = {.p = &p, .ready_w = rp[1], .report_w = rr[1],
			   .query_r = -1};
	tp_child_start(&c, leader_with_fg_job, &a);
	close(rp[1]);
	close(rr[1]);
	tp_read_exact(rp[0], &fg, sizeof(fg), sizeof(fg),
		      "foreground job ready");
	tp_track(fg);
	tp_close_master(&p);

	int st = tp_child_reap(&c, TP_WAIT_MS, "controlling process after "
					       "master close");
	ATF_CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP,
		      "controlling process: %s %d, expected death by SIGHUP",
		      WIFSIGNALED(st) ? "signal" : "exit status",
		      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	tp_read_exact(rr[0], &r, 1, 1, "foreground job's SIGHUP report");
	ATF_CHECK_MSG(r == 'H', "foreground job: no SIGHUP within %d ms",
		      TP_WAIT_MS);
	st = tp_wait_exit(fg, TP_WAIT_MS, "foreground job exit");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "foreground job: status 0x%x", (unsigned)st);
	close(rp[0]);
	close(rr[0]);
	tp_pty_close(&p);
}

TP_CASE(foreground_pgrp_spared_while_leader_lives, TP_LINUX,
	"When the master closes, the hangup signals only the controlling "
	"process: a foreground process group of the same session gets no "
	"SIGHUP from it while the controlling process (here one that "
	"ignores SIGHUP) lives on")
{
	struct tp_pty p;
	struct tp_child c;
	int rp[2], rr[2], rq[2];
	pid_t fg;
	char r;

	/* The fg process outlives its parent: become its reaper. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		atf_tc_fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	tp_pty_open(&p, TP_COOKED);
	if (pipe2(rp, O_CLOEXEC) != 0 || pipe2(rr, O_CLOEXEC) != 0 ||
	    pipe2(rq, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	struct fg_arg a = {.p = &p, .ready_w = rp[1], .report_w = rr[1],
			   .query_r = rq[0], .leader_lives = true};
	tp_child_start(&c, leader_with_fg_job, &a);
	close(rp[1]);
	close(rr[1]);
	close(rq[0]);
	tp_read_exact(rp[0], &fg, sizeof(fg), sizeof(fg),
		      "foreground job ready");
	tp_track(fg);
	/* The hangup runs inside this close (pty_close -> tty_vhangup): every
	 * signal it sends is pending once close returns. */
	tp_close_master(&p);
	tp_write_all(rq[1], "?", 1, "query to the foreground job");
	tp_read_exact(rr[0], &r, 1, 1, "foreground job's answer: SIGHUP pending?");
	ATF_CHECK_MSG(r == 'N', "foreground job after the hangup: %s",
		      r == 'H' ? "SIGHUP pending, though the controlling process "
				 "lives on" : "no answer to the query");
	ATF_CHECK_MSG(!tp_has_exited(c.pid), "the SIGHUP-ignoring controlling "
		      "process exited on the hangup");
	kill(c.pid, SIGKILL);
	tp_child_reap(&c, TP_WAIT_MS, "controlling process after SIGKILL");
	int st = tp_wait_exit(fg, TP_WAIT_MS, "foreground job exit");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "foreground job: status 0x%x", (unsigned)st);
	close(rp[0]);
	close(rr[0]);
	close(rq[1]);
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- vhangup */

/* TIOCVHANGUP on fd, skipping where CAP_SYS_ADMIN is missing. */
static void
tiocvhangup(int fd)
{
	if (ioctl(fd, TIOCVHANGUP) == 0)
		return;
	if (errno == EPERM)
		atf_tc_skip("needs CAP_SYS_ADMIN for TIOCVHANGUP");
	atf_tc_fail("TIOCVHANGUP: %s", strerror(errno));
}

TP_CASE_META(tiocvhangup_hangs_up_other_fds, TP_LINUX,
	  "TIOCVHANGUP on one slave descriptor (CAP_SYS_ADMIN) hangs up every "
	  "slave descriptor (read 0, write EIO) but not the master, and the "
	  "slave can be reopened and used afterwards",
	     TP_REQUIRE_ROOT(tc))
{
	struct tp_pty p;
	char buf[8];

	tp_pty_open(&p, TP_RAW);
	int s2 = open(p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s2 < 0)
		atf_tc_fail("second open of %s: %s", p.name, strerror(errno));
	tiocvhangup(p.slave);
	short rev = tp_poll1(s2, ALL_EVENTS, 0);
	ATF_CHECK_MSG(rev == HUNG_UP_REVENTS, "other fd: revents 0x%x",
		      (unsigned)rev);
	errno = 0;
	ssize_t n = read(s2, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 0, "other fd: read %zd (%s), expected 0", n,
		      n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(s2, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO,
		      "other fd: write %zd (%s), expected EIO", n, strerror(errno));
	errno = 0;
	n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 0, "fd that did the ioctl: read %zd, expected 0", n);

	/* The master is not hung up: no EIO while hung-up fds stay open. */
	tp_set_nonblock(p.master, true);
	errno = 0;
	n = read(p.master, buf, sizeof(buf));
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN,
		      "master read after slave vhangup: %zd (%s), expected "
		      "EAGAIN",
		      n, strerror(errno));

	/* A fresh open (what getty does after vhangup) works both ways. */
	int s3 = open(p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s3 < 0)
		atf_tc_fail("reopen of %s after TIOCVHANGUP: %s", p.name,
			    strerror(errno));
	tp_tc_raw(s3);
	tp_write_str(s3, "up", "write on the reopened slave");
	tp_read_exact(p.master, buf, 2, sizeof(buf), "master read of up");
	ATF_CHECK(memcmp(buf, "up", 2) == 0);
	tp_write_str(p.master, "ok", "master write to the reopened slave");
	tp_read_exact(s3, buf, 2, sizeof(buf), "reopened slave read of ok");
	ATF_CHECK(memcmp(buf, "ok", 2) == 0);

	/* EIO on the master only once the last slave file closes. */
	close(s2);
	tp_close_slave(&p);
	errno = 0;
	n = read(p.master, buf, sizeof(buf));
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN,
		      "master read with only the reopened slave: %zd (%s)", n,
		      strerror(errno));
	close(s3);
	errno = 0;
	n = read(p.master, buf, sizeof(buf));
	ATF_CHECK_MSG(n == -1 && errno == EIO,
		      "master read after all slave closes: %zd (%s), expected "
		      "EIO",
		      n, strerror(errno));
	tp_pty_close(&p);
}

TP_CASE_ROOT(tiocvhangup_resets_termios, TP_LINUX,
	"A hangup gives a pty slave a new pty's termios again: after "
	"TIOCVHANGUP of a raw slave, a reopen of the same slave reads the "
	"flags and control characters of a fresh pair's slave, so the next "
	"session does not inherit the last one's modes")
{
	struct tp_pty p, fresh;
	struct termios want, got;

	tp_pty_open(&fresh, TP_COOKED);
	tp_tc_get(fresh.slave, &want);
	tp_pty_close(&fresh);
	tp_pty_open(&p, TP_RAW);
	tiocvhangup(p.slave);
	int s = open(p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		atf_tc_fail("reopen of %s after TIOCVHANGUP: %s", p.name,
			    strerror(errno));
	tp_tc_get(s, &got);
	ATF_CHECK_MSG(got.c_iflag == want.c_iflag && got.c_oflag == want.c_oflag &&
		      got.c_cflag == want.c_cflag && got.c_lflag == want.c_lflag,
		      "flags after the hangup i%#o o%#o c%#o l%#o, a fresh slave's "
		      "i%#o o%#o c%#o l%#o", (unsigned)got.c_iflag,
		      (unsigned)got.c_oflag, (unsigned)got.c_cflag,
		      (unsigned)got.c_lflag, (unsigned)want.c_iflag,
		      (unsigned)want.c_oflag, (unsigned)want.c_cflag,
		      (unsigned)want.c_lflag);
	ATF_CHECK_MSG(memcmp(got.c_cc, want.c_cc, sizeof got.c_cc) == 0,
		      "control characters after the hangup differ from a fresh "
		      "slave's");
	close(s);
	tp_pty_close(&p);
}

/* Writes BLOCKED_WRITE bytes at once to the slave nobody reads; the case
 * hangs it up while it sleeps.  Reports write()'s result on report_w. */
#define BLOCKED_WRITE (256 * 1024)
struct blocked_writer {
	int fd;
	int report_w;
};

static int
write_until_hangup(void *arg)
{
	struct blocked_writer *w = arg;
	static char buf[BLOCKED_WRITE];
	memset(buf, 'w', sizeof buf);
	errno = 0;
	ssize_t n = write(w->fd, buf, sizeof buf);
	int err = n < 0 ? errno : 0;
	if (write(w->report_w, &n, sizeof n) != sizeof n ||
	    write(w->report_w, &err, sizeof err) != sizeof err)
		return tp_child_fail("report pipe: %s", strerror(errno));
	return 0;
}

TP_CASE_ROOT(tiocvhangup_wakes_blocked_writer, TP_LINUX,
	"A hangup wakes a writer asleep on a full pty slave: after "
	"TIOCVHANGUP, its blocking write() of 256 KiB returns at once with "
	"the bytes it queued or EIO, with the master still open and "
	"nobody reading")
{
	struct tp_pty p;
	struct tp_child c;
	int rp[2];
	ssize_t n;
	int err;

	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE(pipe2(rp, O_CLOEXEC) == 0);
	struct blocked_writer w = {.fd = p.slave, .report_w = rp[1]};
	tp_child_start(&c, write_until_hangup, &w);
	close(rp[1]);
	tp_wait_blocked(c.pid, SYS_write, "writer asleep on the full slave");
	/* The hangup waits for the writer to leave the line discipline, so
	 * a writer it does not wake keeps the ioctl itself from returning. */
	tp_waiting_for("TIOCVHANGUP to return (it waits for the sleeping "
		       "writer to be woken and leave the line discipline)");
	tiocvhangup(p.slave);
	tp_read_exact(rp[0], &n, sizeof n, sizeof n,
		      "the woken writer's write() result");
	tp_read_exact(rp[0], &err, sizeof err, sizeof err, "its errno");
	ATF_CHECK_MSG((n > 0 && n < BLOCKED_WRITE) || (n == -1 && err == EIO),
		      "write() woken by the hangup returned %zd (%s), want the "
		      "bytes queued or EIO", n, n < 0 ? strerror(err) : "bytes");
	tp_child_join(&c, TP_WAIT_MS, "the woken writer");
	close(rp[0]);
	tp_pty_close(&p);
}

/* getty-style: ignore SIGHUP, vhangup() the ctty, reopen it. */
static int
getty_vhangup(void *arg)
{
	struct leader_arg *a = arg;

	signal(SIGHUP, SIG_IGN);
	if (become_ctty_leader(a))
		return 1;
	if (vhangup() != 0)
		return tp_child_fail("vhangup: %s", strerror(errno));
	if (check_hung_up(a->p->slave, "ctty slave after vhangup()"))
		return 1;
	if (no_ctty())
		return 1;
	/* Reopening without O_NOCTTY makes it the ctty again. */
	int fd = open(a->p->name, O_RDWR);
	if (fd < 0)
		return tp_child_fail("reopen %s: %s", a->p->name, strerror(errno));
	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (tty < 0)
		return tp_child_fail("/dev/tty after reopen: %s", strerror(errno));
	if (write(tty, "z", 1) != 1)
		return tp_child_fail("write via /dev/tty: %s", strerror(errno));
	if (ready(a->ready_w))
		return 1;
	return 0;
}

TP_CASE_META(vhangup_syscall_hangs_up_ctty, TP_LINUX,
	  "vhangup() by a session leader that ignores SIGHUP (as getty does, "
	  "CAP_SYS_ADMIN) hangs up its ctty and every other slave descriptor, "
	  "detaches the ctty, and a reopen of the slave works again",
	     TP_REQUIRE_ROOT(tc))
{
	struct tp_pty p;
	struct tp_child c;
	struct leader_arg a = {0};
	int pfd[2];
	char buf[8];

	tp_pty_open(&p, TP_RAW);
	if (pipe2(pfd, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	a.p = &p;
	a.ready_w = pfd[1];
	tp_child_start(&c, getty_vhangup, &a);
	close(pfd[1]);
	wait_ready(pfd[0], &c, "child done with vhangup and reopen");
	close(pfd[0]);
	/* Before the child exits, its reopened fd keeps the slave open;
	 * the byte it wrote through /dev/tty reached the master. */
	tp_read_exact(p.master, buf, 1, 1, "byte written through /dev/tty");
	ATF_CHECK(buf[0] == 'z');
	tp_child_join(&c, TP_WAIT_MS, "getty-style vhangup child");
	/* The case's own slave fd was hung up by the child's vhangup(). */
	errno = 0;
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == 0, "case's slave fd: read %zd (%s), expected 0", n,
		      n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(p.slave, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO,
		      "case's slave fd: write %zd (%s), expected EIO", n,
		      strerror(errno));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, master_close_sends_sighup_to_leader);
	ATF_TP_ADD_TC(tp, hung_up_slave_read_eof_write_eio);
	ATF_TP_ADD_TC(tp, hung_up_slave_refuses_async_io);
	ATF_TP_ADD_TC(tp, sighup_ignored_leader_survives);
	ATF_TP_ADD_TC(tp, foreground_pgrp_gets_sighup);
	ATF_TP_ADD_TC(tp, foreground_pgrp_spared_while_leader_lives);
	ATF_TP_ADD_TC(tp, tiocvhangup_hangs_up_other_fds);
	ATF_TP_ADD_TC(tp, tiocvhangup_resets_termios);
	ATF_TP_ADD_TC(tp, tiocvhangup_wakes_blocked_writer);
	ATF_TP_ADD_TC(tp, vhangup_syscall_hangs_up_ctty);
	return atf_no_error();
}
