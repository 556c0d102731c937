// SPDX-License-Identifier: GPL-2.0-only
/* t_tiocsig.c: TIOCSIG on the master (pty_signal) signals the slave's
 * foreground process group the way a terminal emulator's "send ^C" does,
 * without going through the input stream: no flush, no ISIG needed.  Only
 * SIGINT, SIGQUIT and SIGTSTP are accepted; anything else is EINVAL.
 *
 * Shape of every case: a child setsid()s, takes the slave as controlling
 * tty, blocks every signal a case might send and says 'r'; the case does
 * its ioctls and says 'd'.  kill_pgrp() queues the signal before the ioctl
 * returns, so after 'd' the child's pending set is final: it checks that
 * exactly the expected signal (or none) is pending, then reads one line. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Signals a case may send or wrongly deliver; SIGKILL cannot be blocked, so
 * a wrongly delivered one shows as the child killed. */
static const int watched[] = {SIGINT, SIGQUIT, SIGTSTP, SIGHUP, SIGTERM,
			      SIGUSR1, SIGWINCH};

struct sigcase {
	struct tp_pty p;
	struct tp_sync s;
	int want;           /* the signal that must be pending, 0 for none */
	const char *line;   /* the first line the child must read, or NULL */
};

static int
child_check_pending(int want)
{
	sigset_t pend;
	sigpending(&pend);
	for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++) {
		int sig = watched[i];
		bool on = sigismember(&pend, sig);
		if (sig == want && !on)
			return tp_child_fail("%s not pending after TIOCSIG",
					     strsignal(sig));
		if (sig != want && on)
			return tp_child_fail("%s pending, want %s", strsignal(sig),
					     want ? strsignal(want) : "none");
	}
	return 0;
}

static int
child_read_line(int fd, const char *want)
{
	char buf[64];
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	if (poll(&pfd, 1, TP_WAIT_MS) <= 0)
		return tp_child_fail("no line readable within %d ms", TP_WAIT_MS);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return tp_child_fail("read: %s", strerror(errno));
	buf[n] = '\0';
	if (strcmp(buf, want) != 0)
		return tp_child_fail("first line read was \"%s\", want \"%s\"",
				     tp_esc(buf, (size_t)n),
				     tp_esc(want, strlen(want)));
	return 0;
}

static int
sig_child(void *arg)
{
	struct sigcase *a = arg;
	sigset_t set;

	tp_child_sync_side(&a->s);
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
		sigaddset(&set, watched[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (tp_child_take_ctty(a->p.slave) || tp_child_post(&a->s, 'r') ||
	    tp_child_await(&a->s, 'd', "the case's ioctls done") ||
	    child_check_pending(a->want))
		return 1;
	return a->line ? child_read_line(a->p.slave, a->line) : 0;
}

/* The child as the slave's session leader; ioctls(a) runs in between. */
static void
run_sigcase(struct sigcase *a, void (*ioctls)(struct sigcase *),
	    const char *what)
{
	struct tp_child c;

	tp_sync_open(&a->s);
	tp_child_start(&c, sig_child, a);
	tp_sync_parent_side(&a->s, &c);
	tp_sync_await(&a->s, 'r', "child holding the slave as ctty");
	ioctls(a);
	tp_sync_post(&a->s, 'd', "ioctls done");
	tp_child_join(&c, TP_WAIT_MS, what);
	tp_sync_close(&a->s);
	tp_pty_close(&a->p);
}

static void
open_cooked(struct sigcase *a, tcflag_t set, tcflag_t clear)
{
	tp_pty_open(&a->p, TP_COOKED);
	tp_lflag(a->p.slave, ICANON | set, ECHO | clear);
}

static void
send_want(struct sigcase *a)
{
	ATF_REQUIRE_MSG(ioctl(a->p.master, TIOCSIG, a->want) == 0,
			"TIOCSIG %s on the master: %s", strsignal(a->want),
			strerror(errno));
}

static void
check_sends(int sig)
{
	struct sigcase a = {.want = sig};
	open_cooked(&a, ISIG, 0);
	run_sigcase(&a, send_want, strsignal(sig));
}

TP_CASE(tiocsig_sends_sigint_to_foreground, TP_LINUX,
	"TIOCSIG SIGINT on the master queues SIGINT for the slave's "
	"foreground process group, and no other signal")
{
	check_sends(SIGINT);
}

TP_CASE(tiocsig_sends_sigquit_to_foreground, TP_LINUX,
	"TIOCSIG SIGQUIT on the master queues SIGQUIT for the slave's "
	"foreground process group, and no other signal")
{
	check_sends(SIGQUIT);
}

TP_CASE(tiocsig_sends_sigtstp_to_foreground, TP_LINUX,
	"TIOCSIG SIGTSTP on the master queues SIGTSTP for the slave's "
	"foreground process group, and no other signal")
{
	check_sends(SIGTSTP);
}

static void
queue_then_signal(struct sigcase *a)
{
	tp_write_str(a->p.master, "kept\n", "line queued before TIOCSIG");
	tp_wait_fionread(a->p.slave, 5, TP_WAIT_MS, "queued line on the slave");
	send_want(a);
}

TP_CASE(tiocsig_keeps_queued_input, TP_LINUX,
	"Unlike VINTR, TIOCSIG SIGINT does not flush: a line queued before "
	"it (NOFLSH clear) is still the first line the slave reads")
{
	struct sigcase a = {.want = SIGINT, .line = "kept\n"};
	open_cooked(&a, ISIG, NOFLSH);
	run_sigcase(&a, queue_then_signal, "queued line, then TIOCSIG");
}

TP_CASE(tiocsig_does_not_need_isig, TP_LINUX,
	"TIOCSIG is not input processing: with ISIG clear it still sends "
	"SIGINT to the foreground process group")
{
	struct sigcase a = {.want = SIGINT};
	open_cooked(&a, 0, ISIG);
	run_sigcase(&a, send_want, "TIOCSIG with ISIG clear");
}

static void
send_refused(struct sigcase *a)
{
	const int bad[] = {0, SIGHUP, SIGTERM, SIGUSR1, SIGWINCH, SIGKILL,
			   _NSIG + 1, -SIGINT};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		int r = ioctl(a->p.master, TIOCSIG, bad[i]);
		ATF_CHECK_MSG(r == -1 && errno == EINVAL,
			      "TIOCSIG %d on the master: %d (%s), want EINVAL",
			      bad[i], r, strerror(errno));
	}
	tp_write_str(a->p.master, "after\n", "line after the refused ioctls");
}

TP_CASE(tiocsig_refuses_other_signals, TP_LINUX,
	"TIOCSIG accepts only SIGINT, SIGQUIT and SIGTSTP: 0, SIGHUP, SIGTERM, "
	"SIGUSR1, SIGWINCH, SIGKILL and out-of-range numbers fail EINVAL and "
	"nothing reaches the foreground group")
{
	struct sigcase a = {.want = 0, .line = "after\n"};
	open_cooked(&a, ISIG, 0);
	run_sigcase(&a, send_refused, "refused TIOCSIG numbers");
}

static void
send_on_slave(struct sigcase *a)
{
	errno = 0;
	int r = ioctl(a->p.slave, TIOCSIG, SIGINT);
	ATF_CHECK_MSG(r == -1, "TIOCSIG on the slave succeeded; only the "
		      "master may signal the other side");
	tp_write_str(a->p.master, "after\n", "line after the slave ioctl");
}

TP_CASE(tiocsig_on_slave_is_refused, TP_LINUX,
	"TIOCSIG is a master ioctl: on the slave it fails and no signal "
	"reaches the slave's foreground group")
{
	struct sigcase a = {.want = 0, .line = "after\n"};
	open_cooked(&a, ISIG, 0);
	run_sigcase(&a, send_on_slave, "TIOCSIG on the slave");
}

TP_CASE(tiocsig_without_session_is_harmless, TP_LINUX,
	"On a pty that is nobody's controlling tty (no foreground group), "
	"TIOCSIG SIGINT succeeds and signals no one, the caller included")
{
	struct tp_pty p;
	sigset_t set, pend;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	ATF_REQUIRE(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	tp_pty_open(&p, TP_COOKED);
	ATF_CHECK_MSG(ioctl(p.master, TIOCSIG, SIGINT) == 0,
		      "TIOCSIG SIGINT without a foreground group: %s",
		      strerror(errno));
	sigpending(&pend);
	ATF_CHECK_MSG(!sigismember(&pend, SIGINT),
		      "SIGINT pending in the case after TIOCSIG on a pty "
		      "without a session");
	tp_pty_close(&p);
	ATF_REQUIRE(sigprocmask(SIG_UNBLOCK, &set, NULL) == 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocsig_sends_sigint_to_foreground);
	ATF_TP_ADD_TC(tp, tiocsig_sends_sigquit_to_foreground);
	ATF_TP_ADD_TC(tp, tiocsig_sends_sigtstp_to_foreground);
	ATF_TP_ADD_TC(tp, tiocsig_keeps_queued_input);
	ATF_TP_ADD_TC(tp, tiocsig_does_not_need_isig);
	ATF_TP_ADD_TC(tp, tiocsig_refuses_other_signals);
	ATF_TP_ADD_TC(tp, tiocsig_on_slave_is_refused);
	ATF_TP_ADD_TC(tp, tiocsig_without_session_is_harmless);
	return atf_no_error();
}
