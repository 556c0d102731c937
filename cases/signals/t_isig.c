// SPDX-License-Identifier: GPL-2.0-only
/* t_isig.c: ISIG characters (VINTR, VQUIT, VSUSP) signal the foreground
 * process group of the slave, and flush its queued input unless NOFLSH.
 *
 * Shape of every case: a child setsid()s, takes the slave as controlling
 * tty (so its process group is the foreground one), blocks the signal and
 * says 'r'.  The case writes a complete line followed by the signal
 * character; the child collects the signal with sigtimedwait and says 's';
 * the case then writes a marker line.  The first line the child reads tells
 * whether the queued line was flushed: the flush happens inside the same
 * receive call as the signal, so it precedes the marker. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct isig {
	struct tp_pty p;
	struct tp_sync s;
	int sig;             /* the signal the child waits for, 0 for none */
	const char *expect;  /* first line the child must read */
};

/* Printable form of a short line, for messages. */
static const char *
visible(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s != '\0' && o + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

/* In the child: read one canonical line within TP_WAIT_MS. */
static int
child_read_line(int fd, char *buf, size_t len, const char *what)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int r;
	do
		r = poll(&pfd, 1, TP_WAIT_MS);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return tp_child_fail("%s: no line readable within %d ms", what,
				     TP_WAIT_MS);
	ssize_t n = read(fd, buf, len - 1);
	if (n < 0)
		return tp_child_fail("%s: read: %s", what, strerror(errno));
	buf[n] = '\0';
	return 0;
}

static int
isig_child(void *arg)
{
	struct isig *a = arg;
	sigset_t set;
	char line[64];

	tp_child_sync_side(&a->s);
	/* Blocked, not ignored: the signal stays pending for sigtimedwait. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (tp_child_take_ctty(a->p.slave) || tp_child_post(&a->s, 'r'))
		return 1;
	if (a->sig != 0) {
		if (tp_child_await_signal(a->sig, TP_WAIT_MS,
					  "signal from the ISIG character") ||
		    tp_child_post(&a->s, 's'))
			return 1;
	}
	if (child_read_line(a->p.slave, line, sizeof(line), "first line"))
		return 1;
	if (strcmp(line, a->expect) != 0) {
		char v1[128], v2[128];
		return tp_child_fail("first line read was \"%s\", expected "
				     "\"%s\"",
				     visible(line, v1, sizeof(v1)),
				     visible(a->expect, v2, sizeof(v2)));
	}
	/* No ISIG signal may be left pending (none raised twice or extra). */
	sigset_t pend;
	sigpending(&pend);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) && sigismember(&pend, sig))
			return tp_child_fail("signal %d (%s) pending after the "
					     "line was read",
					     sig, strsignal(sig));
	return 0;
}

/* Run one ISIG scenario: `input` is written when the child is ready; if
 * sig != 0 the marker line "z\n" follows once the child has the signal. */
static void
run_isig(struct isig *a, const char *input, const char *what)
{
	struct tp_child c;

	tp_sync_open(&a->s);
	tp_child_start(&c, isig_child, a);
	tp_sync_parent_side(&a->s, &c);
	tp_sync_await(&a->s, 'r', "child holding the slave as ctty");
	tp_write_str(a->p.master, input, what);
	if (a->sig != 0) {
		tp_sync_await(&a->s, 's', "child reporting the signal");
		tp_write_str(a->p.master, "z\n", "marker line");
	}
	tp_child_join(&c, TP_WAIT_MS, what);
	tp_sync_close(&a->s);
	tp_pty_close(&a->p);
}

/* A cooked slave without echo (echoes are not what these cases check). */
static void
open_isig_pty(struct isig *a, tcflag_t set, tcflag_t clear)
{
	tp_pty_open(&a->p, TP_COOKED);
	tp_lflag(a->p.slave, ICANON | ISIG | set, ECHO | clear);
}

static void
check_char_signals(int vchar, int sig, const char *name)
{
	struct isig a = {.sig = sig, .expect = "z\n"};
	struct termios t;
	char input[8];

	open_isig_pty(&a, 0, NOFLSH);
	tp_tc_get(a.p.slave, &t);
	snprintf(input, sizeof(input), "abc\n%c", t.c_cc[vchar]);
	run_isig(&a, input, name);
}

TP_CASE(vintr_sends_sigint_and_flushes, TP_POSIX,
	"VINTR (^C) from the master sends SIGINT to the slave's foreground "
	"process group and discards the queued line (NOFLSH clear)")
{
	check_char_signals(VINTR, SIGINT, "abc\\n then VINTR");
}

TP_CASE(vquit_sends_sigquit_and_flushes, TP_POSIX,
	"VQUIT (^\\) sends SIGQUIT to the foreground process group and "
	"discards the queued line (NOFLSH clear)")
{
	check_char_signals(VQUIT, SIGQUIT, "abc\\n then VQUIT");
}

TP_CASE(vsusp_sends_sigtstp_and_flushes, TP_POSIX,
	"VSUSP (^Z) sends SIGTSTP to the foreground process group and "
	"discards the queued line (NOFLSH clear)")
{
	check_char_signals(VSUSP, SIGTSTP, "abc\\n then VSUSP");
}

TP_CASE(noflsh_keeps_queued_input, TP_POSIX,
	"With NOFLSH set, VINTR still sends SIGINT but the queued line "
	"survives and is read before the marker")
{
	struct isig a = {.sig = SIGINT, .expect = "abc\n"};

	open_isig_pty(&a, NOFLSH, 0);
	run_isig(&a, "abc\n\003", "abc\\n then ^C with NOFLSH");
}

TP_CASE(isig_off_passes_char_as_data, TP_POSIX,
	"With ISIG clear, ^C ^\\ ^Z are ordinary input bytes: they reach the "
	"reader inside the line and no signal is raised")
{
	struct isig a = {.sig = 0, .expect = "a\003\034\032b\n"};

	open_isig_pty(&a, 0, ISIG);
	run_isig(&a, "a\003\034\032b\n", "line with ^C ^\\ ^Z, ISIG clear");
}

TP_CASE(vintr_char_is_configurable, TP_POSIX,
	"Setting c_cc[VINTR] to 'q' makes 'q' raise SIGINT, while "
	"^C becomes ordinary data")
{
	struct isig a = {.sig = SIGINT, .expect = "a\003\n"};
	struct termios t;

	/* NOFLSH keeps the line, so the reader sees whether ^C stayed in it. */
	open_isig_pty(&a, NOFLSH, 0);
	tp_tc_get(a.p.slave, &t);
	t.c_cc[VINTR] = 'q';
	tp_tc_set(a.p.slave, &t);
	run_isig(&a, "a\003\nq", "a^C\\n then q as VINTR");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vintr_sends_sigint_and_flushes);
	ATF_TP_ADD_TC(tp, vquit_sends_sigquit_and_flushes);
	ATF_TP_ADD_TC(tp, vsusp_sends_sigtstp_and_flushes);
	ATF_TP_ADD_TC(tp, noflsh_keeps_queued_input);
	ATF_TP_ADD_TC(tp, isig_off_passes_char_as_data);
	ATF_TP_ADD_TC(tp, vintr_char_is_configurable);
	return atf_no_error();
}
